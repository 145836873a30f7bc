import crypto from 'node:crypto';
import { CODE_LOCKED_MESSAGE } from '@candor/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { otpChallenges, users } from '../../db/schema.js';
import { passwordHashCount } from '../../lib/passwords.js';
import { freshIp, freshPhone, json, post, signUp, signupBody } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { lastCodeFor } from '../../test/outbox.js';

// An attacker does not wait for one guess to be refused before sending the next: every limited
// action is attacked here with a burst of concurrent requests, and must do at most the limit of
// expensive or secret-revealing work (found 2026-11-23: 150 concurrent logins checked 108 wrong
// passwords and the right one at position 90 got tokens).

const redisUrl = process.env.TEST_REDIS_URL;
const LOGIN = '/api/token/';
const VERIFY = '/api/v1/user/verify/';
const CREATE = '/api/v1/user/create/';
const PASSWORD = 'correct horse battery staple';
const BURST = 150;
const RIGHT_AT = 90;

type Store = 'memory' | 'redis';
const stores: Store[] = redisUrl ? ['memory', 'redis'] : ['memory'];
const cases = engines.flatMap((engine) => stores.map((store) => [engine, store] as const));

/** The guesses of a burst: wrong ones, with the right one at RIGHT_AT. */
const guesses = (right: string, wrong: (i: number) => string) =>
  Array.from({ length: BURST }, (_, i) => (i === RIGHT_AT ? right : wrong(i)));

describe.each(cases)('limits under concurrent bursts on %s with %s limits', (engine, store) => {
  let database: Database;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(
      database,
      store === 'redis' ? { redisUrl, redisKeyPrefix: `candor-test:${crypto.randomUUID()}:` } : {},
      { secrets: testSecrets() },
    );
  });
  afterAll(async () => {
    await closeAll(app, database);
  });

  it(`checks at most 5 passwords of ${BURST} concurrent logins to one number; the right one past them gets no token`, async () => {
    const phone = freshPhone();
    await signUp(app, phone, { password: PASSWORD });
    const ip = freshIp();
    const before = passwordHashCount();
    const responses = await Promise.all(
      guesses(PASSWORD, (i) => `wrong guess number ${i}`).map((password) =>
        post(app, LOGIN, { phone_number: phone, password }, { ip }),
      ),
    );
    const checks = passwordHashCount() - before;
    const statuses = responses.map((r) => r.statusCode);
    expect(checks).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(BURST - 5);
    expect(statuses.filter((s) => s === 200)).toEqual([]);
    expect(responses[RIGHT_AT]!.statusCode).toBe(429);
    expect(responses[RIGHT_AT]!.body).not.toContain('access');
    // The window holds after the burst: the right password is still refused.
    const after = await post(app, LOGIN, { phone_number: phone, password: PASSWORD }, { ip });
    expect(after.statusCode).toBe(429);
  });

  it(`checks at most 30 passwords of ${BURST} concurrent logins from one IP to ${BURST} numbers`, async () => {
    const ip = freshIp();
    const before = passwordHashCount();
    const responses = await Promise.all(
      Array.from({ length: BURST }, () =>
        post(app, LOGIN, { phone_number: freshPhone(), password: 'no such account' }, { ip }),
      ),
    );
    expect(passwordHashCount() - before).toBeLessThanOrEqual(30);
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(30);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(BURST - 30);
  });

  it('gives a successful login its slots back: a member who logs in often is never throttled', async () => {
    // Small limits, so a handful of logins would pass them if successes kept their slots.
    const strict = await createTestApp(
      database,
      {
        auth: { ...app.config.auth, loginFailuresPerNumber: 2, loginFailuresPerIp: 3 },
        ...(store === 'redis'
          ? { redisUrl, redisKeyPrefix: `candor-test:${crypto.randomUUID()}:` }
          : {}),
      },
      { secrets: testSecrets() },
    );
    try {
      const phone = freshPhone();
      await signUp(strict, phone, { password: PASSWORD });
      const ip = freshIp();
      const login = () => post(strict, LOGIN, { phone_number: phone, password: PASSWORD }, { ip });
      const together = await Promise.all([login(), login()]);
      expect(together.map((r) => r.statusCode)).toEqual([200, 200]);
      for (let i = 0; i < 5; i++) expect((await login()).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it(`compares at most 5 codes of ${BURST} concurrent guesses; the right code past them verifies nothing`, async () => {
    const phone = freshPhone();
    await post(app, CREATE, signupBody(phone), { ip: freshIp() });
    const code = lastCodeFor(app.config.dataDir, phone)!;
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const responses = await Promise.all(
      guesses(code, wrong).map((otp) =>
        post(app, VERIFY, { phone_number: phone, otp }, { ip: freshIp() }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toEqual([]);
    // Only a compared code can be told "wrong" without "too many": at most 4 wrong ones before
    // the 5th spends the challenge.
    // Every refusal but "too many" compared a code.
    const compared = responses.filter(
      (r) => json<{ detail?: string }>(r).detail !== CODE_LOCKED_MESSAGE,
    );
    expect(compared.length).toBeLessThanOrEqual(4);
    const [challenge] = await database.db
      .select()
      .from(otpChallenges)
      .where(eq(otpChallenges.phoneLookup, app.identities.lookup(phone)));
    expect(challenge!.wrongTries).toBe(5);
    expect(challenge!.usedAt).toBeNull();
    const [user] = await database.db
      .select()
      .from(users)
      .where(eq(users.phoneLookup, app.identities.lookup(phone)));
    expect(user!.status).toBe('pending');
  });

  it(`hashes no password for the signups of a burst past the text limit (${BURST} at once)`, async () => {
    const phone = freshPhone();
    const before = passwordHashCount();
    const responses = await Promise.all(
      Array.from({ length: BURST }, () =>
        post(app, CREATE, signupBody(phone, { password: PASSWORD }), { ip: freshIp() }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 202)).toHaveLength(3);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(BURST - 3);
    expect(passwordHashCount() - before).toBeLessThanOrEqual(3);
  });
});

// Two API processes behind a balancer, each on a real socket, sharing one Redis: a burst split
// between them still gets 5 password checks in all.
describe.skipIf(!redisUrl)('a login burst across two processes sharing Redis', () => {
  let database: Database;
  const apps: App[] = [];
  const origins: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(engines.at(-1)!);
    const shared = { redisUrl, redisKeyPrefix: `candor-test:${crypto.randomUUID()}:` };
    const secrets = testSecrets();
    for (let i = 0; i < 2; i++) {
      const app = await createTestApp(database, shared, { secrets });
      apps.push(app);
      origins.push(await app.listen({ port: 0, host: '127.0.0.1' }));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await closeAll(database);
  });

  it(`checks at most 5 passwords of ${BURST} concurrent logins over HTTP; the right one gets no token`, async () => {
    const phone = freshPhone();
    await signUp(apps[0]!, phone, { password: PASSWORD });
    const before = passwordHashCount();
    const responses = await Promise.all(
      guesses(PASSWORD, (i) => `wrong guess number ${i}`).map(async (password, i) => {
        const res = await fetch(`${origins[i % 2]}${LOGIN}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ phone_number: phone, password }),
        });
        return { status: res.status, body: await res.text() };
      }),
    );
    expect(passwordHashCount() - before).toBeLessThanOrEqual(5);
    expect(responses.filter((r) => r.status === 200)).toEqual([]);
    expect(responses[RIGHT_AT]!.status).toBe(429);
    expect(responses[RIGHT_AT]!.body).not.toContain('access');
    expect(responses.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(BURST - 5);
  });
});
