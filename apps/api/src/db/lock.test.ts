import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, acquireDataDirLock } from './lock.js';

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

/** A live process that is not this one. */
function startSleeper(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
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
  it('writes a lock file naming this process, and release removes it', () => {
    const lock = acquireDataDirLock(dir);
    expect(readLock()).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    lock.release();
    expect(fs.existsSync(lockFile())).toBe(false);
    lock.release(); // a second release is harmless
  });

  it('creates the data folder when it does not exist yet', () => {
    const nested = path.join(dir, 'new', 'data');
    const lock = acquireDataDirLock(nested);
    expect(fs.existsSync(path.join(nested, 'candor.lock'))).toBe(true);
    lock.release();
  });

  it('refuses a folder held by another live process, naming the folder', async () => {
    const other = startSleeper();
    await once(other, 'spawn');
    writeLock(other.pid!);

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
    expect(message).toContain(`pid ${other.pid}`);
    expect(message).toContain('DATABASE_URL');
    // The holder keeps its lock.
    expect(readLock().pid).toBe(other.pid);
  });

  it('refuses a folder locked from another host', () => {
    writeLock(process.pid, 'some-other-host');
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrow(/some-other-host/);
    expect(readLock().hostname).toBe('some-other-host');
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    writeLock(await deadPid());
    const lock = acquireDataDirLock(dir);
    expect(readLock().pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(lockFile())).toBe(false);
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
});
