import { eq } from 'drizzle-orm';
import type { SecondFactorRequired, TokenPair, TotpEnrolment } from '@candor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { auditLog, staffTotp, users } from '../../db/schema.js';
import { freshIp, freshPhone, get, json, post, send, signUp } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { lastCodeFor } from '../../test/outbox.js';
import { staffLogin, totpCode } from '../../test/second-factor.js';

const PASSWORD = 'correct horse battery staple';
const MINUTE = 60_000;
const UUID = '00000000-0000-4000-8000-000000000000';

// Issue 34, "Staff sign in like at a bank": a moderator's or admin's password alone opens
// nothing; the first login enrols a TOTP authenticator and every later one asks for a code,
// each code good once, guesses limited per account as passwords are. Members are not asked.
// The app's clock is the test's, so codes are computed for the time the server sees.
describe.each(engines)('staff second factor on %s', (engine) => {
  let database: Database;
  let app: App;
  let now = Date.parse('2026-11-27T03:00:00Z');
  const clock = () => now;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database, {}, { clock: () => new Date(now) });
  });
  afterAll(async () => {
    await closeAll(app, database);
  });

  /** A new account of `role` with a password, as a member would sign up and then be promoted. */
  async function account(role: 'member' | 'moderator' | 'admin') {
    const phone = freshPhone();
    await signUp(app, phone, { password: PASSWORD });
    await database.db
      .update(users)
      .set({ role })
      .where(eq(users.phoneLookup, app.identities.lookup(phone)));
    return { phone, password: PASSWORD };
  }
  const passwordStep = async (who: { phone: string; password: string }, ip = freshIp()) => {
    const res = await post(
      app,
      '/api/token/',
      { phone_number: who.phone, password: who.password },
      { ip },
    );
    expect(res.statusCode, res.body).toBe(200);
    return json<SecondFactorRequired & Partial<TokenPair>>(res);
  };
  const giveCode = (challenge: string, code: string) =>
    post(app, '/api/token/totp/', { challenge, code });
  /** An enrolled staff account and its secret (its first login done). */
  async function enrolled(role: 'moderator' | 'admin' = 'admin') {
    const who = await account(role);
    const { secret, access } = await staffLogin(app, who, { now: clock });
    return { ...who, secret, access };
  }

  it('gives a staff password alone no token, and its challenge opens no /admin route', async () => {
    const who = await account('admin');
    const step = await passwordStep(who);
    expect(step).toMatchObject({
      status: 'second_factor_required',
      enrol: true,
      methods: ['totp'],
    });
    expect(step.access).toBeUndefined();
    expect(step.refresh).toBeUndefined();

    // Every staff route the API documents, with the challenge as a bearer: 401, never served.
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(
      await get(app, '/api/docs/json'),
    );
    const routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/admin/'))
      .flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => ({
          method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
          url: path.replace(/\{[^}]+\}/g, UUID),
        })),
      );
    expect(routes.length).toBeGreaterThan(20);
    for (const { method, url } of routes) {
      const res = await send(app, method, url, method === 'GET' ? undefined : {}, {
        token: step.challenge,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    // Nor any member route: it is not an access token.
    expect((await get(app, '/api/v1/user/detail/', { token: step.challenge })).statusCode).toBe(
      401,
    );
  });

  it('enrols TOTP at the first login, then asks every later login for a code', async () => {
    const who = await account('moderator');
    const first = await passwordStep(who);
    expect(first.enrol).toBe(true);
    const enrol = await post(app, '/api/token/totp/enrol/', { challenge: first.challenge });
    expect(enrol.statusCode).toBe(200);
    const { secret, uri } = json<TotpEnrolment>(enrol);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Candor:moderator-[0-9a-f]{8}\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).not.toContain(who.phone.slice(1));

    // The secret is stored sealed: the row does not hold it.
    const [row] = await database.db
      .select({ sealed: staffTotp.secretSealed, confirmed: staffTotp.confirmedAt })
      .from(staffTotp)
      .innerJoin(users, eq(users.id, staffTotp.userId))
      .where(eq(users.phoneLookup, app.identities.lookup(who.phone)));
    expect(row!.sealed).not.toContain(secret);
    expect(row!.sealed).toMatch(/^v1\./);
    expect(row!.confirmed).toBeNull();

    const wrong = await giveCode(first.challenge, totpCode(secret, now + 10 * MINUTE));
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong)).toMatchObject({ code: 'OTP_INVALID' });
    const right = await giveCode(first.challenge, totpCode(secret, now));
    expect(right.statusCode, right.body).toBe(200);
    const { access } = json<TokenPair>(right);
    expect((await get(app, '/api/v1/admin/signups/', { token: access })).statusCode).toBe(200);

    // Later logins: no new enrolment, a code after the password.
    now += MINUTE;
    const later = await passwordStep(who);
    expect(later).toMatchObject({ status: 'second_factor_required', enrol: false });
    const again = await post(app, '/api/token/totp/enrol/', { challenge: later.challenge });
    expect(again.statusCode).toBe(409);
    const ok = await giveCode(later.challenge, totpCode(secret, now));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('takes each code once: a replay in its own 30 seconds is refused, and so is an older code', async () => {
    const who = await enrolled();
    now += MINUTE;
    const code = totpCode(who.secret, now);
    const first = await passwordStep(who);
    expect((await giveCode(first.challenge, code)).statusCode).toBe(200);
    const second = await passwordStep(who);
    const replay = await giveCode(second.challenge, code);
    expect(replay.statusCode).toBe(400);
    expect(json(replay)).toMatchObject({ code: 'OTP_INVALID' });
    // The previous step's code (still inside the drift window) is older than the one spent.
    const older = await giveCode(second.challenge, totpCode(who.secret, now - 30_000));
    expect(older.statusCode).toBe(400);
    // The next step's code is new: it works.
    const next = await giveCode(second.challenge, totpCode(who.secret, now + 30_000));
    expect(next.statusCode).toBe(200);
  });

  it('lets one of several concurrent requests with the same code in', async () => {
    const who = await enrolled();
    now += 2 * MINUTE;
    const code = totpCode(who.secret, now);
    const steps = await Promise.all([1, 2, 3, 4].map(() => passwordStep(who)));
    const results = await Promise.all(steps.map((s) => giveCode(s.challenge, code)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400]);
  });

  it('checks no more guesses than the limit, even sent all at once', async () => {
    const who = await enrolled('moderator');
    now += 2 * MINUTE;
    const { challenge } = await passwordStep(who);
    const limit = app.config.auth.loginFailuresPerNumber;
    const right = totpCode(who.secret, now);
    // 40 concurrent guesses of every code but the right one.
    const guesses = Array.from({ length: 40 }, (_, i) =>
      String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const results = await Promise.all(guesses.map((g) => giveCode(challenge, g)));
    const checked = results.filter((r) => r.statusCode === 400).length;
    const refused = results.filter((r) => r.statusCode === 429);
    expect(checked).toBe(limit);
    expect(refused).toHaveLength(40 - limit);
    expect(refused[0]!.headers['retry-after']).toBeDefined();
    // The limit holds for the right code too, and for a new challenge from the password.
    expect((await giveCode(challenge, right)).statusCode).toBe(429);
    const fresh = await passwordStep(who);
    expect((await giveCode(fresh.challenge, right)).statusCode).toBe(429);
    // Once the window has passed, the owner's code works.
    now += app.config.auth.loginThrottleMinutes * MINUTE + MINUTE;
    const later = await passwordStep(who);
    const ok = await giveCode(later.challenge, totpCode(who.secret, now));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a forged, expired or member challenge', async () => {
    const who = await enrolled();
    now += MINUTE;
    const { challenge } = await passwordStep(who);
    const code = totpCode(who.secret, now);
    expect((await giveCode(`${challenge}x`, code)).statusCode).toBe(401);
    expect((await giveCode('not a token', code)).statusCode).toBe(401);
    now += 11 * MINUTE;
    const late = await giveCode(challenge, totpCode(who.secret, now));
    expect(late.statusCode).toBe(401);
    expect(json(late)).toMatchObject({ code: 'TOKEN_INVALID' });
    // An access token is not a challenge either.
    expect((await giveCode(who.access, code)).statusCode).toBe(401);
  });

  it('refuses to refresh a member session into a staff one when the role is written by hand', async () => {
    const phone = freshPhone();
    const member = await signUp(app, phone, { password: PASSWORD });
    await database.db
      .update(users)
      .set({ role: 'admin' })
      .where(eq(users.phoneLookup, app.identities.lookup(phone)));
    // The API ends sessions on every role change; a role set in SQL does not, and the session
    // it leaves was opened without a second factor: no staff token comes out of it.
    const refreshed = await post(app, '/api/token/refresh/', { refresh: member.refresh });
    expect(refreshed.statusCode).toBe(401);
    // The same account, logged in with its factor, refreshes as staff.
    const staff = await staffLogin(app, { phone, password: PASSWORD }, { now: clock });
    now += MINUTE;
    expect((await post(app, '/api/token/refresh/', { refresh: staff.refresh })).statusCode).toBe(
      200,
    );
  });

  it('does not ask a member', async () => {
    const who = await account('member');
    const res = await passwordStep(who);
    expect(res.access).toEqual(expect.any(String));
    expect(res.refresh).toEqual(expect.any(String));
    expect(res.status).toBeUndefined();
  });

  it('asks staff for the second factor after a password reset by text too', async () => {
    const who = await enrolled();
    const ip = freshIp();
    now += MINUTE;
    expect(
      (await post(app, '/api/v1/user/forgot-password/', { phone_number: who.phone }, { ip }))
        .statusCode,
    ).toBe(202);
    const otp = lastCodeFor(app.config.dataDir, who.phone);
    const reset = await post(
      app,
      '/api/v1/user/set-password/',
      { phone_number: who.phone, otp, password: 'a brand new passphrase' },
      { ip },
    );
    expect(reset.statusCode, reset.body).toBe(200);
    const body = json(reset);
    expect(body).toMatchObject({ status: 'second_factor_required', enrol: false });
    expect(body.access).toBeUndefined();
  });

  it("lets an admin reset another staff member's second factor, audited; not their own", async () => {
    const admin = await enrolled('admin');
    const moderator = await enrolled('moderator');
    const [target] = await database.db
      .select({ uuid: users.uuid })
      .from(users)
      .where(eq(users.phoneLookup, app.identities.lookup(moderator.phone)));
    const [self] = await database.db
      .select({ uuid: users.uuid })
      .from(users)
      .where(eq(users.phoneLookup, app.identities.lookup(admin.phone)));
    const resetOf = (uuid: string, token: string) =>
      post(app, `/api/v1/admin/users/${uuid}/second-factor/reset/`, {}, { token });

    expect((await resetOf(target!.uuid, moderator.access)).statusCode).toBe(403);
    expect((await resetOf(self!.uuid, admin.access)).statusCode).toBe(403);
    expect((await resetOf(UUID, admin.access)).statusCode).toBe(404);
    const done = await resetOf(target!.uuid, admin.access);
    expect(done.statusCode, done.body).toBe(200);

    // The moderator's session ended; the next login enrols afresh.
    expect((await get(app, '/api/v1/admin/signups/', { token: moderator.access })).statusCode).toBe(
      401,
    );
    now += MINUTE;
    const step = await passwordStep(moderator);
    expect(step.enrol).toBe(true);
    // The old authenticator's codes no longer work.
    expect((await giveCode(step.challenge, totpCode(moderator.secret, now))).statusCode).toBe(400);

    const [entry] = await database.db
      .select({ action: auditLog.action, target: auditLog.target })
      .from(auditLog)
      .where(eq(auditLog.action, 'user.second_factor_reset'));
    expect(entry).toEqual({ action: 'user.second_factor_reset', target: `user:${target!.uuid}` });
  });
});
