// Redis away (nothing listening, stopped, crashed, frozen) and back: rate-limited requests answer
// 503 with Retry-After at once instead of hanging into a 500, the readiness check says so, and
// everything works again by itself when Redis returns. Runs a real redis-server of its own.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/client.js';
import { freshIp, freshPhone, get, post, signupBody } from '../test/accounts.js';
import { createTestApp } from '../test/app.js';
import { closeAll, createTestDatabase, engines } from '../test/database.js';
import { stopProcess } from '../test/servers.js';
import { freePort } from '../lib/free-port.js';

const CREATE = '/api/v1/user/create/';

const redisServer = (() => {
  try {
    return execFileSync('which', ['redis-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();

/** A throwaway redis-server on `port` (no persistence), resolved once it accepts commands. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    redisServer!,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('Ready to accept connections')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
  });
  return child;
}

/** Polls the readiness check until it answers `status`; bounded by count, not by a clock. */
async function readiness(app: App, status: number, tries = 200): Promise<void> {
  let last = 0;
  for (let i = 0; i < tries; i++) {
    last = (await get(app, '/api/health/ready')).statusCode;
    if (last === status) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`readiness stayed ${last}, never ${status}`);
}

/**
 * `n` concurrent page views from distinct addresses (no limit is near): a request whose limit
 * lives in Redis. The accounts' limits live in PostgreSQL (decision 022), so signups need no
 * Redis; `signups` checks they are served throughout an outage.
 */
function burst(app: App, n: number) {
  return Promise.all(
    Array.from({ length: n }, () =>
      post(app, '/api/v1/page-views/', { path: '/surveys/:gid' }, { ip: freshIp() }),
    ),
  );
}

function signups(app: App, n: number) {
  return Promise.all(
    Array.from({ length: n }, () => post(app, CREATE, signupBody(freshPhone()), { ip: freshIp() })),
  );
}

function expectUnavailable(responses: Awaited<ReturnType<typeof burst>>) {
  const seen = responses.map(
    (r) => `${r.statusCode} ${r.headers['retry-after']} ${r.json<{ code?: string }>().code}`,
  );
  expect(seen).toEqual(responses.map(() => '503 2 SERVICE_UNAVAILABLE'));
}

describe.each(engines)('Redis outage on %s', (engine) => {
  let database: Database;
  const apps: App[] = [];
  const redises: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });

  afterAll(async () => {
    for (const a of apps) await a.close();
    for (const r of redises) await stopProcess(r, 'SIGKILL');
    await closeAll(database);
  });

  async function appOn(port: number): Promise<App> {
    const app = await createTestApp(database, {
      redisUrl: `redis://127.0.0.1:${port}`,
      redisKeyPrefix: `candor-test:${port}:`,
      redisTimeoutMs: 300,
      analytics: true,
    });
    apps.push(app);
    return app;
  }

  it('with nothing listening at REDIS_URL: 503 with Retry-After, not ready, still live', async () => {
    const app = await appOn(await freePort());
    expectUnavailable(await burst(app, 20));
    const ready = await get(app, '/api/health/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('2');
    expect(ready.json()).toEqual({
      detail: 'Not ready: Redis (shared rate limits) is unreachable.',
      code: 'SERVICE_UNAVAILABLE',
    });
    // The process and its database are fine: liveness and the database check stay 200.
    expect((await get(app, '/api/health/live')).statusCode).toBe(200);
    expect((await get(app, '/api/health')).statusCode).toBe(200);
    // Requests that need no shared limit in Redis are served throughout: reads, and signups
    // (their limits are in PostgreSQL).
    expect((await signups(app, 5)).map((r) => r.statusCode)).toEqual(Array(5).fill(202));
    expect((await get(app, '/api/v1/surveys/open-closed-random-video-surveys')).statusCode).toBe(
      200,
    );
  });

  it.skipIf(!redisServer)(
    'a real Redis late at start, stopped, killed and frozen: 503 during each outage, served after each return',
    async () => {
      const port = await freePort();
      // The app starts before Redis does: 503 until it comes up.
      const app = await appOn(port);
      expectUnavailable(await burst(app, 10));
      let redis = await startRedis(port);
      redises.push(redis);
      await readiness(app, 200);
      expect((await get(app, '/api/health/ready')).json()).toEqual({
        status: 'ok',
        database: 'ok',
        redis: 'ok',
      });
      expect((await burst(app, 10)).map((r) => r.statusCode)).toEqual(Array(10).fill(204));

      // Stopped cleanly, then crashed: the connection is gone, commands fail at once.
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        await stopProcess(redis, signal);
        expectUnavailable(await burst(app, 20));
        await readiness(app, 503);
        expect((await get(app, '/api/health/live')).statusCode).toBe(200);
        redis = await startRedis(port);
        redises.push(redis);
        // Nobody restarts the app: its client reconnects by itself.
        await readiness(app, 200);
        expect((await burst(app, 10)).map((r) => r.statusCode)).toEqual(Array(10).fill(204));
      }

      // Frozen: the connection stays open but nothing answers; the command timeout answers.
      redis.kill('SIGSTOP');
      try {
        expectUnavailable(await burst(app, 5));
        expect((await get(app, '/api/health/ready')).statusCode).toBe(503);
      } finally {
        redis.kill('SIGCONT');
      }
      await readiness(app, 200);
      expect((await burst(app, 10)).map((r) => r.statusCode)).toEqual(Array(10).fill(204));
    },
  );
});
