import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, logOptions } from '../app.js';
import type { Database } from '../db/client.js';
import { seedSampleContent } from '../db/seed/seed.js';
import { createMember, get, json, post, send, signUp, signupBody } from '../test/accounts.js';
import { createTestApp } from '../test/app.js';
import { memberDevice } from '../test/credentials.js';
import { closeAll, createTestDatabase } from '../test/database.js';
import { lastCodeFor } from '../test/outbox.js';

// Canaries: a phone number, a password, a texted code, an answer and the tokens of one person,
// used through signup, login (right and wrong), refresh, credentials, answers and ratings redeemed
// with them, errors and erasure. The server's
// log, at its most talkative, must hold none of them.
const PHONE = '+12025550147';
const PASSWORD = 'canary zebra lantern 4417';
const ANSWER = 'CANARY-ANSWER my secret is umbrella';
const SOME_PROFILE = { gender: 'female', age_band: '25-34', country: 'US' } as const;

describe('what the log never holds', () => {
  let database: Database;
  let app: App;
  const lines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await seedSampleContent(database.db);
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await createTestApp(
      database,
      { resultsRefreshSeconds: 0, contentCacheSeconds: 0 },
      { logger: pino({ ...logOptions, level: 'trace' }, sink) },
    );
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('holds no phone number, password, code, token, answer, address or tag of a whole session', async () => {
    const ip = '10.9.8.7';
    const tokens = await signUp(app, PHONE, { password: PASSWORD, ip });
    const code = lastCodeFor(app.config.dataDir, PHONE)!;
    expect(code).toMatch(/^\d{6}$/);

    // A wrong and a right login, a refresh, a refresh replayed, a bad signup naming the number.
    await post(app, '/api/token/', { phone_number: PHONE, password: `${PASSWORD}x` }, { ip });
    const login = await post(
      app,
      '/api/token/',
      { phone_number: PHONE, password: PASSWORD },
      { ip },
    );
    const pair = json<{ access: string; refresh: string }>(login);
    const refreshed = await post(app, '/api/token/refresh/', { refresh: pair.refresh }, { ip });
    await post(app, '/api/token/refresh/', { refresh: `${pair.refresh}x` }, { ip });
    await post(app, '/api/v1/user/create/', signupBody(PHONE, { country: 'x' }), { ip });
    await post(app, '/api/v1/user/verify/', { phone_number: PHONE, otp: code }, { ip });

    // Answers: a written one, a closed one, a malformed one, and the member's own data.
    const access = json<{ access: string }>(refreshed).access;
    const surveys = json<{
      results: Array<{
        status: string;
        questions: Array<{ qid: string; type: string; choices: string[] }>;
      }>;
    }>(await get(app, '/api/v1/surveys/open-closed-random-video-surveys?page_size=100'));
    const all = surveys.results.filter((s) => s.status === 'Open').flatMap((s) => s.questions);
    const open = all.find((q) => q.type === 'Open')!;
    const closed = all.find((q) => q.type === 'Closed')!;
    const call = { token: access, ip };
    // Answered as the device does: with the survey's credential from the same address, no session.
    const device = memberDevice(app, { ...call, profile: SOME_PROFILE });
    expect((await device.answer(open.qid, { text: ANSWER })).statusCode).toBe(201);
    await device.answer(closed.qid, { choice: closed.choices[0] });
    await device.answer(closed.qid, { choice: ANSWER });
    await device.answer(open.qid, { text: ANSWER, extra: 1 });
    expect((await device.rate(open.qid, 7)).statusCode).toBe(200);
    await app.credentials.mix(true);
    const credentials = [
      await device.credentialOf(open.qid),
      await device.credentialOf(closed.qid),
    ];
    await get(app, '/api/v1/user/export/', call);
    // The timing of an answer: its id tags the member across requests.
    const timing = json<{ id: string }>(
      await post(app, '/api/v1/questions/answer-time-start/', { qid: open.qid }, call),
    ).id;
    expect(timing.length).toBeGreaterThan(20);
    await send(app, 'PUT', `/api/v1/questions/answer-time-end/${timing}`, undefined, call);
    // An admin looks the number up (in the body), and an old client tries it in the URL (400).
    const admin = await createMember(app, { role: 'admin' });
    const search = await post(
      app,
      '/api/v1/admin/users/search/',
      { phone: PHONE },
      { token: admin.token, ip },
    );
    expect(search.statusCode).toBe(200);
    const inUrl = await get(app, `/api/v1/admin/users/?phone=${encodeURIComponent(PHONE)}`, {
      token: admin.token,
      ip,
    });
    expect(inUrl.statusCode).toBe(400);
    await get(app, '/api/v1/user/detail/', { token: tokens.access, ip });
    await post(app, '/api/v1/user/delete/', { password: `${PASSWORD}x` }, call);
    expect((await post(app, '/api/v1/user/delete/', { password: PASSWORD }, call)).statusCode).toBe(
      204,
    );

    const log = lines.join('');
    // The log was written (at trace level every request is): an empty log would prove nothing.
    expect(lines.length).toBeGreaterThan(20);
    expect(log).toContain('incoming request');
    const national = PHONE.slice(2);
    for (const [what, secret] of [
      ['phone number', PHONE],
      ['national number', national],
      ['password', PASSWORD],
      ['answer', 'CANARY-ANSWER'],
      ['access token', pair.access],
      ['refresh token', pair.refresh],
      ['first access token', tokens.access],
      ['client address', ip],
      ['timing id', timing],
      ...credentials.flatMap((c) => [
        ['credential', c] as const,
        ['credential message', c.split('.')[0]!] as const,
        ['credential signature', c.split('.')[1]!] as const,
      ]),
    ] as const) {
      expect(log.includes(secret), `the log holds the ${what}`).toBe(false);
    }
    expect(new RegExp(`(?<!\\d)${code}(?!\\d)`).test(log), 'the log holds the code').toBe(false);
  });
});
