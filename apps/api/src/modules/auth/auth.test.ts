import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { otpChallenges, refreshTokens, users } from '../../db/schema.js';
import { freshIp, freshPhone, get, json, post, signUp, signupBody } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { lastCodeFor, messagesTo, readOutbox } from '../../test/outbox.js';
import { staffLogin } from '../../test/second-factor.js';
import { LOGIN_FAILED } from './sessions.service.js';
import { CODE_SENT } from './signup.service.js';

const CREATE = '/api/v1/user/create/';
const VERIFY = '/api/v1/user/verify/';
const SET_PASSWORD = '/api/v1/user/set-password/';
const RESEND = '/api/v1/user/resend-otp/';
const FORGOT = '/api/v1/user/forgot-password/';
const LOGIN = '/api/token/';
const REFRESH = '/api/token/refresh/';
const DETAIL = '/api/v1/user/detail/';
const LOGOUT = '/api/v1/user/logout/';
const PASSWORD = 'correct horse battery staple';
const LOGIN_FAILURE = { non_field_errors: [LOGIN_FAILED] };
const OTP_INVALID: unknown = expect.objectContaining({ code: 'OTP_INVALID' });
/** The same words the code screen shows (contracts); the way on is a new code. */
const CODE_LOCKED = { detail: 'Too many wrong codes. Ask for a new code.', code: 'OTP_INVALID' };
const TOKEN_INVALID = {
  detail: 'Your session has ended. Please log in again.',
  code: 'TOKEN_INVALID',
};
const UNAUTHENTICATED = {
  detail: 'Authentication credentials were not provided or are not valid.',
  code: 'UNAUTHENTICATED',
};
const MINUTE = 60_000;

describe.each(engines)('auth API on %s', (engine) => {
  let database: Database;
  let app: App;
  const time = { now: Date.now() };
  const clock = () => new Date(time.now);
  const apps: App[] = [];
  // One deployment: every app of the suite shares the secrets, as processes behind a balancer do.
  const secrets = testSecrets();

  /** Another app on the same database with some settings changed (limits, allowlist...). */
  async function appWith(overrides: Partial<Config>, appSecrets = secrets): Promise<App> {
    const other = await createTestApp(database, overrides, { clock, secrets: appSecrets });
    apps.push(other);
    return other;
  }
  const outbox = () => app.config.dataDir;
  /** Signs `phone` up without a password and verifies its code: the set-password token. */
  const passwordTokenFor = async (phone: string) => {
    await post(app, CREATE, signupBody(phone), { ip: freshIp() });
    const verified = await post(app, VERIFY, {
      phone_number: phone,
      otp: lastCodeFor(outbox(), phone),
    });
    return json<{ password_token: string }>(verified).password_token;
  };
  /** The account's row, its number and name opened with its own key. */
  const userRow = async (phone: string) =>
    app.identities.openOne(
      (
        await database.db
          .select()
          .from(users)
          .where(eq(users.phoneLookup, app.identities.lookup(phone)))
      )[0],
    );

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database, {}, { clock, secrets });
    apps.push(app);
  });

  afterAll(async () => {
    for (const a of apps) await a.close();
    await closeAll(database);
  });

  describe('signup', () => {
    it('sends a 6-digit code by text, keeps only its hash, and verifies into an active member', async () => {
      const phone = freshPhone();
      const ip = freshIp();
      const res = await post(app, CREATE, signupBody(phone, { name: 'Grace' }), { ip });
      expect(res.statusCode).toBe(202);
      expect(json(res)).toEqual(CODE_SENT);

      const sent = messagesTo(outbox(), phone);
      expect(sent).toHaveLength(1);
      const code = lastCodeFor(outbox(), phone)!;
      expect(code).toMatch(/^\d{6}$/);
      expect(sent[0]!.body).toBe(
        `Your Candor code is ${code}. It expires in 10 minutes. Don't share it.`,
      );
      expect(Date.parse(sent[0]!.sent_at)).not.toBeNaN();

      const pending = await userRow(phone);
      expect(pending).toMatchObject({ status: 'pending', passwordHash: null, name: 'Grace' });
      // Stored, the row names nobody: no number or name in the clear, the identity sealed and
      // padded to one length (crypto-shredding, issue 28).
      const [stored] = await database.db.select().from(users).where(eq(users.uuid, pending!.uuid));
      expect(JSON.stringify(stored)).not.toContain(phone.slice(1));
      expect(JSON.stringify(stored)).not.toContain('Grace');
      expect(stored).toMatchObject({ legacyPhoneE164: null, legacyName: null });
      const [challenge] = await database.db
        .select()
        .from(otpChallenges)
        .where(eq(otpChallenges.phoneLookup, app.identities.lookup(phone)));
      expect(challenge!.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(challenge!.codeHash).not.toContain(code);

      // Not verified yet: no login.
      const early = await post(app, LOGIN, { phone_number: phone, password: PASSWORD }, { ip });
      expect(early.statusCode).toBe(400);

      const verified = await post(app, VERIFY, { phone_number: phone, otp: code }, { ip });
      expect(verified.statusCode).toBe(200);
      const body = json<{ status: string; password_token: string }>(verified);
      expect(body.status).toBe('password_required');
      expect(body.password_token.split('.')).toHaveLength(3);

      const set = await post(app, SET_PASSWORD, {
        password_token: body.password_token,
        password: PASSWORD,
      });
      expect(set.statusCode).toBe(200);
      const pair = json<{ access: string; refresh: string }>(set);

      const me = await get(app, DETAIL, { token: pair.access });
      expect(me.statusCode).toBe(200);
      expect(json(me)).toEqual({
        uuid: pending!.uuid,
        name: 'Grace',
        phone_number: phone,
        country: 'US',
        role: 'member',
        status: 'active',
        review_reasons: [],
      });
      const row = await userRow(phone);
      expect(row!.phoneVerifiedAt).not.toBeNull();
      expect(row!.riskReasons).toEqual([]);
      expect(row!.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    });

    it('logs in straight away when the password was given at signup', async () => {
      const phone = freshPhone();
      await post(app, CREATE, signupBody(phone, { password: PASSWORD }), { ip: freshIp() });
      const otp = lastCodeFor(outbox(), phone);
      const res = await post(app, VERIFY, { phone_number: phone, otp }, { ip: freshIp() });
      expect(res.statusCode).toBe(200);
      const body = json<{ status: string; access: string; refresh: string }>(res);
      expect(body.status).toBe('logged_in');
      expect((await get(app, DETAIL, { token: body.access })).statusCode).toBe(200);
      const login = await post(app, LOGIN, { phone_number: phone, password: PASSWORD });
      expect(login.statusCode).toBe(200);
    });

    it('treats every spelling of a number as one account', async () => {
      const ip = freshIp();
      const first = await post(
        app,
        CREATE,
        signupBody('+44 7700 900123', { country: 'GB', password: PASSWORD }),
        { ip },
      );
      expect(first.statusCode).toBe(202);
      const otp = lastCodeFor(outbox(), '+447700900123');
      expect(otp).toMatch(/^\d{6}$/);
      // Verified with the national spelling of the same number (GB as the region).
      const verifyGb = await appWith({
        auth: { ...app.config.auth, defaultPhoneRegion: 'GB' },
        dataDir: app.config.dataDir,
      });
      const verified = await post(verifyGb, VERIFY, { phone_number: '07700 900123', otp }, { ip });
      expect(verified.statusCode).toBe(200);

      // (Two more texts: the number's hourly allowance is 3.)
      for (const spelling of ['07700 900123', '+44 (0)7700-900-123']) {
        const again = await post(app, CREATE, signupBody(spelling, { country: 'GB' }), {
          ip: freshIp(),
        });
        expect(again.statusCode).toBe(202);
      }
      const rows = await database.db
        .select()
        .from(users)
        .where(eq(users.phoneLookup, app.identities.lookup('+447700900123')));
      expect(rows).toHaveLength(1);
      // The later attempts got the notice, never a code.
      const texts = messagesTo(outbox(), '+447700900123');
      expect(texts).toHaveLength(3);
      expect(texts.slice(1).every((t) => !/\d{6}/.test(t.body))).toBe(true);

      for (const spelling of ['+447700900123', '+44 7700 900123']) {
        const login = await post(app, LOGIN, { phone_number: spelling, password: PASSWORD });
        expect(login.statusCode).toBe(200);
      }
      const national = await post(verifyGb, LOGIN, {
        phone_number: '07700 900123',
        password: PASSWORD,
      });
      expect(national.statusCode).toBe(200);
    });

    it('does not let a second signup for a pending number plant a password', async () => {
      const phone = freshPhone();
      await post(app, CREATE, signupBody(phone, { password: PASSWORD }), { ip: freshIp() });
      // Someone else signs the same number up with a password of their own.
      const planted = 'attacker chosen passphrase';
      await post(app, CREATE, signupBody(phone, { password: planted }), { ip: freshIp() });
      const otp = lastCodeFor(outbox(), phone);
      const res = await post(app, VERIFY, { phone_number: phone, otp });
      expect(json(res)).toMatchObject({ status: 'password_required' });
      expect((await post(app, LOGIN, { phone_number: phone, password: planted })).statusCode).toBe(
        400,
      );

      // The same person submitting twice with the same password keeps it.
      const twice = freshPhone();
      for (let i = 0; i < 2; i++) {
        await post(app, CREATE, signupBody(twice, { password: PASSWORD }), { ip: freshIp() });
      }
      const again = await post(app, VERIFY, {
        phone_number: twice,
        otp: lastCodeFor(outbox(), twice),
      });
      expect(json(again)).toMatchObject({ status: 'logged_in' });
    });

    it('refuses malformed bodies on every route with field errors', async () => {
      const cases: Array<[string, unknown, Record<string, string[]>]> = [
        [RESEND, {}, { phone_number: ['Enter your phone number.'] }],
        // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers as any
        [RESEND, { phone_number: freshPhone(), purpose: 'other' }, { purpose: expect.any(Array) }],
        [FORGOT, { phone_number: '' }, { phone_number: ['Enter your phone number.'] }],
        [VERIFY, { phone_number: freshPhone() }, { otp: ['Enter the 6-digit code.'] }],
        [LOGIN, { phone_number: freshPhone() }, { password: ['Enter your password.'] }],
        [SET_PASSWORD, { password_token: 'x' }, expect.any(Object)],
        [REFRESH, { refresh: '' }, expect.any(Object)],
      ];
      for (const [url, body, errors] of cases) {
        const res = await post(app, url, body, { ip: freshIp() });
        expect(res.statusCode, url).toBe(400);
        expect(json(res), url).toEqual(errors);
      }
      const notJson = await app.inject({
        method: 'POST',
        url: LOGIN,
        payload: '{"phone_number":',
        headers: { 'content-type': 'application/json' },
      });
      expect(json(notJson)).toEqual({ non_field_errors: ['The request body is not valid JSON.'] });
    });

    it('refuses a number that cannot be one, without echoing it', async () => {
      for (const bad of ['12', 'not a number', '+99 123', '+1 202 555 01234567']) {
        const res = await post(app, CREATE, signupBody(bad), { ip: freshIp() });
        expect(res.statusCode).toBe(400);
        expect(json(res)).toEqual({ phone_number: ['Enter a valid phone number.'] });
      }
    });

    it('refuses invalid fields with messages per field', async () => {
      const res = await post(
        app,
        CREATE,
        { phone_number: freshPhone(), year_of_birth: new Date().getUTCFullYear() - 10 },
        { ip: freshIp() },
      );
      expect(res.statusCode).toBe(400);
      // The year of birth (and gender) are the device's, never sent (decision 020): an older
      // client's are dropped unread, so they are no field of the API's to refuse.
      expect(json(res)).toEqual({ country: ['Choose your country.'] });
      const short = await post(app, CREATE, signupBody(freshPhone(), { password: 'short' }));
      expect(json(short)).toEqual({ password: ['Use at least 8 characters.'] });
    });

    it('answers a number with an account exactly as a new one, and sends it no code', async () => {
      const known = freshPhone();
      await signUp(app, known);
      const unknown = freshPhone();
      const a = await post(app, CREATE, signupBody(known, { password: PASSWORD }), {
        ip: freshIp(),
      });
      const b = await post(app, CREATE, signupBody(unknown, { password: PASSWORD }), {
        ip: freshIp(),
      });
      expect(a.statusCode).toBe(b.statusCode);
      expect(a.body).toBe(b.body);
      expect(a.headers['content-type']).toBe(b.headers['content-type']);
      const toKnown = messagesTo(outbox(), known).at(-1)!;
      expect(toKnown.body).toBe(
        'Someone tried to sign up to Candor with this number. If it was you, log in or reset your password.',
      );
      // The account is untouched: same password still works.
      expect((await post(app, LOGIN, { phone_number: known, password: PASSWORD })).statusCode).toBe(
        200,
      );
    });

    it('refuses a common password with the reason', async () => {
      const res = await post(app, CREATE, signupBody(freshPhone(), { password: 'password1' }));
      expect(res.statusCode).toBe(400);
      const body = json<{ password: string[] }>(res);
      expect(body.password).toHaveLength(1);
      expect(body.password[0]).toMatch(/^This password is too common: .+/);
    });
  });

  describe('one-time codes', () => {
    async function started(purpose: 'signup' | 'reset' = 'signup') {
      const phone = freshPhone();
      if (purpose === 'reset') {
        await signUp(app, phone);
        await post(app, FORGOT, { phone_number: phone }, { ip: freshIp() });
      } else {
        await post(app, CREATE, signupBody(phone), { ip: freshIp() });
      }
      return { phone, code: lastCodeFor(outbox(), phone)! };
    }
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    it('locks the code at the 5th wrong try: the 6th fails even with the right code', async () => {
      const { phone, code } = await started();
      for (let i = 0; i < 4; i++) {
        const res = await post(app, VERIFY, { phone_number: phone, otp: wrong(code) });
        expect(res.statusCode).toBe(400);
        expect(json(res)).toEqual(OTP_INVALID);
      }
      // The fifth wrong code locks the code, and the reply says so at once.
      const fifth = await post(app, VERIFY, { phone_number: phone, otp: wrong(code) });
      expect(json(fifth)).toEqual(CODE_LOCKED);
      const right = await post(app, VERIFY, { phone_number: phone, otp: code });
      expect(right.statusCode).toBe(400);
      // Nothing to wait for: a new code starts with no wrong tries (decision 022).
      expect(right.headers['retry-after']).toBeUndefined();
      expect(json(right)).toEqual(CODE_LOCKED);
      expect((await userRow(phone))!.status).toBe('pending');
    });

    it('a locked code is refused by verify; resend, forgot-password and signup text a fresh one that works (decision 022)', async () => {
      const lockOut = async (purpose: 'signup' | 'reset') => {
        const { phone, code } = await started(purpose);
        const url = purpose === 'signup' ? VERIFY : SET_PASSWORD;
        const body = purpose === 'signup' ? {} : { password: PASSWORD };
        for (let i = 0; i < 5; i++)
          await post(app, url, { phone_number: phone, otp: wrong(code), ...body });
        return phone;
      };
      const signupPhone = await lockOut('signup');
      const resetPhone = await lockOut('reset');
      time.now += 3 * MINUTE;
      const locked = await post(app, VERIFY, { phone_number: signupPhone, otp: '123456' });
      expect(json(locked)).toEqual(CODE_LOCKED);
      // A fresh code starts with no wrong tries: the owner is not kept waiting by the lock.
      for (const [url, body, phone] of [
        [RESEND, { phone_number: signupPhone }, signupPhone],
        [CREATE, signupBody(signupPhone), signupPhone],
        [FORGOT, { phone_number: resetPhone }, resetPhone],
      ] as const) {
        const sent = messagesTo(outbox(), phone).length;
        const res = await post(app, url, body, { ip: freshIp() });
        expect({ url, status: res.statusCode }).toEqual({ url, status: 202 });
        expect(messagesTo(outbox(), phone)).toHaveLength(sent + 1);
      }
      const ok = await post(app, VERIFY, {
        phone_number: signupPhone,
        otp: lastCodeFor(outbox(), signupPhone),
      });
      expect(ok.statusCode).toBe(200);
    });

    it('a resend gives a fresh code with no wrong tries, and the new code replaces the old', async () => {
      const { phone, code } = await started();
      for (let i = 0; i < 4; i++)
        await post(app, VERIFY, { phone_number: phone, otp: wrong(code) });
      const resent = await post(app, RESEND, { phone_number: phone }, { ip: freshIp() });
      expect(resent.statusCode).toBe(202);
      const newCode = lastCodeFor(outbox(), phone)!;
      expect(messagesTo(outbox(), phone)).toHaveLength(2);
      if (newCode !== code) {
        expect(json(await post(app, VERIFY, { phone_number: phone, otp: code }))).toEqual(
          expect.objectContaining({ code: 'OTP_INVALID' }),
        );
      }
      const res = await post(app, VERIFY, { phone_number: phone, otp: newCode });
      expect(res.statusCode).toBe(200);
    });

    it('expires a code after 10 minutes; a new code after that starts a fresh count', async () => {
      const { phone, code } = await started();
      for (let i = 0; i < 5; i++)
        await post(app, VERIFY, { phone_number: phone, otp: wrong(code) });
      time.now += 10 * MINUTE + 1000;
      expect((await post(app, VERIFY, { phone_number: phone, otp: code })).statusCode).toBe(400);
      await post(app, RESEND, { phone_number: phone }, { ip: freshIp() });
      const res = await post(app, VERIFY, {
        phone_number: phone,
        otp: lastCodeFor(outbox(), phone),
      });
      expect(res.statusCode).toBe(200);

      const fresh = await started();
      time.now += 9 * MINUTE;
      expect(
        (await post(app, VERIFY, { phone_number: fresh.phone, otp: fresh.code })).statusCode,
      ).toBe(200);
    });

    it('uses a code once', async () => {
      const { phone, code } = await started();
      expect((await post(app, VERIFY, { phone_number: phone, otp: code })).statusCode).toBe(200);
      const again = await post(app, VERIFY, { phone_number: phone, otp: code });
      expect(again.statusCode).toBe(400);
      expect(json(again)).toEqual(OTP_INVALID);
    });

    it('refuses a code for a number that has none, and a malformed code', async () => {
      const none = await post(app, VERIFY, { phone_number: freshPhone(), otp: '123456' });
      expect(json(none)).toEqual({
        detail: 'That code is not right, or it has expired. Check it, or ask for a new one.',
        code: 'OTP_INVALID',
      });
      const malformed = await post(app, VERIFY, { phone_number: freshPhone(), otp: '12a456' });
      expect(json(malformed)).toEqual({ otp: ['Enter the 6-digit code.'] });
    });

    it('answers resend and forgot-password the same for known and unknown numbers', async () => {
      const verified = freshPhone();
      await signUp(app, verified);
      const pending = freshPhone();
      await post(app, CREATE, signupBody(pending), { ip: freshIp() });
      const unknown = freshPhone();
      const before = readOutbox(outbox()).length;

      const answers = [];
      for (const [url, body] of [
        [RESEND, { phone_number: verified }],
        [RESEND, { phone_number: pending }],
        [RESEND, { phone_number: unknown }],
        [RESEND, { phone_number: unknown, purpose: 'reset' }],
        [FORGOT, { phone_number: verified }],
        [FORGOT, { phone_number: pending }],
        [FORGOT, { phone_number: unknown }],
      ] as const) {
        const res = await post(app, url, body, { ip: freshIp() });
        answers.push({ status: res.statusCode, body: res.body });
      }
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect(answers[0]).toEqual({ status: 202, body: JSON.stringify(CODE_SENT) });

      // Only the pending signup got a signup code and only the verified account a reset code.
      const sent = readOutbox(outbox()).slice(before);
      expect(sent.map((m) => [m.to, m.body.startsWith('Your Candor password reset code')])).toEqual(
        [
          [pending, false],
          [verified, true],
        ],
      );
    });
  });

  describe('codes never sent (decoys)', () => {
    const challengesOf = (phone: string) =>
      database.db
        .select()
        .from(otpChallenges)
        .where(eq(otpChallenges.phoneLookup, app.identities.lookup(phone)));

    it('do not end the password step of a number verified a moment ago', async () => {
      const phone = freshPhone();
      const password_token = await passwordTokenFor(phone);
      // Someone (or a double-submitted form) asks again for the now verified number.
      expect((await post(app, CREATE, signupBody(phone), { ip: freshIp() })).statusCode).toBe(202);
      await post(app, RESEND, { phone_number: phone }, { ip: freshIp() });
      const set = await post(app, SET_PASSWORD, { password_token, password: PASSWORD });
      expect(set.statusCode).toBe(200);
    });

    it('do not let guesses made before the owner signs up lock the owner’s code', async () => {
      const phone = freshPhone();
      await post(app, RESEND, { phone_number: phone }, { ip: freshIp() });
      for (let i = 0; i < 5; i++) {
        await post(app, VERIFY, { phone_number: phone, otp: '000000' });
      }
      expect((await challengesOf(phone))[0]).toMatchObject({ decoy: true, wrongTries: 5 });
      await post(app, CREATE, signupBody(phone), { ip: freshIp() });
      const res = await post(app, VERIFY, {
        phone_number: phone,
        otp: lastCodeFor(outbox(), phone),
      });
      expect(res.statusCode).toBe(200);
    });

    it('are not kept after they expire', async () => {
      const first = freshPhone();
      await post(app, FORGOT, { phone_number: first }, { ip: freshIp() });
      expect(await challengesOf(first)).toHaveLength(1);
      time.now += 10 * MINUTE + 1000;
      await post(app, FORGOT, { phone_number: freshPhone() }, { ip: freshIp() });
      expect(await challengesOf(first)).toHaveLength(0);
    });
  });

  describe('passwords', () => {
    it('accepts a 200-character passphrase whole: a change in its last character fails', async () => {
      const phone = freshPhone();
      const passphrase = 'a long walk by the sea at dawn '.repeat(7).slice(0, 199) + 'Z';
      expect(passphrase).toHaveLength(200);
      await signUp(app, phone, { password: passphrase });
      const ok = await post(app, LOGIN, { phone_number: phone, password: passphrase });
      expect(ok.statusCode).toBe(200);
      const off = await post(app, LOGIN, {
        phone_number: phone,
        password: `${passphrase.slice(0, 199)}Y`,
      });
      expect(off.statusCode).toBe(400);
      expect(json(off)).toEqual(LOGIN_FAILURE);
    });

    it('spends a set-password token once, and not after 15 minutes', async () => {
      const phone = freshPhone();
      const password_token = await passwordTokenFor(phone);
      const common = await post(app, SET_PASSWORD, { password_token, password: 'qwertyuiop' });
      expect(common.statusCode).toBe(400);
      expect(json<{ password: string[] }>(common).password[0]).toMatch(/too common/);
      // A refused password did not spend the token.
      const first = await post(app, SET_PASSWORD, { password_token, password: PASSWORD });
      expect(first.statusCode).toBe(200);
      const second = await post(app, SET_PASSWORD, { password_token, password: `${PASSWORD}!` });
      expect(second.statusCode).toBe(400);
      expect(json(second)).toEqual(OTP_INVALID);

      const late = freshPhone();
      await post(app, CREATE, signupBody(late), { ip: freshIp() });
      const lateVerified = await post(app, VERIFY, {
        phone_number: late,
        otp: lastCodeFor(outbox(), late),
      });
      time.now += 15 * MINUTE + 1000;
      const expired = await post(app, SET_PASSWORD, {
        password_token: json<{ password_token: string }>(lateVerified).password_token,
        password: PASSWORD,
      });
      expect(expired.statusCode).toBe(400);
      expect(json(expired)).toEqual(OTP_INVALID);

      // An access token is not a password token.
      const pair = json<{ access: string }>(first);
      const confused = await post(app, SET_PASSWORD, {
        password_token: pair.access,
        password: PASSWORD,
      });
      expect(json(confused)).toEqual(OTP_INVALID);
    });

    it('resets a forgotten password with a code: old sessions end, the new password works', async () => {
      const phone = freshPhone();
      const old = await signUp(app, phone);
      const forgot = await post(app, FORGOT, { phone_number: phone }, { ip: freshIp() });
      expect(forgot.statusCode).toBe(202);
      const text = messagesTo(outbox(), phone).at(-1)!;
      const otp = lastCodeFor(outbox(), phone)!;
      expect(text.body).toBe(
        `Your Candor password reset code is ${otp}. It expires in 10 minutes. Don't share it.`,
      );
      // A signup code check cannot spend a reset code.
      expect((await post(app, VERIFY, { phone_number: phone, otp })).statusCode).toBe(400);

      const reset = await post(app, SET_PASSWORD, {
        phone_number: phone,
        otp,
        password: 'a brand new passphrase',
      });
      expect(reset.statusCode).toBe(200);
      expect(json(await post(app, REFRESH, { refresh: old.refresh }))).toEqual(TOKEN_INVALID);
      const newPair = json<{ refresh: string }>(reset);
      expect((await post(app, REFRESH, { refresh: newPair.refresh })).statusCode).toBe(200);
      expect((await post(app, LOGIN, { phone_number: phone, password: PASSWORD })).statusCode).toBe(
        400,
      );
      expect(
        (await post(app, LOGIN, { phone_number: phone, password: 'a brand new passphrase' }))
          .statusCode,
      ).toBe(200);

      // Or in two steps: verify the reset code, then set the password with the token.
      await post(app, FORGOT, { phone_number: phone }, { ip: freshIp() });
      const v = await post(app, VERIFY, {
        phone_number: phone,
        otp: lastCodeFor(outbox(), phone),
        purpose: 'reset',
      });
      expect(json(v)).toMatchObject({ status: 'password_required' });
      const set = await post(app, SET_PASSWORD, {
        password_token: json<{ password_token: string }>(v).password_token,
        password: 'third time lucky passphrase',
      });
      expect(set.statusCode).toBe(200);
      expect(json(await post(app, REFRESH, { refresh: newPair.refresh }))).toEqual(TOKEN_INVALID);
    });

    it('refuses a wrong reset code', async () => {
      const phone = freshPhone();
      await signUp(app, phone);
      const res = await post(app, SET_PASSWORD, {
        phone_number: phone,
        otp: '000000',
        password: 'another fine passphrase',
      });
      expect(res.statusCode).toBe(400);
      expect(json(res)).toEqual(OTP_INVALID);
    });
  });

  describe('login', () => {
    it('gives the same answer for every failure', async () => {
      const active = freshPhone();
      await signUp(app, active);
      const pendingWithPassword = freshPhone();
      await post(app, CREATE, signupBody(pendingWithPassword, { password: PASSWORD }));
      const rejected = freshPhone();
      await signUp(app, rejected);
      await database.db
        .update(users)
        .set({ status: 'rejected' })
        .where(eq(users.phoneLookup, app.identities.lookup(rejected)));
      const suspended = freshPhone();
      await signUp(app, suspended);
      await database.db
        .update(users)
        .set({ status: 'suspended' })
        .where(eq(users.phoneLookup, app.identities.lookup(suspended)));

      const failures = [
        { phone_number: freshPhone(), password: PASSWORD },
        { phone_number: active, password: 'not the password' },
        { phone_number: pendingWithPassword, password: PASSWORD },
        { phone_number: rejected, password: PASSWORD },
        { phone_number: suspended, password: PASSWORD },
      ];
      for (const body of failures) {
        const res = await post(app, LOGIN, body, { ip: freshIp() });
        expect(res.statusCode).toBe(400);
        expect(res.body).toBe(JSON.stringify(LOGIN_FAILURE));
      }
    });

    it('lets an account under review log in, and tells it the kind of reason', async () => {
      const phone = '+445612345678'; // VoIP
      await signUp(app, phone, { extra: { country: 'GB' } });
      const res = await post(app, LOGIN, { phone_number: phone, password: PASSWORD });
      expect(res.statusCode).toBe(200);
      const me = await get(app, DETAIL, { token: json<{ access: string }>(res).access });
      // Told the kind of reason, in words for its owner (never the moderators' counts).
      expect(json(me)).toMatchObject({ status: 'under_review', review_reasons: ['number_type'] });
    });

    it('throttles failures per number: 429 with Retry-After, even for the right password', async () => {
      const phone = freshPhone();
      await signUp(app, phone);
      for (let i = 0; i < 5; i++) {
        const res = await post(
          app,
          LOGIN,
          { phone_number: phone, password: 'wrong password' },
          {
            ip: freshIp(),
          },
        );
        expect(res.statusCode).toBe(400);
      }
      const blocked = await post(
        app,
        LOGIN,
        { phone_number: phone, password: PASSWORD },
        {
          ip: freshIp(),
        },
      );
      // Five failures from anywhere: the next check from a client the owner has not used waits
      // (the progressive delay, decision 022), seconds at first rather than 15 minutes.
      expect(blocked.statusCode).toBe(429);
      expect(json(blocked)).toMatchObject({ code: 'RATE_LIMITED' });
      const retryAfter = Number(blocked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(10);
      // One client's own five failures lock that client out for the window.
      const mine = freshPhone();
      const ip = freshIp();
      for (let i = 0; i < 5; i++) {
        await post(app, LOGIN, { phone_number: mine, password: 'x' }, { ip });
      }
      const window = await post(app, LOGIN, { phone_number: mine, password: 'x' }, { ip });
      expect(window.statusCode).toBe(429);
      expect(Number(window.headers['retry-after'])).toBeGreaterThan(14 * 60);
      // An unknown number is throttled the same way.
      const unknown = freshPhone();
      for (let i = 0; i < 5; i++) {
        await post(app, LOGIN, { phone_number: unknown, password: 'x' }, { ip: freshIp() });
      }
      expect(
        (await post(app, LOGIN, { phone_number: unknown, password: 'x' }, { ip: freshIp() }))
          .statusCode,
      ).toBe(429);
    });

    it('throttles failures per client IP across numbers', async () => {
      const strict = await appWith({ auth: { ...app.config.auth, loginFailuresPerIp: 3 } });
      const ip = freshIp();
      for (let i = 0; i < 3; i++) {
        const res = await post(
          strict,
          LOGIN,
          { phone_number: freshPhone(), password: 'x' },
          { ip },
        );
        expect(res.statusCode).toBe(400);
      }
      const blocked = await post(
        strict,
        LOGIN,
        { phone_number: freshPhone(), password: 'x' },
        {
          ip,
        },
      );
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // Another IP is not affected.
      expect(
        (
          await post(
            strict,
            LOGIN,
            { phone_number: freshPhone(), password: 'x' },
            { ip: freshIp() },
          )
        ).statusCode,
      ).toBe(400);
    });
  });

  describe('text message limits', () => {
    it('sends 3 texts to a number from clients it has not used, then spaces them: the 4th waits a minute', async () => {
      const phone = freshPhone();
      await post(app, CREATE, signupBody(phone), { ip: freshIp() });
      await post(app, RESEND, { phone_number: phone }, { ip: freshIp() });
      await post(app, RESEND, { phone_number: phone }, { ip: freshIp() });
      const fourth = await post(app, RESEND, { phone_number: phone }, { ip: freshIp() });
      expect(fourth.statusCode).toBe(429);
      expect(json(fourth)).toMatchObject({ code: 'RATE_LIMITED' });
      const retryAfter = Number(fourth.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(50);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(messagesTo(outbox(), phone)).toHaveLength(3);
      // Unknown numbers are limited the same way (no enumeration through the limit).
      const unknown = freshPhone();
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await post(app, FORGOT, { phone_number: unknown }, { ip: freshIp() })).statusCode,
        );
      }
      expect(statuses).toEqual([202, 202, 202, 429]);
    });

    it('limits texts per client IP', async () => {
      const strict = await appWith({ sms: { ...app.config.sms, perIpPerHour: 2 } });
      const ip = freshIp();
      expect((await post(strict, CREATE, signupBody(freshPhone()), { ip })).statusCode).toBe(202);
      expect((await post(strict, FORGOT, { phone_number: freshPhone() }, { ip })).statusCode).toBe(
        202,
      );
      const third = await post(strict, CREATE, signupBody(freshPhone()), { ip });
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect(
        (await post(strict, CREATE, signupBody(freshPhone()), { ip: freshIp() })).statusCode,
      ).toBe(202);
    });

    it('does not let a spoofed X-Forwarded-For change the client IP unless TRUST_PROXY is set', async () => {
      const strict = await appWith({ sms: { ...app.config.sms, perIpPerHour: 2 } });
      const ip = freshIp();
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const res = await post(
          strict,
          FORGOT,
          { phone_number: freshPhone() },
          {
            ip,
            headers: { 'x-forwarded-for': freshIp() },
          },
        );
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([202, 202, 429]);

      const behindProxy = await appWith({
        trustProxy: 1,
        sms: { ...app.config.sms, perIpPerHour: 2 },
      });
      const proxied = [];
      for (let i = 0; i < 3; i++) {
        const res = await post(
          behindProxy,
          FORGOT,
          { phone_number: freshPhone() },
          {
            ip,
            headers: { 'x-forwarded-for': freshIp() },
          },
        );
        proxied.push(res.statusCode);
      }
      expect(proxied).toEqual([202, 202, 202]);
    });

    it('sends texts only to allowed countries', async () => {
      const gbOnly = await appWith({ sms: { ...app.config.sms, allowedCountries: ['GB'] } });
      const us = await post(gbOnly, CREATE, signupBody(freshPhone()), { ip: freshIp() });
      expect(us.statusCode).toBe(400);
      expect(json(us)).toEqual({
        phone_number: ['Candor cannot send text messages to this country yet.'],
      });
      const gbPhone = '+447400123456';
      const gb = await post(gbOnly, CREATE, signupBody(gbPhone, { country: 'GB' }), {
        ip: freshIp(),
      });
      expect(gb.statusCode).toBe(202);
      expect(lastCodeFor(gbOnly.config.dataDir, gbPhone)).toMatch(/^\d{6}$/);
    });
  });

  describe('human verification', () => {
    it.each([
      ['+445612345678', 'The phone number is a VoIP number.'],
      ['+448431234567', 'The phone number is a premium-rate number.'],
      ['+447012345678', 'The phone number is a personal (forwarding) number.'],
      ['+447640123456', 'The phone number is a pager number.'],
      ['+443001234567', 'The phone number is a universal access number.'],
      ['+447700900777', 'The phone number is of an unknown type.'],
    ])('puts %s under review: %s', async (phone, reason) => {
      await database.db.delete(users).where(eq(users.phoneLookup, app.identities.lookup(phone)));
      await signUp(app, phone, { extra: { country: 'GB' } });
      const row = await userRow(phone);
      expect(row!.status).toBe('under_review');
      expect(row!.riskReasons).toEqual([reason]);
    });

    it('reviews the 4th signup from one IP in 24 hours', async () => {
      const ip = freshIp();
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        const phone = freshPhone();
        await signUp(app, phone, { ip });
        statuses.push((await userRow(phone))!.status);
      }
      expect(statuses).toEqual(['active', 'active', 'active', 'under_review']);
      // A day later the IP starts afresh.
      time.now += 24 * 60 * MINUTE + 1000;
      const later = freshPhone();
      await signUp(app, later, { ip });
      expect((await userRow(later))!.status).toBe('active');
    });

    it('reviews the 6th signup in 24 hours sharing the first 8 digits of the number', async () => {
      const statuses = [];
      for (let i = 0; i < 6; i++) {
        const phone = `+1415555${String(2000 + i)}`;
        await signUp(app, phone);
        const row = await userRow(phone);
        statuses.push(row!.status);
        if (i === 5) {
          expect(row!.riskReasons).toEqual(['6 signups from the same number range in 24 hours.']);
        }
      }
      expect(statuses).toEqual(['active', 'active', 'active', 'active', 'active', 'under_review']);
    });

    it('puts every signup under review with REVIEW_ALL_SIGNUPS', async () => {
      const reviewAll = await appWith({ auth: { ...app.config.auth, reviewAllSignups: true } });
      const phone = freshPhone();
      await signUp(reviewAll, phone);
      expect(await userRow(phone)).toMatchObject({
        status: 'under_review',
        riskReasons: ['Every signup is reviewed (REVIEW_ALL_SIGNUPS).'],
      });
    });
  });

  describe('sessions', () => {
    it('rotates the refresh token on every use', async () => {
      const first = await signUp(app, freshPhone());
      const res = await post(app, REFRESH, { refresh: first.refresh });
      expect(res.statusCode).toBe(200);
      const second = json<{ access: string; refresh: string }>(res);
      expect(second.refresh).not.toBe(first.refresh);
      expect((await get(app, DETAIL, { token: second.access })).statusCode).toBe(200);
      const third = json<{ refresh: string }>(
        await post(app, REFRESH, { refresh: second.refresh }),
      );
      expect(third.refresh).not.toBe(second.refresh);
      // Only hashes are stored.
      const stored = await database.db.select({ h: refreshTokens.tokenHash }).from(refreshTokens);
      expect(stored.some((r) => r.h === first.refresh || r.h === second.refresh)).toBe(false);
    });

    it('gives two tabs refreshing at once the same new pair (grace window)', async () => {
      const first = await signUp(app, freshPhone());
      const [a, b] = await Promise.all([
        post(app, REFRESH, { refresh: first.refresh }),
        post(app, REFRESH, { refresh: first.refresh }),
      ]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(json<{ refresh: string }>(a).refresh).toBe(json<{ refresh: string }>(b).refresh);
      time.now += 20_000;
      const c = await post(app, REFRESH, { refresh: first.refresh });
      expect(json<{ refresh: string }>(c).refresh).toBe(json<{ refresh: string }>(a).refresh);
      // The shared child goes on working.
      expect(
        (await post(app, REFRESH, { refresh: json<{ refresh: string }>(a).refresh })).statusCode,
      ).toBe(200);
    });

    it('revokes the whole family when a used token comes back after the grace window', async () => {
      const first = await signUp(app, freshPhone());
      const child = json<{ refresh: string }>(await post(app, REFRESH, { refresh: first.refresh }));
      time.now += 31_000;
      const reuse = await post(app, REFRESH, { refresh: first.refresh });
      expect(reuse.statusCode).toBe(401);
      expect(json(reuse)).toEqual(TOKEN_INVALID);
      // The thief's (or the victim's) child is dead too.
      expect(json(await post(app, REFRESH, { refresh: child.refresh }))).toEqual(TOKEN_INVALID);
    });

    it('refuses unknown, expired and malformed refresh tokens', async () => {
      expect(json(await post(app, REFRESH, { refresh: 'not-a-token' }))).toEqual(TOKEN_INVALID);
      const pair = await signUp(app, freshPhone());
      time.now += 30 * 24 * 60 * MINUTE + 1000;
      expect(json(await post(app, REFRESH, { refresh: pair.refresh }))).toEqual(TOKEN_INVALID);
      const empty = await post(app, REFRESH, {});
      expect(empty.statusCode).toBe(400);
      // Sent with an access token as bearer, it is still refused (refresh needs no header).
      const other = await signUp(app, freshPhone());
      const withHeader = await post(app, REFRESH, { refresh: other.refresh }, { token: 'garbage' });
      expect(withHeader.statusCode).toBe(200);
    });

    it('logs out: the family is revoked; logging out again is fine', async () => {
      const pair = await signUp(app, freshPhone());
      const rotated = json<{ refresh: string }>(
        await post(app, REFRESH, { refresh: pair.refresh }),
      );
      const out = await post(app, LOGOUT, { refresh: rotated.refresh });
      expect(out.statusCode).toBe(204);
      expect(out.body).toBe('');
      expect(json(await post(app, REFRESH, { refresh: rotated.refresh }))).toEqual(TOKEN_INVALID);
      expect((await post(app, LOGOUT, { refresh: rotated.refresh })).statusCode).toBe(204);
      expect((await post(app, LOGOUT, { refresh: 'unknown' })).statusCode).toBe(204);
      expect((await post(app, LOGOUT, {})).statusCode).toBe(400);
    });

    it('ends the sessions of a suspended account at once', async () => {
      const phone = freshPhone();
      const pair = await signUp(app, phone);
      await database.db
        .update(users)
        .set({ status: 'suspended' })
        .where(eq(users.phoneLookup, app.identities.lookup(phone)));
      expect(json(await get(app, DETAIL, { token: pair.access }))).toEqual(UNAUTHENTICATED);
      expect(json(await post(app, REFRESH, { refresh: pair.refresh }))).toEqual(TOKEN_INVALID);
    });
  });

  describe('access tokens', () => {
    it('requires one for the user detail', async () => {
      const res = await get(app, DETAIL);
      expect(res.statusCode).toBe(401);
      expect(json(res)).toEqual(UNAUTHENTICATED);
      expect(json(await get(app, DETAIL, { headers: { authorization: 'Basic abc' } }))).toEqual(
        UNAUTHENTICATED,
      );
    });

    it('refuses forged, expired and wrong-kind tokens', async () => {
      const phone = freshPhone();
      const pair = await signUp(app, phone);
      const [header, payload] = pair.access.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
        string,
        unknown
      >;
      expect(claims).toMatchObject({ role: 'member', sub: (await userRow(phone))!.uuid });

      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
      const adminClaims = Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString(
        'base64url',
      );
      const tampered = `${header}.${adminClaims}.${pair.access.split('.')[2]}`;
      // Signed by another server (another secret).
      const otherApp = await appWith({}, testSecrets());
      const foreign = await signUp(otherApp, freshPhone());

      for (const token of [none, tampered, foreign.access, pair.refresh, 'a.b.c']) {
        const res = await get(app, DETAIL, { token });
        expect(res.statusCode).toBe(401);
        expect(json(res)).toEqual(UNAUTHENTICATED);
      }

      // A set-password token is not an access token.
      const p2 = freshPhone();
      await post(app, CREATE, signupBody(p2), { ip: freshIp() });
      const v = await post(app, VERIFY, { phone_number: p2, otp: lastCodeFor(outbox(), p2) });
      const { password_token } = json<{ password_token: string }>(v);
      expect((await get(app, DETAIL, { token: password_token })).statusCode).toBe(401);

      // Expired: ACCESS_TOKEN_TTL seconds after issue.
      const shortLived = await appWith({ auth: { ...app.config.auth, accessTokenTtlSeconds: 2 } });
      const short = await signUp(shortLived, freshPhone());
      expect((await get(shortLived, DETAIL, { token: short.access })).statusCode).toBe(200);
      time.now += 3000;
      expect(json(await get(shortLived, DETAIL, { token: short.access }))).toEqual(UNAUTHENTICATED);
      const renewed = json<{ access: string }>(
        await post(shortLived, REFRESH, { refresh: short.refresh }),
      );
      expect((await get(shortLived, DETAIL, { token: renewed.access })).statusCode).toBe(200);
    });
  });

  describe('moderation', () => {
    const SIGNUPS = '/api/v1/admin/signups/';
    let moderator: string;
    let member: string;

    beforeAll(async () => {
      const modPhone = freshPhone();
      await signUp(app, modPhone);
      await database.db
        .update(users)
        .set({ role: 'moderator' })
        .where(eq(users.phoneLookup, app.identities.lookup(modPhone)));
      // Password, then the TOTP second factor enrolled at this first staff login (decision 024).
      moderator = (
        await staffLogin(app, { phone: modPhone, password: PASSWORD }, { now: () => time.now })
      ).access;
      member = (await signUp(app, freshPhone())).access;
      // Nothing left under review from earlier tests.
      await database.db
        .update(users)
        .set({ status: 'active' })
        .where(eq(users.status, 'under_review'));
    });

    it('is for moderators and admins only', async () => {
      expect(json(await get(app, SIGNUPS))).toEqual(UNAUTHENTICATED);
      const forbidden = await get(app, SIGNUPS, { token: member });
      expect(forbidden.statusCode).toBe(403);
      expect(json(forbidden)).toEqual({
        detail: 'You do not have permission to perform this action.',
        code: 'FORBIDDEN',
      });
      const approve = await post(
        app,
        `${SIGNUPS}${crypto.randomUUID()}/approve/`,
        {},
        {
          token: member,
        },
      );
      expect(approve.statusCode).toBe(403);
      expect((await post(app, `${SIGNUPS}${crypto.randomUUID()}/reject/`, {})).statusCode).toBe(
        401,
      );
    });

    it('lists accounts under review oldest first with masked numbers, and approves or rejects', async () => {
      const reviewAll = await appWith({ auth: { ...app.config.auth, reviewAllSignups: true } });
      const phones = [freshPhone(), freshPhone(), freshPhone()];
      for (const phone of phones) {
        await signUp(reviewAll, phone);
        time.now += 1000;
        await database.db
          .update(users)
          .set({ createdAt: new Date(time.now) })
          .where(eq(users.phoneLookup, app.identities.lookup(phone)));
      }
      const res = await get(app, `${SIGNUPS}?page_size=2`, {
        token: moderator,
        headers: { host: 'candor.test' },
      });
      expect(res.statusCode).toBe(200);
      const page = json<{
        count: number;
        next: string | null;
        previous: string | null;
        results: Array<Record<string, unknown>>;
      }>(res);
      expect(page.count).toBe(3);
      expect(page.next).toBe('http://candor.test/api/v1/admin/signups/?page=2&page_size=2');
      expect(page.previous).toBeNull();
      const uuids = [];
      for (const phone of phones) uuids.push((await userRow(phone))!.uuid);
      expect(page.results.map((r) => r.uuid)).toEqual(uuids.slice(0, 2));
      expect(page.results[0]).toEqual({
        uuid: uuids[0],
        phone_masked: `+1 ••• ••• •${phones[0]!.slice(-3)}`,
        country: 'US',
        status: 'under_review',
        risk_reasons: ['Every signup is reviewed (REVIEW_ALL_SIGNUPS).'],
        // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers as any
        created_at: expect.any(String),
      });
      expect(JSON.stringify(page)).not.toContain(phones[0]!.slice(2));

      const approved = await post(app, `${SIGNUPS}${uuids[0]}/approve/`, {}, { token: moderator });
      expect(approved.statusCode).toBe(200);
      expect(json(approved)).toMatchObject({ uuid: uuids[0], status: 'active' });
      expect((await userRow(phones[0]!))!.status).toBe('active');

      const rejectedSession = json<{ refresh: string }>(
        await post(app, LOGIN, { phone_number: phones[1], password: PASSWORD }),
      );
      const rejected = await post(app, `${SIGNUPS}${uuids[1]}/reject/`, {}, { token: moderator });
      expect(json(rejected)).toMatchObject({ uuid: uuids[1], status: 'rejected' });
      expect(json(await post(app, REFRESH, { refresh: rejectedSession.refresh }))).toEqual(
        TOKEN_INVALID,
      );
      expect(json(await post(app, LOGIN, { phone_number: phones[1], password: PASSWORD }))).toEqual(
        LOGIN_FAILURE,
      );

      const left = json<{ count: number }>(await get(app, SIGNUPS, { token: moderator }));
      expect(left.count).toBe(1);

      // Already decided, unknown, or not a uuid: not found.
      for (const id of [uuids[0], crypto.randomUUID(), 'nope']) {
        const res2 = await post(app, `${SIGNUPS}${id}/approve/`, {}, { token: moderator });
        expect(res2.statusCode).toBe(404);
        expect(json(res2)).toEqual({ detail: 'Not found.', code: 'NOT_FOUND' });
      }
    });

    it('refuses a moderator deciding on its own signup, which another moderator still can', async () => {
      // A moderator whose own signup is still under review (promoted while it waited).
      const reviewAll = await appWith({ auth: { ...app.config.auth, reviewAllSignups: true } });
      const phone = freshPhone();
      await signUp(reviewAll, phone);
      await database.db
        .update(users)
        .set({ role: 'moderator' })
        .where(eq(users.phoneLookup, app.identities.lookup(phone)));
      const own = (await staffLogin(app, { phone, password: PASSWORD }, { now: () => time.now }))
        .access;
      const { uuid } = (await userRow(phone))!;
      for (const decision of ['approve', 'reject']) {
        for (const id of [uuid, uuid.toUpperCase()]) {
          const res = await post(app, `${SIGNUPS}${id}/${decision}/`, {}, { token: own });
          expect(res.statusCode).toBe(403);
          expect(json(res)).toEqual({
            detail: 'Staff cannot decide on their own signup.',
            code: 'FORBIDDEN',
          });
        }
      }
      expect((await userRow(phone))!.status).toBe('under_review');
      const approved = await post(app, `${SIGNUPS}${uuid}/approve/`, {}, { token: moderator });
      expect(json(approved)).toMatchObject({ uuid, status: 'active' });
    });

    it('validates the page query', async () => {
      const res = await get(app, `${SIGNUPS}?page=0`, { token: moderator });
      expect(res.statusCode).toBe(400);
      expect(json(res)).toEqual({ page: ['Must be 1 or more.'] });
    });
  });
});
