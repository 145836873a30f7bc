import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import {
  type EmbeddedPostgres,
  EmbeddedPostgresUnavailable,
  hasPgliteData,
  startEmbeddedPostgres,
} from './embedded-postgres.js';
import type { BackupConfig } from '../config.js';
import { type BaseBackup, scheduleBackups, walDir } from './backups.js';
import {
  CLOSE_WAIT_MS,
  briefly,
  connectDedicated,
  dedicatedConfig,
  GuardedPool,
  LEADER_NAME,
  listenerName,
  heartbeat,
  poolConfig,
  UNBOUNDED_SETUP,
  unboundedConfig,
  within,
} from './connections.js';
import { acquireDataDirLock } from './lock.js';
import * as schema from './schema.js';

/** The Drizzle database, the same type on PGlite and on PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** Where the data lives, for the startup line (no credentials). */
  location: string;
  /**
   * This process started the server (the embedded PostgreSQL): its write-ahead log and files
   * are Candor's own, so an erasure may rewrite tables and switch the log (db/erasure-vacuum.ts).
   */
  owned?: boolean;
  migrate(): Promise<void>;
  /**
   * Runs `work` on a connection of its own without the statement timeouts (db/connections.ts):
   * for statements that may rightly run for minutes on a large database (VACUUM, migrations).
   * On PGlite, on the one database. `signal` ends the connection, failing what runs on it;
   * `close()` ends every one.
   */
  unbounded<T>(work: (db: Db) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /**
   * Receives NOTIFY on `channel`: in process on PGlite, on a connection of its own on
   * PostgreSQL (reconnected when lost). Returns the function that stops listening.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  /**
   * Leadership among the processes on this database: `onState(true)` while this process holds
   * the session advisory lock `key` (on a connection of its own, so it is released the moment
   * the process or its connection dies, and another process takes it at its next try, within
   * `LEAD_RETRY_MS`). On PGlite the one process always leads. Returns the function that steps
   * down on close (without calling `onState`: the caller stops its own work then).
   */
  lead(key: number, onState: (leading: boolean) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Plain functions, not methods: `onMessage` is handed on by itself (PGlite's listen). */
export interface ListenHandlers {
  onMessage: (payload: string) => void;
  /**
   * Whether notifications are being received: false while the connection is down, so a cache
   * that relies on them for invalidation stops trusting itself until it is back.
   */
  onState?: (listening: boolean) => void;
  /**
   * On PostgreSQL, the connection is probed every `everyMs` (instead of HEARTBEAT_MS) and
   * `heard(sentAt)` told of each probe answered, with the `performance.now()` at which it was
   * sent: every notification committed before the server read that probe has been handed to
   * `onMessage` by then (the server sends a listener's pending notifications before it answers
   * its next statement, and the connection keeps the order). A cache that lets nothing in
   * unless such a probe is recent cannot miss a change by more than that (decision 023).
   */
  caughtUp?: { everyMs: number; heard: (sentAt: number) => void };
  onError?: (err: Error) => void;
}

const RELISTEN_MS = 1000;

const noop = (): void => undefined;

/** Ends a connection that was lost or is no longer wanted: if that fails, it is gone anyway. */
async function endQuietly(client: pg.Client | undefined): Promise<void> {
  // A server that does not answer never acknowledges the end: not waited for past CLOSE_WAIT_MS.
  await within(
    CLOSE_WAIT_MS,
    client?.end().catch(() => {
      // nothing left to close
    }),
  );
}

/** LISTEN on a dedicated PostgreSQL connection, outside the pool, reconnecting when lost. */
async function listenPg(
  connectionString: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  let closed = false;
  let current: pg.Client | undefined;
  let stopBeating: () => void = noop; // the current connection's heartbeat
  let timer: NodeJS.Timeout | undefined;
  const retry = () => {
    if (closed) return;
    timer = setTimeout(() => void connect(), RELISTEN_MS);
    timer.unref();
  };
  async function connect(): Promise<void> {
    const client = new pg.Client(dedicatedConfig(connectionString, listenerName(channel)));
    const lost = (err?: Error) => {
      if (err) handlers.onError?.(err);
      if (current !== client) return;
      current = undefined;
      stopBeating();
      handlers.onState?.(false);
      void endQuietly(client);
      retry();
    };
    client.on('notification', (msg) => {
      if (msg.channel === channel) handlers.onMessage(msg.payload ?? '');
    });
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await connectDedicated(client);
      await briefly(client, `LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (err) {
      handlers.onError?.(err as Error);
      void endQuietly(client);
      retry();
      return;
    }
    if (closed) {
      await endQuietly(client);
      return;
    }
    current = client;
    // A partition closes nothing: without the heartbeat this connection would wait for
    // notifications that never come, and the caches relying on it would go on trusting themselves.
    stopBeating = heartbeat(
      client,
      lost,
      handlers.caughtUp
        ? { everyMs: handlers.caughtUp.everyMs, answered: handlers.caughtUp.heard }
        : {},
    );
    handlers.onState?.(true);
  }
  await connect();
  return async () => {
    closed = true;
    clearTimeout(timer);
    stopBeating();
    const client = current;
    current = undefined;
    await endQuietly(client);
  };
}

/** How often a process that does not lead tries to take the lead. */
export const LEAD_RETRY_MS = 2000;

/** Holds `pg_try_advisory_lock(key)` on a dedicated connection, trying again until closed. */
async function leadPg(
  connectionString: string,
  key: number,
  onState: (leading: boolean) => void,
): Promise<() => Promise<void>> {
  let closed = false;
  let client: pg.Client | undefined;
  let stopBeating: () => void = noop; // the current connection's heartbeat
  let leading = false;
  let timer: NodeJS.Timeout | undefined;
  const set = (now: boolean) => {
    if (now !== leading) {
      leading = now;
      onState(now);
    }
  };
  const later = () => {
    if (closed) return;
    clearTimeout(timer); // one attempt pending at a time
    timer = setTimeout(() => void attempt(), LEAD_RETRY_MS);
    timer.unref();
  };
  async function attempt(): Promise<void> {
    try {
      if (!client) {
        const fresh = new pg.Client(dedicatedConfig(connectionString, LEADER_NAME));
        const lost = () => {
          if (client !== fresh) return;
          client = undefined;
          stopBeating();
          set(false); // first: the work stops before the lock can pass to another process
          void endQuietly(fresh);
          later(); // the lock went with the connection: try again for it
        };
        fresh.on('error', lost);
        fresh.on('end', lost);
        try {
          await connectDedicated(fresh);
        } catch (err) {
          void endQuietly(fresh);
          throw err;
        }
        if (closed) {
          await endQuietly(fresh); // closed while connecting: nobody else would end it
          return;
        }
        client = fresh;
        stopBeating = heartbeat(fresh, lost);
      }
      const { rows } = await briefly<{ ok: boolean }>(
        client,
        'SELECT pg_try_advisory_lock($1) AS ok',
        [key],
      );
      if (closed) return; // close() ended this connection, and the lock with it
      if (rows[0]?.ok) {
        set(true);
        return; // held until the connection ends
      }
    } catch {
      // No database now, or no answer in time: that connection is given up (a lock the server
      // granted unanswered goes with it), and another tried later.
      void endQuietly(client);
    }
    later();
  }
  await attempt();
  return async () => {
    closed = true;
    clearTimeout(timer);
    stopBeating();
    const held = client;
    client = undefined;
    leading = false; // stepping down on close: the caller stops its own work
    await endQuietly(held);
  };
}

export interface DatabaseOptions {
  /** postgres://... ; unset opens the embedded database in `dataDir`. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; null keeps it in memory (tests). */
  dataDir: string | null;
  poolSize?: number;
  /** Told about idle-connection errors (e.g. PostgreSQL restarting) instead of crashing. */
  onPoolError?: (err: Error) => void;
  /**
   * Which embedded database a data folder gets without DATABASE_URL (EMBEDDED_DATABASE):
   * `auto` (default) is PostgreSQL, except for a folder already holding PGlite's files or a
   * platform without the binaries.
   */
  embedded?: 'auto' | 'postgres' | 'pglite';
  /** The embedded PostgreSQL's log lines. */
  onEmbeddedLog?: (line: string) => void;
  /** The embedded PostgreSQL stopped on its own and is being started again. */
  onEmbeddedRestart?: (reason: string) => void;
  /** Why the embedded database is PGlite although PostgreSQL was the choice. */
  onNote?: (message: string) => void;
  /** The embedded PostgreSQL's WAL archive and scheduled base backups (BACKUP_DIR). */
  backup?: BackupConfig | null;
  /** A base backup was taken (and older ones pruned). */
  onBackup?: (backup: BaseBackup, pruned: { backups: string[]; segments: number }) => void;
  /** A base backup failed, or WAL archiving is failing. */
  onBackupError?: (message: string, err?: unknown) => void;
}

// Resolved beside this module: src/db/migrations in development, dist/migrations in the bundle.
const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

// Any fixed number works; it only has to be the same in every Candor process.
const MIGRATION_LOCK_KEY = 725_311_902;

/** A PostgreSQL server at `databaseUrl`: the configured one, or the embedded one. */
function openPostgres(databaseUrl: string, opts: DatabaseOptions, location: string): Database {
  const pool = new GuardedPool(poolConfig(databaseUrl, opts.poolSize ?? 10));
  pool.on('error', (err) => opts.onPoolError?.(err));
  // The pool listens for errors only on its idle connections. A connection lost while checked
  // out (a transaction's, when PostgreSQL stops) emits 'error' on its client, which with no
  // listener would end this process. Its statement in flight fails on its own, the next one
  // finds it not queryable, and the pool drops it on release: nothing is left to do here.
  pool.on('connect', (client) => client.on('error', noop));
  const db = drizzlePg({ client: pool, schema });
  // Unbounded connections in use: ended by close(), or by their own caller's signal.
  const own = new Set<pg.Client>();
  async function ownConnection<T>(
    work: (client: pg.Client) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    signal?.throwIfAborted();
    const client = new pg.Client(unboundedConfig(databaseUrl));
    client.on('error', noop); // its statement in flight fails with it
    // Ending a connection with a statement in flight destroys its socket: the statement fails.
    const abort = () => void endQuietly(client);
    signal?.addEventListener('abort', abort, { once: true });
    own.add(client);
    try {
      await client.connect();
      await client.query(UNBOUNDED_SETUP);
      return await work(client);
    } finally {
      signal?.removeEventListener('abort', abort);
      own.delete(client);
      await endQuietly(client);
    }
  }
  return {
    db,
    engine: 'postgres',
    location,
    // Several API processes starting together migrate once: the first holds an advisory lock
    // (released with its connection), the others wait for it, then find nothing left to do.
    migrate: () =>
      ownConnection(async (client) => {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      }),
    unbounded: (work, signal) =>
      ownConnection((client) => work(drizzlePg({ client, schema })), signal),
    listen: (channel, handlers) => listenPg(databaseUrl, channel, handlers),
    lead: (key, onState) => leadPg(databaseUrl, key, onState),
    async close() {
      await Promise.all([within(CLOSE_WAIT_MS, pool.end()), ...[...own].map(endQuietly)]);
    },
  };
}

/**
 * Opens the configured database. Without DATABASE_URL it is the embedded one in the data
 * folder (locked to this process): its own PostgreSQL server (decision 013), or PGlite when
 * asked for, when the folder already holds a PGlite database, or when this platform cannot
 * run the embedded server (`onNote` is told why). With no folder at all, PGlite in memory.
 */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const url = new URL(opts.databaseUrl);
    return openPostgres(opts.databaseUrl, opts, `postgresql://${url.host}${url.pathname}`);
  }
  const embedded = opts.embedded ?? 'auto';
  if (
    opts.dataDir &&
    embedded !== 'pglite' &&
    !(embedded === 'auto' && hasPgliteData(opts.dataDir))
  ) {
    const lock = acquireDataDirLock(opts.dataDir);
    let server: EmbeddedPostgres | undefined;
    try {
      const backup = opts.backup;
      server = await startEmbeddedPostgres({
        dataDir: opts.dataDir,
        onLog: opts.onEmbeddedLog,
        onRestart: opts.onEmbeddedRestart,
        archive: backup
          ? { dir: walDir(backup.dir), timeoutSeconds: backup.archiveTimeoutSeconds }
          : undefined,
      });
      const database = openPostgres(server.url, opts, `embedded PostgreSQL in ${server.dir}`);
      const running = server;
      const schedule = backup
        ? scheduleBackups({
            url: server.url,
            pgDir: server.dir,
            dataDir: opts.dataDir,
            backup,
            onBackup: (b, pruned) => opts.onBackup?.(b, pruned),
            onError: (message, err) => opts.onBackupError?.(message, err),
          })
        : undefined;
      return {
        ...database,
        owned: true,
        async close() {
          schedule?.stop();
          try {
            await database.close();
          } finally {
            try {
              await running.stop();
            } finally {
              lock.release();
            }
          }
        },
      };
    } catch (err) {
      lock.release();
      if (!(err instanceof EmbeddedPostgresUnavailable) || embedded === 'postgres') throw err;
      opts.onNote?.(`embedded PostgreSQL unavailable (${err.message}): using PGlite instead`);
    }
  }

  if (opts.backup)
    opts.onBackupError?.('BACKUP_DIR is not used: PGlite has no WAL archiving or backups');
  const pgDataDir = opts.dataDir ? path.join(opts.dataDir, 'pgdata') : undefined;
  const lock = opts.dataDir ? acquireDataDirLock(opts.dataDir) : undefined;
  let client: PGlite;
  try {
    client = await PGlite.create(pgDataDir ? { dataDir: pgDataDir } : {});
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = drizzlePglite({ client, schema });
  return {
    db,
    engine: 'pglite',
    location: pgDataDir ?? 'memory',
    migrate: () => migratePglite(db, { migrationsFolder }),
    unbounded: (work, signal) => {
      signal?.throwIfAborted();
      return work(db);
    },
    async listen(channel, handlers) {
      const stop = await client.listen(channel, handlers.onMessage);
      handlers.onState?.(true);
      return stop;
    },
    // One process owns the embedded database (the data-folder lock): it always leads.
    async lead(_key, onState) {
      onState(true);
      return async () => {
        // Nothing to step down from: the only process leads until it closes.
      };
    },
    async close() {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/** Cheap liveness query, used by the health endpoint. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
