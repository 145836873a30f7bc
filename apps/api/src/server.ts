// The only file that listens: config -> database -> app -> listen, and a graceful shutdown.
import path from 'node:path';
import { pino } from 'pino';
import { buildApp, logOptions } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { DataDirLockedError } from './db/lock.js';
import { seedSampleAnswers } from './db/seed/sample-answers.js';
import { isDatabaseEmpty, seedSampleContent } from './db/seed/seed.js';
import { resolveSecrets } from './lib/secrets.js';
import { deriveProfileKey } from './lib/keys.js';
import { ensureDemoAdmin } from './modules/accounts/admin-account.js';

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

const log = pino({ level: config.logLevel, ...logOptions });

let database: Database;
try {
  database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    onPoolError: (err) => log.warn({ err }, 'database connection lost'),
  });
} catch (err) {
  if (err instanceof DataDirLockedError) fail(err.message);
  throw err;
}

// Filled once the app is built; a signal during migration closes only the database.
const running: { app?: Awaited<ReturnType<typeof buildApp>> } = {};
let closing = false;
async function shutdown(signal: string) {
  if (closing) {
    log.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  }
  closing = true;
  log.info({ signal }, 'shutting down');
  try {
    await running.app?.close();
  } finally {
    await database.close();
  }
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

const started = Date.now();
await database.migrate();
if (config.seedSampleContent && (await isDatabaseEmpty(database.db))) {
  const { surveysAdded } = await seedSampleContent(database.db);
  log.info({ surveysAdded }, 'new database: sample content loaded');
}
const secrets = resolveSecrets(config.secrets, config.dataDir);
if (config.seedSampleAnswers) {
  const { respondentsAdded } = await seedSampleAnswers(database.db, {
    profileKey: deriveProfileKey(secrets),
  });
  if (respondentsAdded)
    log.warn({ respondentsAdded }, 'made-up sample answers loaded (SEED_SAMPLE_ANSWERS)');
}
if (config.demoAdmin) {
  const demo = await ensureDemoAdmin(database.db);
  console.log(
    demo.password
      ? `\n  Demo admin created: ${demo.phone} / ${demo.password}  (shown once; DEMO_ADMIN=true)`
      : `\n  Demo admin ${demo.phone} exists (its password was shown when it was created; ` +
          `reset it with npm run create-admin -- --phone ${demo.phone}).`,
  );
}

const app = await buildApp({ config, database, secrets, logger: log });
running.app = app;

try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  await database.close();
  if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    fail(
      `Port ${config.port} is already in use. Stop what uses it, or start Candor with PORT=<another port>.`,
    );
  }
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
