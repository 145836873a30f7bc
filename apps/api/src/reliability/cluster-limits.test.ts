// Process level: two real API processes behind a load balancer (TRUST_PROXY=1, the client in
// X-Forwarded-For) on one PostgreSQL. Every limit the API has is attacked with one concurrent
// burst split between the two. The accounts' limits (texts, codes, passwords) are counted in
// PostgreSQL (decision 022): the two allow together what one allows, with or without Redis.
// The others (page views, visitors' reads) are counted in Redis: with REDIS_URL the two allow
// what one does; without it (the control, two more processes) each allows its own.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivePhoneLookupKey } from '../lib/keys.js';
import { hashPassword } from '../lib/passwords.js';
import { phoneLookup } from '../modules/auth/identity.js';
import { freshIp, freshPhone, signupBody } from '../test/accounts.js';
import { createScratchPostgres } from '../test/database.js';
import { messagesTo } from '../test/outbox.js';
import { SERVER_SECRETS, type ServerProcess, dropRedisKeys, startServer } from '../test/servers.js';

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

const PASSWORD = 'correct horse battery staple';
// Below the default 30 so the control's checks (scrypt, twice the limit) stay cheap here.
const LOGIN_FAILURES_PER_IP = 12;
const BURST = 30;

interface Request {
  path: string;
  body: unknown;
  ip: string;
  /** Sent once the rest of the burst was answered (a burst's own order is the scheduler's). */
  late?: boolean;
}

interface Scenario {
  name: string;
  /** What one process allows (the configured limit). */
  limit: number;
  /** The status of an allowed request (a refused one is 429). */
  allowed: number;
  /** Where the count is kept: PostgreSQL is shared by every process, with Redis or without. */
  counted: 'postgres' | 'redis';
  /**
   * The burst against `servers`, and how to count what got through by its effect (texts sent,
   * rows stored); null where the reply is the effect (a password checked answers 400).
   */
  prepare(
    servers: ServerProcess[],
  ): Promise<{ requests: Request[]; effect: (() => Promise<number>) | null }>;
}

describe.skipIf(!adminUrl || !redisUrl)('rate limits of two API processes', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let db: pg.Client;
  const started: ServerProcess[] = [];
  let shared: ServerProcess[];
  let alone: ServerProcess[];
  const prefix = `candor-test:${crypto.randomUUID()}:`;

  beforeAll(async () => {
    scratch = await createScratchPostgres(adminUrl!);
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    const start = async (redis: boolean) => {
      const server = await startServer({
        DATABASE_URL: scratch.url,
        SEED_SAMPLE_CONTENT: 'false',
        TRUST_PROXY: '1',
        LOGIN_FAILURES_PER_IP: String(LOGIN_FAILURES_PER_IP),
        ...(redis ? { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: prefix } : {}),
      });
      started.push(server);
      return server;
    };
    // The first migrates the empty database; the others find it ready.
    const first = await start(true);
    const [second, third, fourth] = await Promise.all([start(true), start(false), start(false)]);
    shared = [first, second];
    alone = [third, fourth];
  }, 120_000);

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await db.end();
    await scratch.drop();
    if (redisUrl) await dropRedisKeys(redisUrl, prefix);
  });

  /** A registered, active member (with a password when given), straight into the database. */
  async function member(password?: string): Promise<string> {
    const phone = freshPhone();
    await db.query(
      `insert into users (phone_lookup, password_hash, country, status, phone_verified_at)
       values ($1, $2, 'US', 'active', now())`,
      [
        phoneLookup(derivePhoneLookupKey(SERVER_SECRETS), phone),
        password ? await hashPassword(password) : null,
      ],
    );
    return phone;
  }

  const textsTo = (servers: ServerProcess[], phones: string[]) =>
    servers.reduce(
      (n, s) => n + phones.reduce((m, p) => m + messagesTo(s.dataDir, p).length, 0),
      0,
    );

  const scenarios: Scenario[] = [
    {
      name: 'texts to one number (forgot-password from many IPs, SMS_PER_NUMBER_PER_HOUR 3)',
      limit: 3,
      allowed: 202,
      counted: 'postgres',
      async prepare(servers) {
        const victim = await member();
        const requests = Array.from({ length: BURST }, () => ({
          path: '/api/v1/user/forgot-password/',
          body: { phone_number: victim },
          ip: freshIp(),
        }));
        return { requests, effect: async () => textsTo(servers, [victim]) };
      },
    },
    {
      name: 'texts from one IP (signups of many numbers, SMS_PER_IP_PER_HOUR 10)',
      limit: 10,
      allowed: 202,
      counted: 'postgres',
      async prepare(servers) {
        const ip = freshIp();
        const phones = Array.from({ length: BURST }, () => freshPhone());
        const requests = phones.map((phone) => ({
          path: '/api/v1/user/create/',
          body: signupBody(phone),
          ip,
        }));
        return { requests, effect: async () => textsTo(servers, phones) };
      },
    },
    {
      name: 'password guesses at one number from many IPs (LOGIN_FAILURES_PER_NUMBER 5)',
      limit: 5,
      allowed: 400,
      counted: 'postgres',
      async prepare() {
        const victim = await member(PASSWORD);
        // The right password after the burst: it must not get past the limit either. (Sent
        // with it, a loaded machine may check it among the first five, and let it in rightly.)
        const requests = Array.from({ length: BURST }, (_, i) => ({
          path: '/api/token/',
          body: { phone_number: victim, password: i === 20 ? PASSWORD : `wrong guess ${i}` },
          ip: freshIp(),
          late: i === 20,
        }));
        return { requests, effect: null };
      },
    },
    {
      name: `password guesses from one IP at many numbers (LOGIN_FAILURES_PER_IP ${LOGIN_FAILURES_PER_IP})`,
      limit: LOGIN_FAILURES_PER_IP,
      allowed: 400,
      counted: 'postgres',
      async prepare() {
        const ip = freshIp();
        const requests = Array.from({ length: BURST }, () => ({
          path: '/api/token/',
          body: { phone_number: freshPhone(), password: PASSWORD },
          ip,
        }));
        return { requests, effect: null };
      },
    },
    {
      name: 'page views from one IP (120 a minute)',
      limit: 120,
      allowed: 204,
      counted: 'redis',
      async prepare() {
        const path = `/limits-${crypto.randomBytes(4).toString('hex')}`;
        const requests = Array.from({ length: 300 }, () => ({
          path: '/api/v1/page-views/',
          body: { path },
          ip: '192.0.2.77',
        }));
        const stored = async () => {
          const { rows } = await db.query<{ n: number }>(
            'select count(*)::int as n from page_views where path = $1',
            [path],
          );
          return rows[0]!.n;
        };
        return { requests, effect: stored };
      },
    },
  ];

  /** The burst, every request at once, the i-th to the (i mod 2)-th process. */
  async function attack(s: Scenario, servers: ServerProcess[]) {
    const { requests, effect } = await s.prepare(servers);
    const send = async (r: Request, i: number) => {
      const res = await fetch(`${servers[i % servers.length]!.origin}${r.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': r.ip },
        body: JSON.stringify(r.body),
      });
      return { status: res.status, retryAfter: Number(res.headers.get('retry-after')) };
    };
    const replies = await Promise.all(
      requests.map((r, i) => (r.late ? Promise.resolve(null) : send(r, i))),
    );
    for (const [i, r] of requests.entries()) if (r.late) replies[i] = await send(r, i);
    const answered = replies.filter((r) => r !== null);
    const refused = answered.filter((r) => r.status === 429);
    // Nothing but allowed or refused (no 5xx, no token), and every refusal says when to retry.
    expect(answered.filter((r) => r.status !== s.allowed && r.status !== 429)).toEqual([]);
    expect(refused.filter((r) => !(r.retryAfter > 0))).toEqual([]);
    return { allowed: answered.length - refused.length, effect: effect ? await effect() : null };
  }

  it.each(scenarios.map((s) => [s.name, s.counted, s] as const))(
    '%s: one limit for both processes (counted in %s)',
    async (_name, _counted, s) => {
      const together = await attack(s, shared);
      const apart = await attack(s, alone);
      // A password check has no effect but its reply (400); the others text or store.
      const effect = (n: number) => (s.allowed === 400 ? null : n);
      // Without Redis, a limit counted in Redis is each process's own: twice in all.
      const withoutRedis = s.counted === 'postgres' ? s.limit : 2 * s.limit;
      expect({ together, apart }).toEqual({
        together: { allowed: s.limit, effect: effect(s.limit) },
        apart: { allowed: withoutRedis, effect: effect(withoutRedis) },
      });
    },
  );
});
