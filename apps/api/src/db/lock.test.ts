// The data-folder lock against real processes: holders that die by SIGKILL, stale files naming
// another host or a pid now used by an unrelated process, and several processes racing for it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, acquireDataDirLock } from './lock.js';

const lockModule = fileURLToPath(new URL('./lock.ts', import.meta.url));

let dir: string;
const lockFile = () => path.join(dir, 'candor.lock');
const readLock = () => JSON.parse(fs.readFileSync(lockFile(), 'utf8')) as Record<string, unknown>;

function writeLock(pid: number, hostname = os.hostname()) {
  fs.writeFileSync(
    lockFile(),
    JSON.stringify({ pid, hostname, startedAt: '2020-01-01T00:00:00Z' }),
  );
}

const children: ChildProcess[] = [];

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

interface Holder {
  child: ChildProcess;
  /** Resolves 'held' once the child holds the lock, or 'refused' (with its message) on exit. */
  outcome: Promise<'held' | 'refused'>;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * A real process that takes the lock of `folder` and keeps it until killed, or prints the
 * refusal and exits 1, as the server does.
 */
function startHolder(folder: string): Holder {
  const code = `
    const { acquireDataDirLock, DataDirLockedError } = await import(${JSON.stringify(lockModule)});
    try {
      acquireDataDirLock(${JSON.stringify(folder)});
      console.log('held');
      setInterval(() => {}, 1000);
    } catch (err) {
      if (!(err instanceof DataDirLockedError)) throw err;
      console.error(err.message);
      process.exit(1);
    }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit').then(([status]) => status as number | null);
  const outcome = new Promise<'held' | 'refused'>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('held')) resolve('held');
    });
    void exited.then((status) =>
      status === 1 ? resolve('refused') : reject(new Error(`holder exited ${status}: ${stderr}`)),
    );
  });
  return { child, outcome, stderr: () => stderr, exited };
}

async function kill(holder: Holder) {
  if (holder.child.exitCode === null && holder.child.signalCode === null) {
    holder.child.kill('SIGKILL');
    await holder.exited;
  }
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-lock-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('acquireDataDirLock', () => {
  it('writes a lock file naming this process; release frees the folder', () => {
    const lock = acquireDataDirLock(dir);
    expect(readLock()).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    lock.release();
    lock.release(); // a second release is harmless
    // Free again: the next server takes it at once.
    const again = acquireDataDirLock(dir);
    again.release();
  });

  it('creates the data folder when it does not exist yet', () => {
    const nested = path.join(dir, 'new', 'data');
    const lock = acquireDataDirLock(nested);
    expect(fs.existsSync(path.join(nested, 'candor.lock'))).toBe(true);
    lock.release();
  });

  it('refuses a second lock while the first is held, even in the same process', () => {
    const lock = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    lock.release();
    acquireDataDirLock(dir).release();
  });

  it('refuses a folder held by another live process, naming the folder and the holder', async () => {
    const holder = startHolder(dir);
    expect(await holder.outcome).toBe('held');

    let error: unknown;
    try {
      acquireDataDirLock(dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    const message = (error as Error).message;
    expect(message).toContain('already using the data folder');
    expect(message).toContain(dir);
    expect(message).toContain(`pid ${holder.child.pid}`);
    expect(message).toContain('DATABASE_URL');
    // The holder keeps its lock.
    expect(readLock().pid).toBe(holder.child.pid);
    await kill(holder);
  });

  it('takes over at once from a holder killed with SIGKILL (its lock file left behind)', async () => {
    for (let round = 0; round < 3; round++) {
      const holder = startHolder(dir);
      expect(await holder.outcome).toBe('held');
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      await kill(holder);
      // The file still names the dead holder; only the kernel's lock went with it.
      expect(readLock().pid).toBe(holder.child.pid);
    }
    const lock = acquireDataDirLock(dir);
    expect(readLock().pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a stale lock naming another host (a recreated container)', () => {
    writeLock(process.pid, 'some-other-host');
    const lock = acquireDataDirLock(dir);
    expect(readLock()).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    lock.release();
  });

  it('takes over a stale lock naming a pid now used by an unrelated live process', async () => {
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(sleeper);
    await once(sleeper, 'spawn');
    writeLock(sleeper.pid!);
    const lock = acquireDataDirLock(dir);
    expect(readLock().pid).toBe(process.pid);
    lock.release();
    sleeper.kill('SIGKILL');
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    writeLock(await deadPid());
    const lock = acquireDataDirLock(dir);
    expect(readLock().pid).toBe(process.pid);
    lock.release();
  });

  it("takes over a lock carrying this process's own pid (a restarted container's pid 1)", () => {
    writeLock(process.pid);
    const lock = acquireDataDirLock(dir);
    expect(readLock().startedAt).not.toBe('2020-01-01T00:00:00Z');
    lock.release();
  });

  it('takes over a half-written lock file', () => {
    fs.writeFileSync(lockFile(), '{"pid": 12');
    const lock = acquireDataDirLock(dir);
    expect(readLock().pid).toBe(process.pid);
    lock.release();
  });

  it('lets exactly one of several processes started together hold the folder', async () => {
    for (let round = 0; round < 3; round++) {
      // A stale file from a "crashed" server on another host makes the race harder.
      writeLock(process.pid, 'gone-host');
      const racers = Array.from({ length: 4 }, () => startHolder(dir));
      const outcomes = await Promise.all(racers.map((r) => r.outcome));
      expect(outcomes.filter((o) => o === 'held')).toHaveLength(1);
      const winner = racers[outcomes.indexOf('held')]!;
      for (const [i, racer] of racers.entries()) {
        if (outcomes[i] === 'refused') {
          expect(racer.stderr()).toContain('already using the data folder');
        }
      }
      expect(readLock().pid).toBe(winner.child.pid);
      await Promise.all(racers.map(kill));
    }
  }, 60_000);
});
