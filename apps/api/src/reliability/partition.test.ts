import crypto from 'node:crypto';
import { once } from 'node:events';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.js';
import { STATEMENT_TIMEOUT_MS } from '../db/connections.js';
import { createScratchPostgres } from '../test/database.js';
import { type PartitionProxy, startPartitionProxy } from '../test/partition.js';
import { startServer } from '../test/servers.js';

const adminUrl = process.env.TEST_DATABASE_URL;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** `url` with query parameters added (node-postgres reads them as connection settings). */
function withParams(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

// PostgreSQL that stops answering without closing anything: a network partition, a host that
// vanished. Nothing is refused and no socket closes, so only the API's own bounds
// (db/connections.ts) stand between it and requests that wait forever.
describe.skipIf(!adminUrl)('PostgreSQL gone silent (a network partition)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let proxy: PartitionProxy;
  const opened: Database[] = [];
  const open = async (url: string, poolSize = 2) => {
    const database = await openDatabase({ databaseUrl: url, dataDir: null, poolSize });
    opened.push(database);
    return database;
  };
  /** The proxied URL, with statements the server never answers given up after a second. */
  const silentAfterASecond = (params: Record<string, string> = {}) =>
    withParams(proxy.through(scratch.url), { query_timeout: '1000', ...params });

  beforeAll(async () => {
    scratch = await createScratchPostgres(adminUrl!, 'candor_partition');
    const direct = await open(scratch.url);
    await direct.migrate();
    proxy = await startPartitionProxy(scratch.url);
  });

  // A test that fails while silent must not leave the next one silent.
  afterEach(() => proxy.heal());

  afterAll(async () => {
    proxy.heal();
    for (const database of opened) await database.close();
    await proxy.close();
    await scratch.drop();
  });

  it('bounds every statement by default, on the server and on the client', async () => {
    const database = await open(scratch.url);
    const [settings] = rowsOf<{ statement: string; idle: string }>(
      await database.db.execute(
        sql`SELECT current_setting('statement_timeout') AS statement,
                   current_setting('idle_in_transaction_session_timeout') AS idle`,
      ),
    );
    expect(settings).toEqual({ statement: `${STATEMENT_TIMEOUT_MS / 1000}s`, idle: '1min' });
    // Maintenance and migrations run without them (a VACUUM may rightly take minutes).
    const [own] = rowsOf<{ statement: string }>(
      await database.unbounded((db) =>
        db.execute(sql`SELECT current_setting('statement_timeout') AS statement`),
      ),
    );
    expect(own).toEqual({ statement: '0' });
  });

  it('fails statements and transactions within their bounds, loses no pool slot, and recovers', async () => {
    const database = await open(silentAfterASecond(), 2);
    await Promise.all([1, 2].map(() => database.db.execute(sql`select 1`))); // both slots open

    proxy.partition();
    const during = await Promise.allSettled([
      // BEGIN is never answered: Drizzle alone would never give this connection back.
      database.db.transaction(async (tx) => tx.execute(sql`select 1`)),
      database.db.transaction(async (tx) => tx.execute(sql`select 1`)),
      // These wait for a slot, then for a new connection that never opens.
      database.db.execute(sql`select 1`),
      database.db.execute(sql`select 1`),
    ]);
    expect(during.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);

    proxy.heal();
    // More transactions at once than the pool has connections: each slot must have come back.
    const after = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        database.db.transaction(async (tx) => {
          return rowsOf<{ n: number }>(await tx.execute(sql`select ${i}::int as n`))[0]!.n;
        }),
      ),
    );
    expect(after).toEqual([0, 1, 2, 3, 4, 5]);

    // Silent in the middle of a transaction: it fails, and its connection is not lent again.
    const midway = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      proxy.partition();
      await tx.execute(sql`select 2`);
    });
    await expect(midway).rejects.toThrow();
    proxy.heal();
    const again = await Promise.all(
      [1, 2, 3].map(() => database.db.transaction(async (tx) => tx.execute(sql`select 1`))),
    );
    expect(again).toHaveLength(3);
  }, 40_000);

  // The dedicated connections' bounds are their own: a URL that allows 90 s per statement (as an
  // operator may, for the pool) must not let a silent leader go on leading for 90 s.
  const patientUrl = () => withParams(proxy.through(scratch.url), { query_timeout: '90000' });

  it('a LISTEN connection stops trusting itself within seconds, and listens again once healed', async () => {
    const database = await open(patientUrl());
    const channel = `partition_${crypto.randomBytes(4).toString('hex')}`;
    let listening: boolean | undefined;
    const heard: string[] = [];
    const stop = await database.listen(channel, {
      onMessage: (payload) => heard.push(payload),
      onState: (now) => (listening = now),
    });
    expect(listening).toBe(true);

    proxy.partition();
    // Heartbeat every 2 s, answered within 3 s or the connection is given up.
    await expect.poll(() => listening, { timeout: 10_000, interval: 100 }).toBe(false);
    proxy.heal();
    await expect.poll(() => listening, { timeout: 10_000, interval: 100 }).toBe(true);

    const direct = new pg.Client({ connectionString: scratch.url });
    await direct.connect();
    await direct.query(`NOTIFY ${channel}, 'after the partition'`);
    await direct.end();
    await expect.poll(() => heard, { timeout: 5_000 }).toEqual(['after the partition']);
    await stop();
  }, 40_000);

  it('a silent leader steps down before another can lead, and another leads once it is gone', async () => {
    const key = crypto.randomInt(1, 2 ** 31 - 1);
    const silentOne = await open(patientUrl());
    const other = await open(scratch.url);
    let first = false;
    let second = false;
    let both = false;
    const stopFirst = await silentOne.lead(key, (now) => {
      first = now;
      both ||= first && second;
    });
    expect(first).toBe(true);
    const stopSecond = await other.lead(key, (now) => {
      second = now;
      both ||= first && second;
    });
    expect(second).toBe(false);

    proxy.partition();
    await expect.poll(() => first, { timeout: 10_000, interval: 100 }).toBe(false);
    // The server still holds the first one's lock (its socket is open): nobody leads meanwhile,
    // which is what keeps the background work from running twice.
    expect(second).toBe(false);
    proxy.heal(); // its end reaches the server: the lock is released
    await expect.poll(() => second, { timeout: 10_000, interval: 100 }).toBe(true);
    expect(both).toBe(false);
    await stopFirst();
    await stopSecond();
  }, 40_000);

  it('closed while reconnecting for the lead: the connection that opens late is ended, with its lock', async () => {
    const key = crypto.randomInt(1, 2 ** 31 - 1);
    const name = `candor_partition_${crypto.randomBytes(3).toString('hex')}`;
    const silentOne = await open(silentAfterASecond({ application_name: name }));
    let first = false;
    const stopFirst = await silentOne.lead(key, (now) => (first = now));
    expect(first).toBe(true);

    // Its connection is cut by the server; the network then goes silent while it connects again.
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    const sessions = async () =>
      (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [name]))
        .rowCount;
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [name],
    );
    await expect.poll(() => first, { timeout: 5_000, interval: 50 }).toBe(false);
    proxy.partition();
    await new Promise((r) => setTimeout(r, 2_500)); // its next try (every 2 s) is connecting
    await stopFirst();
    proxy.heal(); // the connection completes after close(): it must be ended, not kept
    await new Promise((r) => setTimeout(r, 1_000));
    await expect.poll(sessions, { timeout: 5_000, interval: 100 }).toBe(0);
    await admin.end();

    const other = await open(scratch.url);
    let second = false;
    const stopSecond = await other.lead(key, (now) => (second = now));
    await expect.poll(() => second, { timeout: 10_000, interval: 100 }).toBe(true);
    expect(first).toBe(false);
    await stopSecond();
  }, 40_000);

  it('migrations and VACUUM run without the statement timeouts, whatever the URL says', async () => {
    const database = await open(withParams(scratch.url, { statement_timeout: '500' }));
    await expect(database.db.execute(sql`select pg_sleep(1)`)).rejects.toThrow();
    const slept = await database.unbounded(async (db) => {
      await db.execute(sql`select pg_sleep(1)`);
      return rowsOf<{ s: string }>(
        await db.execute(sql`select current_setting('statement_timeout') as s`),
      )[0]!.s;
    });
    expect(slept).toBe('0');
  });

  it('work without timeouts still ends: when its caller stops it, and when the database closes', async () => {
    const database = await open(proxy.through(scratch.url));
    const controller = new AbortController();
    const stopped = database.unbounded(async (db) => {
      proxy.partition();
      return db.execute(sql`select 1`);
    }, controller.signal);
    await new Promise((r) => setTimeout(r, 500));
    controller.abort();
    await expect(stopped).rejects.toThrow();
    proxy.heal();

    const closed = database.unbounded(async (db) => {
      proxy.partition();
      return db.execute(sql`select 1`);
    });
    await new Promise((r) => setTimeout(r, 500));
    await database.close();
    await expect(closed).rejects.toThrow();
  }, 20_000);

  it('the API answers 503 while silent, 200 once healed, and still shuts down while silent', async () => {
    const server = await startServer({
      DATABASE_URL: silentAfterASecond({ query_timeout: '1500' }),
    });
    try {
      expect((await fetch(`${server.origin}/api/health`)).status).toBe(200);
      proxy.partition();
      const answers = await Promise.all([1, 2, 3].map(() => fetch(`${server.origin}/api/health`)));
      for (const res of answers) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBeTruthy();
      }
      expect((await fetch(`${server.origin}/api/health/live`)).status).toBe(200);
      proxy.heal();
      await expect
        .poll(async () => (await fetch(`${server.origin}/api/health`)).status, { timeout: 15_000 })
        .toBe(200);

      proxy.partition();
      const inFlight = fetch(`${server.origin}/api/health`).catch(() => undefined);
      const exited = once(server.child, 'exit');
      server.child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
      await inFlight;
    } finally {
      proxy.heal();
      await server.stop();
    }
  }, 60_000);
});
