// Backups of the embedded PostgreSQL that restore to any second (issue 34, decision 025): its
// write-ahead log is archived continuously into BACKUP_DIR/wal by PostgreSQL itself
// (basic_archive, embedded-postgres.ts), and online base backups are taken on a schedule into
// BACKUP_DIR/base with the low-level API (pg_backup_start, a copy of the files, pg_backup_stop):
// the binaries packages ship no pg_basebackup. The newest BACKUP_KEEP base backups are kept, with
// the archived log from the oldest of them on. `restoreTo` (npm run restore) replays a base
// backup and the log up to a given time into a new data folder and puts it in place.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { BackupConfig } from '../config.js';
import { freePort } from '../lib/free-port.js';
import {
  binaries,
  password,
  prepareArchiveDir,
  type RunAs,
  runAs,
  serverArgs,
  postmasterOn,
  stopOrphan,
  USER,
} from './embedded-postgres.js';

/** What `base/<name>/backup.json` says of a finished base backup. */
export interface BaseBackup {
  name: string;
  /** Its folder. */
  path: string;
  /** When pg_backup_start was called. */
  startedAt: string;
  /** When pg_backup_stop returned: the backup restores to any time from this one on. */
  finishedAt: string;
  /** The first segment of the log it needs. */
  startWal: string;
  /** The segment holding its end, archived before the backup counted as taken. */
  stopWal: string;
  bytes: number;
}

export const walDir = (backupDir: string) => path.join(backupDir, 'wal');
const baseDir = (backupDir: string) => path.join(backupDir, 'base');

/** Files of DATA_DIR that a restore needs beside the database (copied 0600 into each backup). */
const SIDE_FILES = ['postgres-password', 'secrets.json'];

/**
 * What a base backup leaves out (PostgreSQL's documentation, "Making a base backup using the
 * low level API"): the running server's own files and folders whose contents it rebuilds.
 */
const SKIP_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  'recovery.signal',
  'standby.signal',
  'postgresql.auto.conf.tmp',
]);
const EMPTY_DIRS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);

/** A file that ended or appeared while being read is the log's business, not the copy's. */
const vanished = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

async function fsyncPath(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r');
  try {
    await handle.sync();
  } catch (err) {
    // Windows cannot fsync a directory; a file's fsync failing is a real failure.
    if (!(await handle.stat()).isDirectory()) throw err;
  } finally {
    await handle.close();
  }
}

/** Copies the data folder `from` into `to` as a base backup needs it; returns the bytes. */
async function copyDataDir(from: string, to: string, top = true): Promise<number> {
  await fs.promises.mkdir(to, { recursive: true, mode: 0o700 });
  let bytes = 0;
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(from, { withFileTypes: true });
  } catch (err) {
    if (vanished(err)) return 0;
    throw err;
  }
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.name.startsWith('pgsql_tmp')) continue;
    if (entry.isDirectory()) {
      if (top && EMPTY_DIRS.has(entry.name)) {
        await fs.promises.mkdir(target, { mode: 0o700 });
        if (entry.name === 'pg_wal')
          await fs.promises.mkdir(path.join(target, 'archive_status'), { mode: 0o700 });
        continue;
      }
      bytes += await copyDataDir(source, target, false);
    } else if (entry.isFile()) {
      if (top && SKIP_FILES.has(entry.name)) continue;
      try {
        await fs.promises.copyFile(source, target);
        await fsyncPath(target);
        bytes += (await fs.promises.stat(target)).size;
      } catch (err) {
        if (!vanished(err)) throw err; // a dropped table's file: its removal is in the log
      }
    }
  }
  await fsyncPath(to);
  return bytes;
}

/** The base backups that finished, oldest first. */
export function listBackups(backupDir: string): BaseBackup[] {
  let names: string[];
  try {
    names = fs.readdirSync(baseDir(backupDir));
  } catch {
    return [];
  }
  const found: BaseBackup[] = [];
  for (const name of names) {
    if (name.endsWith('.partial')) continue;
    try {
      const info = JSON.parse(
        fs.readFileSync(path.join(baseDir(backupDir), name, 'backup.json'), 'utf8'),
      ) as Omit<BaseBackup, 'name' | 'path'>;
      found.push({ ...info, name, path: path.join(baseDir(backupDir), name) });
    } catch {
      // not a backup of ours, or one whose description was lost: never chosen
    }
  }
  return found.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
}

/** A segment's place in the log, its timeline left out (pg_archivecleanup compares the same). */
const position = (segment: string) => segment.slice(8, 24);
const SEGMENT = /^[0-9A-F]{24}(\.[0-9A-F]{8}\.backup|\.partial)?$/;

/**
 * Keeps the newest `keep` base backups and the log from the oldest kept one's first segment on;
 * timeline histories (tiny, needed to follow a restore's new timeline) are kept. Unfinished
 * backups left by a crash go too. Returns what was removed.
 */
export function pruneBackups(
  backupDir: string,
  keep: number,
): { backups: string[]; segments: number } {
  const all = listBackups(backupDir);
  const gone = all.slice(0, Math.max(0, all.length - keep));
  for (const backup of gone) fs.rmSync(backup.path, { recursive: true, force: true });
  for (const name of fs.existsSync(baseDir(backupDir)) ? fs.readdirSync(baseDir(backupDir)) : [])
    if (name.endsWith('.partial'))
      fs.rmSync(path.join(baseDir(backupDir), name), { recursive: true, force: true });
  const oldest = all[all.length - Math.min(keep, all.length)];
  let segments = 0;
  if (oldest) {
    const from = position(oldest.startWal);
    for (const file of fs.existsSync(walDir(backupDir)) ? fs.readdirSync(walDir(backupDir)) : []) {
      if (!SEGMENT.test(file) || position(file) >= from) continue;
      fs.rmSync(path.join(walDir(backupDir), file), { force: true });
      segments++;
    }
  }
  return { backups: gone.map((b) => b.name), segments };
}

/** Resolves once `file` exists; false if it still does not after `ms`. */
async function appears(file: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/** How long a base backup waits for its last segment to reach the archive. */
const ARCHIVE_WAIT_MS = 120_000;

/**
 * An online base backup of the running embedded server (`pgDir`, reached at `url`) into
 * BACKUP_DIR/base/<time>: counted as taken (renamed from `.partial`) only once the log up to
 * its end is in the archive, so every finished backup restores.
 */
export async function takeBaseBackup(opts: {
  url: string;
  pgDir: string;
  dataDir: string;
  backupDir: string;
}): Promise<BaseBackup> {
  const client = new pg.Client({ connectionString: opts.url, application_name: 'candor backup' });
  client.on('error', () => undefined); // the statement in flight fails with it
  await client.connect();
  try {
    const startedAt = new Date();
    const name = startedAt.toISOString().replace(/[:.]/g, '-');
    const folder = path.join(baseDir(opts.backupDir), name);
    const partial = `${folder}.partial`;
    await fs.promises.mkdir(partial, { recursive: true, mode: 0o700 });
    // A fast checkpoint: the backup starts now rather than after a spread one (minutes).
    await client.query('SELECT pg_backup_start($1, true)', [`candor ${startedAt.toISOString()}`]);
    let bytes: number;
    try {
      bytes = await copyDataDir(opts.pgDir, path.join(partial, 'data'));
    } catch (err) {
      await client.query('SELECT pg_backup_stop(false)').catch(() => undefined);
      throw err;
    }
    // Without waiting on the server: a failing archive would hold it forever. Waited below.
    const { rows } = await client.query<{ labelfile: string; wal: string }>(
      'SELECT labelfile, pg_walfile_name(lsn) AS wal FROM pg_backup_stop(false)',
    );
    const finishedAt = new Date();
    const { labelfile, wal: stopWal } = rows[0]!;
    const startWal = /START WAL LOCATION: .*\(file ([0-9A-F]{24})\)/.exec(labelfile)?.[1];
    if (!startWal) throw new Error('pg_backup_stop gave no start segment');
    await fs.promises.writeFile(path.join(partial, 'data', 'backup_label'), labelfile);
    for (const file of SIDE_FILES) {
      const source = path.join(opts.dataDir, file);
      if (fs.existsSync(source))
        await fs.promises
          .copyFile(source, path.join(partial, file))
          .then(() => fs.promises.chmod(path.join(partial, file), 0o600));
    }
    if (!(await appears(path.join(walDir(opts.backupDir), stopWal), ARCHIVE_WAIT_MS))) {
      throw new Error(
        `the log segment ${stopWal} did not reach ${walDir(opts.backupDir)} within ` +
          `${ARCHIVE_WAIT_MS / 1000} s (is WAL archiving failing? see pg_stat_archiver)`,
      );
    }
    const info = {
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      startWal,
      stopWal,
      bytes,
    };
    await fs.promises.writeFile(path.join(partial, 'backup.json'), JSON.stringify(info, null, 2));
    await fsyncPath(path.join(partial, 'backup.json'));
    await fs.promises.rename(partial, folder);
    await fsyncPath(baseDir(opts.backupDir));
    return { ...info, name, path: folder };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface BackupSchedule {
  /** Stops the timers; a backup under way fails with the server's shutdown and is discarded. */
  stop(): void;
}

/** Longest a timer may wait (setTimeout's limit); a later due time is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const RETRY_MS = 15 * 60_000;
const ARCHIVER_CHECK_MS = 60_000;

/**
 * Takes a base backup when the newest is older than the interval (at once on a first start),
 * then every interval, pruning after each; and says when the archiver fails.
 */
export function scheduleBackups(opts: {
  url: string;
  pgDir: string;
  dataDir: string;
  backup: BackupConfig;
  onBackup: (backup: BaseBackup, pruned: { backups: string[]; segments: number }) => void;
  onError: (message: string, err?: unknown) => void;
}): BackupSchedule {
  const intervalMs = opts.backup.intervalHours * 3_600_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const later = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void tick(), Math.min(Math.max(0, ms), MAX_TIMER_MS));
    timer.unref();
  };
  const due = () => {
    const newest = listBackups(opts.backup.dir).at(-1);
    return newest ? Date.parse(newest.finishedAt) + intervalMs - Date.now() : 0;
  };
  const tick = async () => {
    const wait = due();
    if (wait > 0) {
      later(wait);
      return;
    }
    try {
      const backup = await takeBaseBackup({
        url: opts.url,
        pgDir: opts.pgDir,
        dataDir: opts.dataDir,
        backupDir: opts.backup.dir,
      });
      if (stopped) return;
      opts.onBackup(backup, pruneBackups(opts.backup.dir, opts.backup.keep));
      later(intervalMs);
    } catch (err) {
      if (stopped) return; // the server is stopping under it: the next start takes it again
      opts.onError(`base backup failed; trying again in ${RETRY_MS / 60_000} minutes`, err);
      later(Math.min(RETRY_MS, intervalMs));
    }
  };
  later(0);

  // A failing archiver keeps every segment in pg_wal (the data disk fills) and the archive
  // stops short: said at once, and again for each new segment that fails.
  let reported: string | undefined;
  const watch = setInterval(() => {
    void (async () => {
      const client = new pg.Client({
        connectionString: opts.url,
        application_name: 'candor backup',
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        const { rows } = await client.query<{ failing: boolean; wal: string | null }>(
          `SELECT last_failed_time > coalesce(last_archived_time, '-infinity') AS failing,
                  last_failed_wal AS wal FROM pg_stat_archiver`,
        );
        const row = rows[0];
        if (row?.failing && row.wal !== reported && !stopped) {
          reported = row.wal ?? undefined;
          opts.onError(
            `WAL archiving into ${walDir(opts.backup.dir)} is failing (segment ${row.wal}): ` +
              'the log piles up in the data folder until it works again; see the PostgreSQL log',
          );
        }
      } catch {
        // the database is away: its own supervision says so
      } finally {
        await client.end().catch(() => undefined);
      }
    })();
  }, ARCHIVER_CHECK_MS);
  watch.unref();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(watch);
    },
  };
}

/** A restore that cannot be done as asked; the message says why and what to do. */
export class RestoreError extends Error {
  override name = 'RestoreError';
}

// A date, a time to the second (a fraction allowed) and a zone: a time without a zone would
// mean different seconds on different machines.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/i;

/** The time `npm run restore -- --to <time>` names; a RestoreError says what is wrong with it. */
export function parseRestoreTarget(text: string, now = new Date()): Date {
  const target = new Date(text.trim().replace(' ', 'T'));
  if (!ISO_TIME.test(text.trim()) || Number.isNaN(target.getTime())) {
    throw new RestoreError(
      `"${text}" is not an ISO 8601 time with a zone (2026-11-27T03:14:15Z, ` +
        '2026-11-27T04:14:15+01:00).',
    );
  }
  if (target > now)
    throw new RestoreError(
      `${target.toISOString()} is in the future (it is now ${now.toISOString()}).`,
    );
  return target;
}

/** A path inside restore_command, which PostgreSQL runs through the shell. */
function shellPath(file: string): string {
  const forPostgres = file.replaceAll('%', '%%'); // PostgreSQL's own placeholders
  if (process.platform === 'win32') {
    if (forPostgres.includes('"')) throw new RestoreError(`cannot use the path ${file}`);
    return `"${forPostgres}"`;
  }
  return `'${forPostgres.replaceAll("'", `'\\''`)}'`;
}

function restoreCommand(archive: string): string {
  return process.platform === 'win32'
    ? `copy /Y ${shellPath(path.join(archive, '%f')).replace('%%f', '%f')} "%p" >NUL`
    : `cp ${shellPath(archive)}/%f "%p"`;
}

/** Gives `dir` and all below it to `user` (PostgreSQL's user, when Candor runs as root). */
function chownTree(dir: string, user: RunAs): void {
  fs.chownSync(dir, user.uid, user.gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full, user);
    else fs.chownSync(full, user.uid, user.gid);
  }
}

/** The segments and timeline histories of a data folder's own log (`pg_wal`). */
function ownLog(pgDir: string): string[] {
  try {
    return fs
      .readdirSync(path.join(pgDir, 'pg_wal'))
      .filter((f) => /^[0-9A-F]{24}$/.test(f) || /^[0-9A-F]{8}\.history$/.test(f));
  } catch {
    return [];
  }
}

export interface RestoreResult {
  backup: BaseBackup;
  /** Where the data folder that was in place went (never deleted); undefined if there was none. */
  previous: string | undefined;
  /** The log's last commit replayed (at or before the target). */
  lastCommit: string | null;
  seconds: number;
}

/** Recovery ran out of log before it saw a commit past the target. */
class LogEndedBeforeTarget extends Error {}

/**
 * Restores the embedded database of `dataDir` as of `target`: the newest base backup finished
 * before it, replayed with the archived log (and the unarchived end of the current folder's
 * own log, when that folder is still there) up to the target, promoted, and put in place of
 * DATA_DIR/postgres; the folder that was there is moved aside. The caller holds the data
 * folder's lock (no server runs on it).
 */
export async function restoreTo(opts: {
  dataDir: string;
  backupDir: string;
  target: Date;
  onLog?: (line: string) => void;
}): Promise<RestoreResult> {
  const started = Date.now();
  const log = (line: string) => opts.onLog?.(line);
  const backups = listBackups(opts.backupDir);
  const iso = opts.target.toISOString();
  const backup = backups.filter((b) => b.finishedAt <= iso).at(-1);
  if (!backup) {
    throw new RestoreError(
      backups.length
        ? `No base backup had finished by ${iso}: the oldest kept finished at ` +
            `${backups[0]!.finishedAt}. Choose a later time.`
        : `No base backups in ${baseDir(opts.backupDir)}.`,
    );
  }
  const bin = await binaries();
  const user = runAs(opts.dataDir);
  const pgDir = path.join(opts.dataDir, 'postgres');
  const restoring = path.join(opts.dataDir, 'postgres.restoring');
  // A server killed with SIGKILL leaves its PostgreSQL running on the folder: stopped first.
  if (fs.existsSync(pgDir)) {
    await stopOrphan(pgDir, log);
    const still = postmasterOn(pgDir);
    if (still !== undefined) {
      throw new RestoreError(
        `A PostgreSQL (pid ${still}) still runs on ${pgDir}: stop the server (and it) first. ` +
          'Nothing was changed.',
      );
    }
  }
  for (const file of SIDE_FILES) {
    const target = path.join(opts.dataDir, file);
    if (!fs.existsSync(target) && fs.existsSync(path.join(backup.path, file))) {
      fs.copyFileSync(path.join(backup.path, file), target);
      fs.chmodSync(target, 0o600);
      log(`${file} was missing: taken from the backup`);
    }
  }
  const archive = walDir(opts.backupDir);
  prepareArchiveDir(archive, user);
  const own = ownLog(pgDir);
  // The newest write to the current folder's own log: when it is past the target, that log
  // holds everything committed up to the target.
  const ownLogUntil = Math.max(
    0,
    ...own.map((f) => fs.statSync(path.join(pgDir, 'pg_wal', f)).mtimeMs),
  );

  /** The backup copied into `restoring`, with the current folder's log, set to recover. */
  const lay = () => {
    fs.rmSync(restoring, { recursive: true, force: true }); // an earlier attempt's, never used
    fs.cpSync(path.join(backup.path, 'data'), restoring, { recursive: true });
    fs.chmodSync(restoring, 0o700);
    // The end of the log not archived yet (the segment in use when the server stopped) is in
    // the old folder: recovery reads from there what the archive lacks.
    for (const file of own)
      fs.copyFileSync(path.join(pgDir, 'pg_wal', file), path.join(restoring, 'pg_wal', file));
    fs.writeFileSync(path.join(restoring, 'recovery.signal'), '');
    if (user) chownTree(restoring, user);
  };

  /** Replays the log into `restoring` up to `until` (null: all of it) and promotes. */
  const replay = async (until: string | null): Promise<string | null> => {
    const port = await freePort();
    const recovery = [`restore_command=${restoreCommand(archive)}`];
    if (until) {
      recovery.push(
        // PostgreSQL's own notation: its check of this setting refuses ISO 8601's T and Z.
        `recovery_target_time=${until.replace('T', ' ').replace('Z', '+00')}`,
        'recovery_target_inclusive=on',
        'recovery_target_action=promote',
      );
    }
    const args = [
      ...serverArgs(restoring, port, { dir: archive, timeoutSeconds: 0 }),
      ...recovery.flatMap((s) => ['-c', s]),
    ];
    const child = spawn(bin.postgres, args, {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let lines: string[] = [];
    let exited: string | undefined;
    let partialLine = '';
    child.stderr.on('data', (d: Buffer) => {
      const parts = (partialLine + d.toString()).split('\n');
      partialLine = parts.pop() ?? '';
      lines = [...lines, ...parts.filter((l) => !l.includes('system is starting up'))].slice(-40);
    });
    child.on('exit', (code, signal) => (exited = signal ?? `code ${code}`));
    child.on('error', (err) => (exited = err.message));
    const connection = {
      host: '127.0.0.1',
      port,
      user: USER,
      password: password(opts.dataDir),
      database: 'postgres',
    };
    try {
      for (;;) {
        if (exited !== undefined) {
          const said = lines.filter((l) => /FATAL|PANIC|ERROR/.test(l)).join('\n');
          if (said.includes('recovery ended before configured recovery target was reached'))
            throw new LogEndedBeforeTarget();
          if (said.includes('could not locate required checkpoint record')) {
            throw new RestoreError(
              `The archive in ${archive} lacks the log the base backup of ${backup.finishedAt} ` +
                `starts with (segment ${backup.startWal}). Nothing was changed.`,
            );
          }
          throw new RestoreError(
            `PostgreSQL stopped while replaying the log (${exited}):\n${said || lines.join('\n')}` +
              '\nNothing was changed.',
          );
        }
        const client = new pg.Client(connection);
        client.on('error', () => undefined);
        try {
          await client.connect();
          const { rows } = await client.query<{ recovering: boolean }>(
            'SELECT pg_is_in_recovery() AS recovering',
          );
          if (!rows[0]!.recovering) {
            // Promoted: a checkpoint makes the new timeline's start durable.
            await client.query('CHECKPOINT');
            const found = lines.map((l) =>
              /last completed transaction was at log time (.*)$/.exec(l),
            );
            return found.filter(Boolean).at(-1)?.[1] ?? null;
          }
        } catch {
          // starting, or still recovering before the backup's end: not accepting yet
        } finally {
          await client.end().catch(() => undefined);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await new Promise<void>((resolve) => {
        if (exited !== undefined) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGINT'); // fast shutdown
      });
    }
  };

  let lastCommit: string | null;
  try {
    log(`copying the base backup of ${backup.finishedAt} (${backup.name})`);
    lay();
    if (own.length) log(`with ${own.length} file(s) of the current folder's own log`);
    log(`replaying the log up to ${iso}`);
    try {
      lastCommit = await replay(iso);
    } catch (err) {
      if (!(err instanceof LogEndedBeforeTarget)) throw err;
      // PostgreSQL stops at the first commit past the target; with none in the log it cannot
      // tell a log that ends early from one where nothing was committed after the target.
      // The current folder's own log, written to after the target, tells: then every commit
      // in the log came before the target, and all of it is replayed.
      if (ownLogUntil < opts.target.getTime()) {
        throw new RestoreError(
          `The log kept does not reach ${iso}: the archive in ${archive}` +
            (own.length ? " and the current folder's own log end" : ' ends') +
            ' before it. Choose an earlier time. Nothing was changed.',
        );
      }
      log('nothing was committed after that time: replaying all of the log');
      lay();
      lastCommit = await replay(null);
    }
  } catch (err) {
    fs.rmSync(restoring, { recursive: true, force: true });
    throw err;
  }

  let previous: string | undefined;
  if (fs.existsSync(pgDir)) {
    previous = `${pgDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(pgDir, previous);
  }
  fs.renameSync(restoring, pgDir);
  return { backup, previous, lastCommit, seconds: (Date.now() - started) / 1000 };
}
