import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import koffi from 'koffi';

/** Thrown when another live server holds the data folder. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: string;
}

// flock(2) operations: the same numbers on Linux, macOS and the BSDs.
const LOCK_EX = 2;
const LOCK_NB = 4;
const { EWOULDBLOCK, EAGAIN } = os.constants.errno;

type Flock = (fd: number, operation: number) => number;
let flockFn: Flock | undefined;

/**
 * flock(2) from the C library already loaded in this process, through koffi (prebuilt binaries
 * in its npm packages, nothing compiled at install). Node has no file-lock call of its own.
 */
function flock(fd: number, operation: number): number {
  if (!flockFn) {
    try {
      flockFn = koffi.load(null).func('int flock(int, int)');
    } catch (err) {
      // Refused like a held folder: the server prints the message and exits.
      throw new DataDirLockedError(
        `The embedded database needs flock(2) to guard its data folder, which this system ` +
          `(${process.platform}) lacks. Set DATABASE_URL to a PostgreSQL database instead.`,
        { cause: err },
      );
    }
  }
  return flockFn(fd, operation);
}

/** What the holder wrote into the lock file: for the message only, never to decide. */
function readHolder(file: string): LockInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockInfo>;
    return typeof info.pid === 'number' ? (info as LockInfo) : undefined;
  } catch {
    return undefined; // empty (released, or the holder is still writing it) or damaged
  }
}

/**
 * Takes an exclusive lock on `dir` for this process, so two servers never open the same embedded
 * database. The lock is an advisory `flock` on `dir/candor.lock`, held by an open descriptor: the
 * kernel drops it when the process ends in any way (SIGKILL, a crash, a container torn down), so
 * a crashed server restarts at once, and nothing written in the file (a pid reused by another
 * process, another container's hostname) can keep it out or let a second live server in.
 */
export function acquireDataDirLock(dir: string): { release: () => void } {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'candor.lock');
  // Never unlinked: a process that opened the old file before an unlink could lock that inode
  // while another locks a new file of the same name, and both would believe they hold it.
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
  let taken: boolean;
  try {
    if (flock(fd, LOCK_EX | LOCK_NB) === 0) {
      taken = true;
    } else {
      const errno = koffi.errno();
      if (errno !== EWOULDBLOCK && errno !== EAGAIN) {
        throw new Error(`Could not lock ${file} (flock errno ${errno}).`);
      }
      taken = false;
    }
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  if (!taken) {
    fs.closeSync(fd);
    const holder = readHolder(file);
    const who = holder
      ? ` (pid ${holder.pid} on host ${holder.hostname}, started ${holder.startedAt})`
      : '';
    throw new DataDirLockedError(
      `Another Candor server${who} is already using the data folder ${dir}. Stop it first, ` +
        `or start this one with another DATA_DIR. For several servers, set DATABASE_URL to a ` +
        `PostgreSQL database.`,
    );
  }
  // Who holds it, for the message a refused server prints and for people reading the folder.
  const me: LockInfo = {
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
  };
  fs.ftruncateSync(fd, 0);
  fs.writeSync(fd, JSON.stringify(me), 0);
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      try {
        fs.ftruncateSync(fd, 0);
      } finally {
        fs.closeSync(fd); // closing the last descriptor releases the flock
      }
    },
  };
}
