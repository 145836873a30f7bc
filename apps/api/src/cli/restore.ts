// `npm run restore -- --to 2026-11-27T03:14:15Z`: the embedded database as of that second, from
// BACKUP_DIR (decision 025). Run with the server stopped and the same DATA_DIR and BACKUP_DIR.
// The data folder that was in place is moved aside, never deleted.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { listBackups, parseRestoreTarget, RestoreError, restoreTo } from '../db/backups.js';
import { BackupDirUnusable, EmbeddedPostgresUnavailable } from '../db/embedded-postgres.js';
import { acquireDataDirLock, DataDirLockedError } from '../db/lock.js';

const USAGE =
  'Usage: npm run restore -- --to <time>\n' +
  '  <time>: ISO 8601 with a time zone, e.g. 2026-11-27T03:14:15Z or 2026-11-27T04:14:15+01:00\n' +
  'Restores the embedded database (DATA_DIR) from BACKUP_DIR as it was at that second.\n' +
  'Stop the server first; start it again afterwards.';

function fail(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({ options: { to: { type: 'string' }, help: { type: 'boolean' } } }).values;
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!args.to) fail(`--to is required.\n${USAGE}`);
let target: Date;
try {
  target = parseRestoreTarget(args.to);
} catch (err) {
  if (err instanceof RestoreError) fail(`--to: ${err.message}\n${USAGE}`);
  throw err;
}

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(err.message);
  throw err;
}
if (config.databaseUrl) {
  fail(
    "DATABASE_URL is set: restore is for the embedded database. Use your PostgreSQL's own " +
      'point-in-time recovery (README, Backups on PostgreSQL).',
  );
}
if (!config.backup) {
  fail(
    'BACKUP_DIR is not set: set it to the folder the server archived into (the server takes ' +
      'backups only when it is set).',
  );
}
const backupDir = config.backup.dir;
if (!listBackups(backupDir).length) fail(`No base backups in ${backupDir}: nothing to restore.`);

let lock;
try {
  lock = acquireDataDirLock(config.dataDir);
} catch (err) {
  if (err instanceof DataDirLockedError) fail(`${err.message}\nStop the server first.`);
  throw err;
}
try {
  const result = await restoreTo({
    dataDir: config.dataDir,
    backupDir,
    target,
    onLog: (line) => console.log(`  ${line}`),
  });
  console.log(
    `\nRestored the database as of ${target.toISOString()} in ${result.seconds.toFixed(1)} s, ` +
      `from the base backup of ${result.backup.finishedAt} and the log after it` +
      (result.lastCommit ? ` (last transaction kept: ${result.lastCommit}).` : '.'),
  );
  if (result.previous) {
    console.log(
      `The data folder that was in place is kept at ${result.previous}: delete it once the ` +
        'restored data is confirmed (it holds everything written after that time, and accounts ' +
        'erased since then).',
    );
  }
  console.log(
    'Accounts erased after that time are back in the restored database: erase them again.\n' +
      'Start the server (npm run serve) to use it.\n',
  );
} catch (err) {
  if (
    err instanceof RestoreError ||
    err instanceof EmbeddedPostgresUnavailable ||
    err instanceof BackupDirUnusable
  )
    fail(err.message);
  fail(`The restore failed: ${(err as Error).message}\nNothing was changed.`);
} finally {
  lock.release();
}
