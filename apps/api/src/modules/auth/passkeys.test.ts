import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type {
  Passkey,
  PasskeyList,
  PasskeyLoginOptions,
  PasskeyRegistrationOptions,
  SecondFactorRequired,
  TokenPair,
} from '@candor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { auditLog, staffPasskeys, users, webauthnChallenges } from '../../db/schema.js';
import { freshPhone, get, json, post, send, signUp } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { SoftAuthenticator } from '../../test/passkey.js';
import { staffLogin, totpCode } from '../../test/second-factor.js';

const PASSWORD = 'correct horse battery staple';
const MINUTE = 60_000;

// Issue 34 (decision 024): a staff member adds passkeys from the staff area and then logs in
// with one after the password, the TOTP code staying as the fallback. The passkeys are made by
// a software authenticator with real P-256 keys and CBOR; the API checks them with
// @simplewebauthn/server. Each attack below is refused by one check, named in its title.
describe.each(engines)('staff passkeys on %s', (engine) => {
  let database: Database;
  let app: App;
  let now = Date.parse('2026-11-27T05:00:00Z');
  const clock = () => now;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database, {}, { clock: () => new Date(now) });
  });
  afterAll(async () => {
    await closeAll(app, database);
  });

  interface Staff {
    phone: string;
    password: string;
    secret: string;
    access: string;
    refresh: string;
    uuid: string;
  }

  /** A staff account with its TOTP enrolled and a session (its first login done). */
  async function staff(role: 'moderator' | 'admin' = 'moderator'): Promise<Staff> {
    const phone = freshPhone();
    await signUp(app, phone, { password: PASSWORD });
    const [row] = await database.db
      .update(users)
      .set({ role })
      .where(eq(users.phoneLookup, app.identities.lookup(phone)))
      .returning({ uuid: users.uuid });
    const login = await staffLogin(app, { phone, password: PASSWORD }, { now: clock });
    return {
      phone,
      password: PASSWORD,
      secret: login.secret,
      access: login.access,
      refresh: login.refresh,
      uuid: row!.uuid,
    };
  }

  const registrationOptions = async (who: Staff) => {
    const res = await post(app, '/api/v1/admin/passkeys/options/', {}, { token: who.access });
    expect(res.statusCode, res.body).toBe(200);
    return json<PasskeyRegistrationOptions>(res);
  };

  /** Adds a passkey of `authenticator` to the account, as the staff area does. */
  async function addPasskey(who: Staff, authenticator = new SoftAuthenticator()) {
    const options = await registrationOptions(who);
    const res = await post(
      app,
      '/api/v1/admin/passkeys/',
      { response: authenticator.register(options), name: 'Test key' },
      { token: who.access },
    );
    expect(res.statusCode, res.body).toBe(201);
    return { authenticator, passkey: json<Passkey>(res) };
  }

  const passwordStep = async (who: Staff) => {
    const res = await post(app, '/api/token/', { phone_number: who.phone, password: who.password });
    expect(res.statusCode).toBe(200);
    return json<SecondFactorRequired>(res);
  };

  /** The password, then passkey options: the login's challenge and what the browser is asked. */
  async function passkeyStep(who: Staff) {
    const step = await passwordStep(who);
    const res = await post(app, '/api/token/passkey/options/', { challenge: step.challenge });
    expect(res.statusCode, res.body).toBe(200);
    return { step, options: json<PasskeyLoginOptions>(res) };
  }

  const answer = (challenge: string, response: unknown) =>
    post(app, '/api/token/passkey/', { challenge, response });

  const refused = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(json(res)).toMatchObject({ code: 'PASSKEY_INVALID' });
  };

  const auditOf = (action: 'user.passkey_add' | 'user.passkey_remove', uuid: string) =>
    database.db
      .select({ action: auditLog.action, target: auditLog.target })
      .from(auditLog)
      .where(eq(auditLog.action, action))
      .then((rows) => rows.filter((r) => r.target === `user:${uuid}`));

  it('adds a passkey from the staff area, audited, and logs in with it after the password', async () => {
    const who = await staff();
    const before = await passwordStep(who);
    expect(before.methods).toEqual(['totp']);

    const options = await registrationOptions(who);
    expect(options.rp).toEqual({ name: 'Candor', id: 'candor.test' });
    // The user's name is the role and a uuid prefix, never the phone number.
    expect(JSON.stringify(options)).not.toContain(who.phone.slice(1));
    expect(options.attestation).toBe('none');
    const { authenticator, passkey } = await addPasskey(who);
    expect(passkey).toMatchObject({ name: 'Test key', transports: ['usb'], last_used_at: null });
    expect(await auditOf('user.passkey_add', who.uuid)).toHaveLength(1);

    const list = json<PasskeyList>(
      await get(app, '/api/v1/admin/passkeys/', { token: who.access }),
    );
    expect(list).toEqual({ results: [passkey], totp: true });

    // The next login offers the passkey first, the code still.
    now += MINUTE;
    const { step, options: login } = await passkeyStep(who);
    expect(step.methods).toEqual(['passkey', 'totp']);
    expect(login.rpId).toBe('candor.test');
    expect(login.allowCredentials).toEqual([
      { id: authenticator.id, type: 'public-key', transports: ['usb'] },
    ]);
    const ok = await answer(step.challenge, authenticator.assert(login));
    expect(ok.statusCode, ok.body).toBe(200);
    const { access } = json<TokenPair>(ok);
    expect((await get(app, '/api/v1/admin/signups/', { token: access })).statusCode).toBe(200);
    const [row] = await database.db
      .select({ counter: staffPasskeys.counter, lastUsed: staffPasskeys.lastUsedAt })
      .from(staffPasskeys)
      .where(eq(staffPasskeys.id, passkey.id));
    expect(row).toEqual({ counter: 1, lastUsed: new Date(now) });

    // The code is the fallback: it still works on an account with a passkey.
    now += MINUTE;
    const fallback = await passwordStep(who);
    const code = await post(app, '/api/token/totp/', {
      challenge: fallback.challenge,
      code: totpCode(who.secret, now),
    });
    expect(code.statusCode, code.body).toBe(200);
  });

  it('documents the passkey routes in the OpenAPI document', async () => {
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(
      await get(app, '/api/docs/json'),
    );
    expect(Object.keys(doc.paths['/api/token/passkey/options/']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/token/passkey/']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/v1/admin/passkeys/']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/v1/admin/passkeys/{id}/']!)).toEqual(['delete']);
  });

  it('keeps passkeys to staff sessions: 401 without one, 403 for a member', async () => {
    expect((await get(app, '/api/v1/admin/passkeys/')).statusCode).toBe(401);
    expect((await post(app, '/api/v1/admin/passkeys/options/', {})).statusCode).toBe(401);
    const member = await signUp(app, freshPhone(), { password: PASSWORD });
    for (const [method, url] of [
      ['GET', '/api/v1/admin/passkeys/'],
      ['POST', '/api/v1/admin/passkeys/options/'],
      ['POST', '/api/v1/admin/passkeys/'],
      ['DELETE', '/api/v1/admin/passkeys/00000000-0000-4000-8000-000000000000/'],
    ] as const) {
      const res = await send(app, method, url, method === 'GET' ? undefined : {}, {
        token: member.access,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('refuses passkey options to an account without one, and malformed answers as field errors', async () => {
    const who = await staff();
    const step = await passwordStep(who);
    const res = await post(app, '/api/token/passkey/options/', { challenge: step.challenge });
    expect(res.statusCode).toBe(409);
    const bad = await answer(step.challenge, { id: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).not.toHaveProperty('code');
    expect((await post(app, '/api/token/passkey/options/', { challenge: 'nope' })).statusCode).toBe(
      401,
    );
  });

  it('refuses a replayed assertion (each WebAuthn challenge is taken once)', async () => {
    const who = await staff();
    // Counters stay 0 (as synced passkeys keep them): only the challenge stops the replay.
    const { authenticator } = await addPasskey(who, new SoftAuthenticator(false));
    const { step, options } = await passkeyStep(who);
    const response = authenticator.assert(options);
    expect((await answer(step.challenge, response)).statusCode).toBe(200);
    // The same answer again, with the same login challenge or a new one from the password.
    refused(await answer(step.challenge, response));
    const again = await passkeyStep(who);
    refused(await answer(again.step.challenge, response));
    // A new answer to the new options works.
    expect(
      (await answer(again.step.challenge, authenticator.assert(again.options))).statusCode,
    ).toBe(200);
  });

  it('refuses an answer from another origin (a phishing page)', async () => {
    const who = await staff();
    const { authenticator } = await addPasskey(who);
    const { step, options } = await passkeyStep(who);
    refused(
      await answer(
        step.challenge,
        authenticator.assert(options, { origin: 'https://candor.evil' }),
      ),
    );
  });

  it('refuses an answer signed for another RP id', async () => {
    const who = await staff();
    const { authenticator } = await addPasskey(who);
    const { step, options } = await passkeyStep(who);
    refused(await answer(step.challenge, authenticator.assert(options, { rpId: 'evil.test' })));
  });

  it("refuses another account's passkey, even over this login's challenge", async () => {
    const victim = await staff();
    await addPasskey(victim);
    const attacker = await staff();
    const { authenticator: theirs } = await addPasskey(attacker);
    // The attacker knows the victim's password and signs the victim's challenge with a passkey
    // of their own account.
    const { step, options } = await passkeyStep(victim);
    refused(await answer(step.challenge, theirs.assert(options)));
    // Nor does a registration challenge of the attacker's session count as a login's.
    const registration = await registrationOptions(attacker);
    const fresh = await passkeyStep(victim);
    refused(
      await answer(
        fresh.step.challenge,
        theirs.assert(fresh.options, { challenge: registration.challenge }),
      ),
    );
  });

  it('counts one of two answers signed with the same counter at once (a clone racing the original)', async () => {
    const who = await staff();
    const { authenticator } = await addPasskey(who);
    const first = await passkeyStep(who);
    const second = await passkeyStep(who);
    // Both past the stored counter (0), each over its own challenge: only the counter tells.
    const results = await Promise.all([
      answer(first.step.challenge, authenticator.assert(first.options, { counter: 1 })),
      answer(second.step.challenge, authenticator.assert(second.options, { counter: 1 })),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('refuses an answer to a challenge made for adding a passkey, not for a login', async () => {
    const who = await staff();
    const { authenticator } = await addPasskey(who);
    const registration = await registrationOptions(who);
    const { step, options } = await passkeyStep(who);
    refused(
      await answer(
        step.challenge,
        authenticator.assert(options, { challenge: registration.challenge }),
      ),
    );
  });

  it('refuses a signature counter that did not go up (a cloned authenticator)', async () => {
    const who = await staff();
    const { authenticator } = await addPasskey(who);
    for (let i = 0; i < 3; i += 1) {
      const { step, options } = await passkeyStep(who);
      expect((await answer(step.challenge, authenticator.assert(options))).statusCode).toBe(200);
    }
    // The clone reports a count the original passed already (3), then one lower.
    for (const counter of [3, 2]) {
      const { step, options } = await passkeyStep(who);
      refused(await answer(step.challenge, authenticator.assert(options, { counter })));
    }
  });

  it('lets one of several concurrent answers to one challenge in', async () => {
    const who = await staff();
    // Counters stay 0 (as synced passkeys keep them): only the challenge stops the others.
    const { authenticator } = await addPasskey(who, new SoftAuthenticator(false));
    const { step, options } = await passkeyStep(who);
    const answers = [1, 2, 3, 4].map(() => authenticator.assert(options));
    const results = await Promise.all(answers.map((a) => answer(step.challenge, a)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400]);
  });

  it('keeps only the newest few challenges of an account: options asked again and again pile up nothing', async () => {
    const who = await staff();
    const { authenticator } = await addPasskey(who);
    const { step, options: oldest } = await passkeyStep(who);
    for (let i = 0; i < 20; i += 1) {
      now += 1000;
      const res = await post(app, '/api/token/passkey/options/', { challenge: step.challenge });
      expect(res.statusCode).toBe(200);
    }
    const rows = await database.db
      .select()
      .from(webauthnChallenges)
      .innerJoin(users, eq(users.id, webauthnChallenges.userId))
      .where(eq(users.uuid, who.uuid));
    expect(rows).toHaveLength(5);
    // The first options' challenge went with the crowd: its answer is refused.
    refused(await answer(step.challenge, authenticator.assert(oldest)));
  });

  it('refuses an answer to a challenge past its few minutes', async () => {
    const who = await staff();
    const { authenticator } = await addPasskey(who);
    const { step, options } = await passkeyStep(who);
    now += 4 * MINUTE;
    refused(await answer(step.challenge, authenticator.assert(options)));
  });

  it('counts passkey answers and codes against the same limit', async () => {
    const who = await staff();
    const { authenticator } = await addPasskey(who);
    now += MINUTE;
    const limit = app.config.auth.loginFailuresPerNumber;
    const { step, options } = await passkeyStep(who);
    // Wrong codes take every slot...
    for (let i = 0; i < limit; i += 1) {
      const wrong = await post(app, '/api/token/totp/', {
        challenge: step.challenge,
        code: totpCode(who.secret, now + 10 * MINUTE + i * 30_000),
      });
      expect(wrong.statusCode).toBe(400);
    }
    // ...so even the right passkey waits, and a burst of forged answers is not checked.
    const blocked = await answer(step.challenge, authenticator.assert(options));
    expect(blocked.statusCode).toBe(429);
    now += app.config.auth.loginThrottleMinutes * MINUTE + MINUTE;
    const later = await passkeyStep(who);
    expect(
      (await answer(later.step.challenge, authenticator.assert(later.options))).statusCode,
    ).toBe(200);
  });

  it('refuses a registration from another origin or for another RP id, and one passkey twice', async () => {
    const who = await staff();
    const authenticator = new SoftAuthenticator();
    for (const ceremony of [{ origin: 'https://candor.evil' }, { rpId: 'evil.test' }]) {
      const options = await registrationOptions(who);
      const res = await post(
        app,
        '/api/v1/admin/passkeys/',
        { response: authenticator.register(options, ceremony) },
        { token: who.access },
      );
      expect(res.statusCode, res.body).toBe(400);
    }
    // Without options asked for first (no challenge of this account): refused.
    const other = await staff();
    const theirs = await registrationOptions(other);
    const res = await post(
      app,
      '/api/v1/admin/passkeys/',
      { response: authenticator.register(theirs) },
      { token: who.access },
    );
    expect(res.statusCode).toBe(400);
    await addPasskey(who, authenticator);
    const twice = await post(
      app,
      '/api/v1/admin/passkeys/',
      { response: authenticator.register(await registrationOptions(who)) },
      { token: who.access },
    );
    expect(twice.statusCode).toBe(409);
    const list = json<PasskeyList>(
      await get(app, '/api/v1/admin/passkeys/', { token: who.access }),
    );
    expect(list.results).toHaveLength(1);
  });

  it('removes one of your own passkeys, audited; not anyone else’s', async () => {
    const who = await staff();
    const { passkey } = await addPasskey(who);
    const other = await staff();
    const remove = (id: string, token: string) =>
      send(app, 'DELETE', `/api/v1/admin/passkeys/${id}/`, undefined, { token });
    expect((await remove(passkey.id, other.access)).statusCode).toBe(404);
    expect((await remove('not-a-uuid', who.access)).statusCode).toBe(404);
    expect((await remove(passkey.id, who.access)).statusCode).toBe(204);
    expect((await remove(passkey.id, who.access)).statusCode).toBe(404);
    expect(await auditOf('user.passkey_remove', who.uuid)).toHaveLength(1);
    expect((await passwordStep(who)).methods).toEqual(['totp']);
  });

  it('asks for a second step in the last 10 minutes to add or remove a passkey (REAUTH_REQUIRED)', async () => {
    const who = await staff();
    const { passkey } = await addPasskey(who);
    // Options asked for in time, answered after: refused too once the step is old.
    const options = await registrationOptions(who);
    // The session stays open (refreshed, as the staff area does), its second step 11 minutes
    // old: a stolen refresh token, or a desk left unlocked, plants no passkey of its own.
    now += 11 * MINUTE;
    const refreshed = await post(app, '/api/token/refresh/', { refresh: who.refresh });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const stale = { ...who, access: json<TokenPair>(refreshed).access };
    const reauth = (res: LightMyRequestResponse) => {
      expect(res.statusCode, res.body).toBe(403);
      expect(json(res)).toMatchObject({ code: 'REAUTH_REQUIRED' });
    };
    reauth(await post(app, '/api/v1/admin/passkeys/options/', {}, { token: stale.access }));
    reauth(
      await post(
        app,
        '/api/v1/admin/passkeys/',
        { response: new SoftAuthenticator().register(options), name: 'Planted' },
        { token: stale.access },
      ),
    );
    reauth(
      await send(app, 'DELETE', `/api/v1/admin/passkeys/${passkey.id}/`, undefined, {
        token: stale.access,
      }),
    );
    // Listing needs no step-up; the passkey is still there, and nothing was added.
    const list = await get(app, '/api/v1/admin/passkeys/', { token: stale.access });
    expect(json<PasskeyList>(list).results.map((p) => p.id)).toEqual([passkey.id]);
    // A fresh login (password and second factor) may again.
    const again = await staffLogin(app, who, { now: clock });
    const fresh = await send(app, 'DELETE', `/api/v1/admin/passkeys/${passkey.id}/`, undefined, {
      token: again.access,
    });
    expect(fresh.statusCode, fresh.body).toBe(204);
  });

  it("deletes a staff member's passkeys when an admin resets their second factor", async () => {
    const admin = await staff('admin');
    const who = await staff();
    const { authenticator } = await addPasskey(who);
    const { step, options } = await passkeyStep(who);
    const reset = await post(
      app,
      `/api/v1/admin/users/${who.uuid}/second-factor/reset/`,
      {},
      { token: admin.access },
    );
    expect(reset.statusCode, reset.body).toBe(200);
    const rows = await database.db
      .select()
      .from(staffPasskeys)
      .innerJoin(users, eq(users.id, staffPasskeys.userId))
      .where(eq(users.uuid, who.uuid));
    expect(rows).toHaveLength(0);
    const pending = await database.db
      .select()
      .from(webauthnChallenges)
      .innerJoin(users, eq(users.id, webauthnChallenges.userId))
      .where(eq(users.uuid, who.uuid));
    expect(pending).toHaveLength(0);
    // The answer prepared before the reset is refused; the next login enrols afresh.
    refused(await answer(step.challenge, authenticator.assert(options)));
    const next = await passwordStep(who);
    expect(next).toMatchObject({ enrol: true, methods: ['totp'] });
  });
});
