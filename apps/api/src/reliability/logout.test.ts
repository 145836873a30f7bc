// Process level: logging out ends the session on every worker before the 204 (issue 34, finding
// 8). The real server from source in cluster mode (WEB_CONCURRENCY=2) on PostgreSQL, its
// database reached through a proxy that can freeze one kind of connection. Found: 92 requests
// admitted up to 22 ms after the 204 on the other worker, and, with a worker's notification
// connection frozen, requests admitted 4.5 s after the logout.
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenerName } from '../db/connections.js';
import { deriveKeys } from '../lib/keys.js';
import { createTokenService } from '../lib/tokens.js';
import { SESSION_CHANNEL } from '../modules/auth/session-changes.js';
import { createScratchPostgres } from '../test/database.js';
import { type PartitionProxy, startPartitionProxy } from '../test/partition.js';
import {
  SERVER_SECRETS,
  type ServerProcess,
  childPids,
  connectionsHeld,
  insertMembers,
  startServer,
} from '../test/servers.js';
import { openSessionsWithRefresh } from '../test/sessions.js';

const adminUrl = process.env.TEST_DATABASE_URL;
const MINE = '/api/v1/questions/my-attempted-questions/';
const LOGOUT = '/api/v1/user/logout/';

/** One request's fate: when it was sent (ms, performance.now() or after the 204) and its status. */
interface Sent {
  at: number;
  status: number;
}

describe.skipIf(!adminUrl)('logout across the workers of a cluster on postgres', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | undefined;
  let proxy: PartitionProxy | undefined;
  let primary: ServerProcess | undefined;
  let db: pg.Client | undefined;
  // Connections opened ahead and kept: the primary hands them out evenly over the two workers,
  // so every burst reaches both.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const tokens = createTokenService(deriveKeys({ jwtSecret: SERVER_SECRETS.jwtSecret }), {
    accessTtlSeconds: 600,
  });

  beforeAll(async () => {
    scratch = await createScratchPostgres(adminUrl!);
    proxy = await startPartitionProxy(scratch.url);
    primary = await startServer({ DATABASE_URL: proxy.through(scratch.url), WEB_CONCURRENCY: '2' });
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
  }, 90_000);

  afterAll(async () => {
    agent.destroy();
    proxy?.heal();
    await db?.end();
    await primary?.stop();
    await proxy?.close();
    await scratch?.drop();
  });

  /** GET MINE with `token` on one of the kept connections. */
  function mine(token: string): Promise<Sent> {
    const at = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.get(`${primary!.origin}${MINE}`, {
        agent,
        headers: { authorization: `Bearer ${token}` },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ at, status: res.statusCode! }));
      });
    });
  }

  const burst = (token: string, n: number) =>
    Promise.all(Array.from({ length: n }, () => mine(token)));

  /** A member logged in (a session with its refresh token) and an access token naming it. */
  async function session(phone: string) {
    const [member] = await insertMembers(db!, [phone]);
    const [opened] = await openSessionsWithRefresh(db!, [member!.uuid]);
    const access = await tokens.signAccess({ sub: member!.uuid, role: 'member', sid: opened!.sid });
    return { access, refresh: opened!.refresh };
  }

  /** Logs out on a connection of its own; resolves with when its 204 arrived. */
  async function logout(refresh: string): Promise<number> {
    const res = await fetch(`${primary!.origin}${LOGOUT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh }),
    });
    const at = performance.now();
    expect(res.status).toBe(204);
    return at;
  }

  /**
   * Logs out while `token` is in use on both workers (20 requests always in flight), then sends
   * a burst of 100 at once the moment the 204 arrives. The requests sent after it, all refused.
   */
  async function logoutUnderLoad(token: string, refresh: string): Promise<Sent[]> {
    const sent: Sent[] = [];
    let running = true;
    const loop = async () => {
      while (running) sent.push(await mine(token));
    };
    const load = Promise.all(Array.from({ length: 20 }, loop));
    await new Promise((r) => setTimeout(r, 100));
    const done = await logout(refresh);
    sent.push(...(await burst(token, 100)));
    await new Promise((r) => setTimeout(r, 100));
    running = false;
    await load;
    // The load was admitted until the logout began (the cache was in use).
    expect(sent.filter((s) => s.at < done && s.status === 200).length).toBeGreaterThan(0);
    return sent.filter((s) => s.at >= done).map((s) => ({ ...s, at: s.at - done }));
  }

  /** Expects every request sent after the 204 refused, and says otherwise in one line. */
  function expectAllRefused(after: Sent[]) {
    const admitted = after.filter((s) => s.status !== 401);
    const latest = Math.max(0, ...admitted.map((s) => s.at));
    expect(
      admitted.length,
      `${admitted.length} of ${after.length} sent after the 204 admitted (statuses ` +
        `${[...new Set(admitted.map((s) => s.status))].join(', ')}), the latest sent ` +
        `${latest.toFixed(1)} ms after it`,
    ).toBe(0);
  }

  it.each([
    ['', 0],
    [', with the notification connections 30 ms slow', 30],
  ])(
    'admits no request after the 204, on either worker, for a burst fired as it returns%s',
    async (_, slowMs) => {
      const workers = childPids(primary!.child.pid!);
      expect(workers).toHaveLength(2);
      // A slow path to the database delays the notification, as a loaded host does.
      if (slowMs) proxy!.slow(listenerName(SESSION_CHANNEL), slowMs);
      try {
        for (let round = 0; round < 5; round += 1) {
          const { access, refresh } = await session(`+155501${slowMs}${String(1000 + round)}`);
          // Both workers have read the session and cached it as good.
          expect((await burst(access, 48)).map((s) => s.status)).toEqual(Array(48).fill(200));
          const held = connectionsHeld(workers, Number(new URL(primary!.origin).port));
          expect(Math.min(...held)).toBeGreaterThan(0);
          const after = await logoutUnderLoad(access, refresh);
          expect(after.length).toBeGreaterThanOrEqual(100);
          expectAllRefused(after);
        }
      } finally {
        proxy!.heal();
      }
    },
    60_000,
  );

  it('admits nothing after the 204 while a worker’s notification connection is frozen', async () => {
    const { access, refresh } = await session('+15550102000');
    const other = await session('+15550102001');
    expect((await burst(access, 48)).map((s) => s.status)).toEqual(Array(48).fill(200));
    expect((await burst(other.access, 48)).map((s) => s.status)).toEqual(Array(48).fill(200));
    // The workers' session-notification connections fall silent, as in a partition that
    // spares their other connections: no notification arrives, nothing says so for seconds.
    proxy!.partition(listenerName(SESSION_CHANNEL));
    try {
      await new Promise((r) => setTimeout(r, 300));
      expectAllRefused(await logoutUnderLoad(access, refresh));
      // Still refused, before the workers can have noticed the silence (their heartbeat: seconds).
      expectAllRefused(await burst(access, 48));
      // Meanwhile a session still open works: its checks go to the database.
      expect((await burst(other.access, 48)).map((s) => s.status)).toEqual(Array(48).fill(200));
    } finally {
      proxy!.heal();
    }
  }, 60_000);
});
