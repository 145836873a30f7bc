import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Thrown when another live server holds the data folder. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive lock on `dir` for this process, so two servers never open the same embedded
 * database. A lock left by a process that no longer runs (killed with SIGKILL) is taken over:
 * a pid file, unlike an mtime-based lock, lets a crashed server restart at once.
 */
export function acquireDataDirLock(dir: string): { release: () => void } {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'candor.lock');
  const me: LockInfo = {
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: 'wx' });
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          fs.rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: LockInfo | undefined;
    try {
      holder = JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
    } catch {
      holder = undefined; // unreadable or half-written: treat as stale
    }
    if (holder && holder.hostname !== me.hostname) {
      throw new DataDirLockedError(
        `The data folder ${dir} is locked by a Candor server on host ${holder.hostname} ` +
          `(pid ${holder.pid}). The embedded database serves one process only; ` +
          `for several servers, set DATABASE_URL to a PostgreSQL database.`,
      );
    }
    if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
      throw new DataDirLockedError(
        `Another Candor server (pid ${holder.pid}, started ${holder.startedAt}) is already ` +
          `using the data folder ${dir}. Stop it first, or start this one with another DATA_DIR. ` +
          `For several servers, set DATABASE_URL to a PostgreSQL database.`,
      );
    }
    fs.rmSync(file, { force: true });
  }
  throw new DataDirLockedError(`Could not lock the data folder ${dir}; try again.`);
}
