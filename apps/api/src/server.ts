// The only file that listens: config -> database -> app -> listen, and a graceful shutdown.
// In cluster mode (WEB_CONCURRENCY above 1, PostgreSQL only) the primary process migrates and
// seeds once, then runs that many workers, each the whole API, sharing the port, and starts
// again any that dies; one of them leads the background work (app.ts).
import cluster from 'node:cluster';
import type net from 'node:net';
import path from 'node:path';
import { pino } from 'pino';
import { logDestination } from './lib/log-destination.js';
import { buildApp, logOptions } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { type Database, openDatabase, pingDatabase } from './db/client.js';
import { BackupDirUnusable } from './db/embedded-postgres.js';
import { DataDirLockedError } from './db/lock.js';
import { DatabaseStartupError, waitForDatabase } from './db/startup-wait.js';
import { seedSampleAnswers } from './db/seed/sample-answers.js';
import { isDatabaseEmpty, seedSampleContent } from './db/seed/seed.js';
import { spreadConnections, takeConnections } from './lib/cluster-connections.js';
import { resolveSecrets } from './lib/secrets.js';
import { identitiesFor } from './modules/auth/identity.js';
import { deriveProfileKey, derivePseudonymKey } from './lib/keys.js';
import { severOldRespondents } from './modules/respondents/sever.js';
import { ensureDemoAdmin } from './modules/auth/admin-account.js';

const inUse = (port: number) =>
  `Port ${port} is already in use. Stop what uses it, or start Candor with PORT=<another port>.`;

function fail(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
})();

const log = pino({ level: config.logLevel, ...logOptions }, logDestination());
const primaryOfCluster = cluster.isPrimary && config.webConcurrency > 1;

let database: Database;
try {
  database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    embedded: config.embeddedDatabase,
    onPoolError: (err) => log.warn({ err }, 'database connection lost'),
    onEmbeddedLog: (line) => log.debug({ postgres: line }, 'embedded PostgreSQL'),
    onEmbeddedRestart: (reason) => log.error({ reason }, 'embedded PostgreSQL restarting'),
    onNote: (message) => log.warn(message),
    backup: config.backup,
    onBackup: (backup, pruned) =>
      log.info(
        {
          backup: backup.path,
          seconds: (Date.parse(backup.finishedAt) - Date.parse(backup.startedAt)) / 1000,
          megabytes: Math.round(backup.bytes / 1_048_576),
          removedBackups: pruned.backups.length,
          removedSegments: pruned.segments,
        },
        'base backup taken',
      ),
    onBackupError: (message, err) => log.error({ err }, message),
  });
  if (database.owned && database.engine === 'postgres') {
    if (config.backup)
      log.info(
        { backupDir: config.backup.dir },
        `backups: write-ahead log archived continuously, a base backup every ` +
          `${config.backup.intervalHours} h, the last ${config.backup.keep} kept`,
      );
    else
      log.info('no backups of the embedded database: set BACKUP_DIR to a folder on another disk');
  }
} catch (err) {
  if (err instanceof DataDirLockedError || err instanceof BackupDirUnusable) fail(err.message);
  throw err;
}

// Filled once the app is built; a signal during migration closes only the database.
const running: { app?: Awaited<ReturnType<typeof buildApp>>; spreader?: net.Server } = {};
let closing = false;
const SHUTDOWN_DEADLINE_MS = 25_000;
async function shutdown(signal: string) {
  if (closing) {
    // A worker may hear Ctrl+C from the terminal and its primary's SIGTERM: one shutdown.
    if (cluster.isWorker) return;
    log.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  }
  closing = true;
  log.info({ signal }, 'shutting down');
  // Requests in flight finish and the database closes, within bounds (db/connections.ts); a
  // shutdown that still has not finished by the deadline (a hung dependency) exits anyway. The
  // primary of a cluster waits a little longer than its workers' own deadlines.
  const deadline = SHUTDOWN_DEADLINE_MS + (primaryOfCluster ? 5_000 : 0);
  setTimeout(() => {
    log.error({ signal, deadline }, 'shutdown did not finish in time: exiting now');
    process.exit(1);
  }, deadline).unref();
  try {
    await running.app?.close();
    running.spreader?.close(); // no new connections; the workers finish theirs
    if (primaryOfCluster) await stopWorkers(signal);
  } finally {
    // The primary of a cluster closed its database once it had prepared it.
    if (!primaryOfCluster) await database.close();
  }
  process.exit(0);
}

/** Asks every worker to shut down as this process was asked, and waits for them. */
async function stopWorkers(signal: string): Promise<void> {
  const all = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
  await Promise.all(
    all.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.isDead()) {
            resolve();
            return;
          }
          w.once('exit', () => resolve());
          w.process.kill(signal as NodeJS.Signals);
        }),
    ),
  );
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// A worker whose primary died (killed, crashed) shuts down too: nothing would restart it, and
// the primary that replaces it starts workers of its own.
if (cluster.isWorker) process.on('disconnect', () => void shutdown('primary gone'));

const started = Date.now();
// A worker reads the secrets its primary resolved (and wrote, for the embedded default) first.
const secrets = resolveSecrets(config.secrets, config.dataDir);
// Accounts' sealed numbers and names, for the start's own work (the app makes its own the same way).
const identities = identitiesFor(config, database.db, secrets);
// Workers of a cluster find the database migrated and seeded by their primary.
if (!cluster.isWorker) await prepare();

async function prepare(): Promise<void> {
  if (config.databaseUrl) await reachDatabase();
  await database.migrate();
  // Crypto-shredding (issue 28): numbers and names an older build stored in the clear are sealed
  // under keys of their own, once; keys whose account is gone (an erasure that stopped between
  // its two steps) are destroyed.
  const sealed = await identities.sealLegacy(database.db);
  const swept = await identities.sweep(database.db);
  if (sealed) {
    log.warn({ sealed }, "numbers and names are now sealed under each account's own key");
    if (database.owned === true) {
      // The embedded server is Candor's: the clear rows leave its files and log at once.
      await database.unbounded(async (db) => {
        await db.execute('vacuum full users');
        await db.execute('select pg_switch_wal()');
        await db.execute('checkpoint');
      });
    }
  }
  if (swept) log.warn({ swept }, 'identity keys of erased accounts destroyed');
  // Prunes the dead row versions a migration left in the accounts table (0015 took gender and
  // year of birth out of every row): plain VACUUM, which blocks no reads or writes and costs
  // milliseconds on a table without dead rows.
  await database.unbounded((db) => db.execute('vacuum users'));
  // Once: the respondents of the old way of answering are severed from their accounts.
  const severed = await severOldRespondents(
    database,
    { pseudonymKey: derivePseudonymKey(secrets), profileKey: deriveProfileKey(secrets) },
    { scrub: database.owned === true },
  );
  if (severed) {
    log.warn(
      severed,
      'answers given before credentials are now severed from their accounts: backups made ' +
        'before this start still join them until deleted (docs/privacy.md)',
    );
  }
  if (config.seedSampleContent && (await isDatabaseEmpty(database.db))) {
    const { surveysAdded } = await seedSampleContent(database.db);
    log.info({ surveysAdded }, 'new database: sample content loaded');
  }
  if (config.seedSampleAnswers) {
    const { respondentsAdded } = await seedSampleAnswers(database.db, {
      profileKey: deriveProfileKey(secrets),
    });
    if (respondentsAdded)
      log.warn({ respondentsAdded }, 'made-up sample answers loaded (SEED_SAMPLE_ANSWERS)');
  }
  if (config.demoAdmin) {
    const demo = await ensureDemoAdmin(database.db, identities);
    console.log(
      demo.password
        ? `\n  Demo admin created: ${demo.phone} / ${demo.password}  (shown once; DEMO_ADMIN=true)`
        : `\n  Demo admin ${demo.phone} exists (its password was shown when it was created; ` +
            `reset it with npm run create-admin -- --phone ${demo.phone}).`,
    );
  }
}

/**
 * Waits for a PostgreSQL that does not answer yet (started after Candor, restarting), one line
 * per try; exits 1 with a plain message when it refuses for good or stays away too long.
 */
async function reachDatabase(): Promise<void> {
  const where = `PostgreSQL at ${database.location}`;
  try {
    const tries = await waitForDatabase(() => pingDatabase(database.db), {
      location: database.location,
      timeoutMs: config.databaseStartupTimeoutMs,
      onRetry: ({ attempt, reason, retryInMs }) =>
        log.warn(
          { attempt, retryInMs },
          `${where} is not reachable (${reason}); trying again in ${(retryInMs / 1000).toFixed(1)} s`,
        ),
    });
    if (tries > 1) log.info({ tries }, `${where} is reachable`);
  } catch (err) {
    // Stopped while waiting: shutdown() closed the pool and ends the process.
    if (closing) await new Promise(() => undefined);
    if (!(err instanceof DatabaseStartupError)) throw err;
    await database.close();
    fail(err.message);
  }
}

if (primaryOfCluster) {
  // The primary answers no request itself: it keeps `webConcurrency` workers running.
  await database.close();
  // It accepts the connections and passes each to the worker holding the fewest
  // (lib/cluster-connections.ts); it listens once every worker has said it is ready.
  spreadConnections(config.port, config.host, config.webConcurrency, config.http, (err) =>
    log.error({ err }, 'accepting a connection failed'),
  ).then(
    (server) => {
      running.spreader = server;
      console.log(
        `\n  Candor is running at ${config.publicUrl ?? `http://localhost:${config.port}`}  ` +
          `(${config.webConcurrency} processes, ready in ${Date.now() - started} ms)\n`,
      );
    },
    (err: unknown) => {
      const { code, message } = err as NodeJS.ErrnoException;
      closing = true;
      void stopWorkers('SIGTERM').finally(() =>
        fail(code === 'EADDRINUSE' ? inUse(config.port) : `Could not listen: ${message}`),
      );
    },
  );
  // A fork that fails (EMFILE, EAGAIN under a process limit: 'error' on its worker and no
  // 'exit'; ENOMEM: thrown) is tried again later, never the end of the primary and its workers.
  const forkOne = (): void => {
    if (closing) return;
    let worker: ReturnType<typeof cluster.fork>;
    try {
      worker = cluster.fork();
    } catch (err) {
      log.error({ err }, 'starting an API process failed; trying again');
      setTimeout(forkOne, 1000).unref();
      return;
    }
    worker.on('error', (err: Error) => {
      log.error({ err }, 'an API process failed');
      if (worker.process.pid === undefined) setTimeout(forkOne, 1000).unref();
    });
  };
  for (let i = 0; i < config.webConcurrency; i++) forkOne();
  cluster.on('exit', (worker, code, signal) => {
    if (closing) return;
    log.warn({ pid: worker.process.pid, code, signal }, 'an API process ended; starting another');
    setTimeout(forkOne, 1000).unref();
  });
} else {
  await serve();
}

async function serve(): Promise<void> {
  const app = await buildApp({ config, database, secrets, logger: log });
  running.app = app;

  if (cluster.isWorker) {
    // Listening privately (so Node times out slow requests), serving what the primary passes.
    await app.listen({ port: 0, host: '127.0.0.1', exclusive: true });
    takeConnections(app.server);
    return;
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await database.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') fail(inUse(config.port));
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shown = config.publicUrl ?? `http://localhost:${port}`;
  console.log(
    [
      '',
      `  Candor is running at ${shown}  (ready in ${Date.now() - started} ms)`,
      `  Database:  ${database.engine === 'pglite' ? `embedded PGlite in ${database.location}` : database.location}`,
      `  Text messages (SMS): ${
        config.sms.provider === 'file'
          ? `written to ${path.join(config.dataDir, 'sms-outbox.jsonl')}`
          : config.sms.provider
      }`,
      `  API docs:  ${shown}/api/docs`,
      '',
    ].join('\n'),
  );
}
