import fs from 'node:fs';
import type { pino } from 'pino';

/** The most a slow log reader may leave waiting (characters); lines beyond it are dropped. */
const MAX_WAITING = 16 * 1024 * 1024;
/** A full pipe is tried again after this long. */
const RETRY_MS = 50;
/** How long the process's exit waits for a stalled reader before dropping what is left. */
const FINAL_FLUSH_MS = 2000;

type Reason = 'not reading' | 'gone' | 'failed';

const said: Record<Reason, string> = {
  'not reading': "the log's reader is not reading",
  gone: "the log's reader is gone",
  failed: 'writing the log failed',
};

/**
 * Standard output for the server's logs, best effort: logging never stops the server, and never
 * holds its exit. The lines of each turn of the event loop are written together; a full pipe is
 * tried again later, and a reader that stays behind holds at most 16 Mi characters, the rest
 * dropped. At exit what is left gets 2 s, then is dropped too, and stderr says how many lines.
 *
 * Not pino's destination (sonic-boom): its exit-time flush retried a full pipe's EAGAIN forever,
 * so with `| sleep 600` as the reader SIGTERM never finished, neither the shutdown deadline nor a
 * second signal could run, and a cluster's workers outlived their primary (issue 34). Not writes
 * on libuv's thread pool either: Node puts standard output back to blocking as a process exits,
 * so a write still queued there blocks for good, and the exit waits for it. A write that fails
 * otherwise (a full disk, EIO) gives the log up, said once on stderr; a reader gone (EPIPE) too.
 */
export function logDestination(): pino.DestinationStream {
  // The startup lines (console.log) must not end the process when stdout's reader is gone.
  process.stdout.on('error', () => undefined);
  const out = nonBlocking(1);
  const err = nonBlocking(2);

  /** Lines not yet written, and their length. */
  let queue: string[] = [];
  let queued = 0;
  /** The rest of a batch the pipe took part of. */
  let pending: Buffer | undefined;
  let scheduled = false;
  let retry: NodeJS.Timeout | undefined;
  let dropped = 0;
  let why: Reason | undefined;
  let givenUp = false;

  const drop = (lines: number, reason: Reason) => {
    if (!lines) return;
    dropped += lines;
    why ??= reason;
  };

  const giveUp = (code: string | undefined) => {
    givenUp = true;
    drop(queue.length + newlines(pending), code === 'EPIPE' ? 'gone' : 'failed');
    queue = [];
    queued = 0;
    pending = undefined;
    if (code !== 'EPIPE') say(err, `Candor: writing the log failed (${code}); no more log lines.`);
  };

  /** Writes what the pipe takes now; true when nothing is left. */
  const writeNow = (): boolean => {
    if (!pending && queue.length) {
      pending = Buffer.from(queue.join(''));
      queue = [];
      queued = 0;
    }
    while (pending) {
      let written: number;
      try {
        written = fs.writeSync(out, pending);
      } catch (error) {
        const { code } = error as NodeJS.ErrnoException;
        if (code === 'EAGAIN') return false; // the reader has fallen behind, or stopped
        giveUp(code);
        return true;
      }
      pending = written < pending.length ? pending.subarray(written) : undefined;
    }
    return true;
  };

  const flush = () => {
    scheduled = false;
    retry = undefined;
    if (givenUp || writeNow()) return;
    // Waiting for a reader never keeps the process alive; its exit writes what it can.
    retry = setTimeout(flush, RETRY_MS).unref();
  };

  process.on('exit', () => {
    clearTimeout(retry);
    if (!givenUp) {
      const deadline = Date.now() + FINAL_FLUSH_MS;
      const pause = new Int32Array(new SharedArrayBuffer(4));
      while (!writeNow() && Date.now() < deadline) Atomics.wait(pause, 0, 0, 10);
      drop(queue.length + newlines(pending), 'not reading'); // none when given up meanwhile
    }
    if (dropped)
      say(err, `Candor: ${said[why!]}: ${dropped} log line${dropped === 1 ? '' : 's'} dropped.`);
  });

  return {
    write(line: string) {
      if (givenUp) return;
      if (queued + (pending?.length ?? 0) + line.length > MAX_WAITING) {
        drop(1, 'not reading');
        return;
      }
      queue.push(line);
      queued += line.length;
      if (scheduled || retry) return;
      scheduled = true;
      setImmediate(flush);
    },
  };
}

/**
 * A descriptor of its own, non-blocking, on what `fd` writes to (Linux: reopened through /proc),
 * so that a full pipe answers EAGAIN whatever another process sharing it sets (Node makes its
 * standard output blocking again as it exits: a cluster's workers and their primary share
 * one). A file is written through `fd` itself (appending as it was opened); so is what cannot be
 * reopened (a socket).
 */
function nonBlocking(fd: number): number {
  try {
    if (fs.fstatSync(fd).isFile()) return fd;
    const { O_WRONLY, O_NONBLOCK, O_NOCTTY } = fs.constants;
    return fs.openSync(`/proc/self/fd/${fd}`, O_WRONLY | O_NONBLOCK | O_NOCTTY);
  } catch {
    return fd;
  }
}

function say(fd: number, line: string): void {
  try {
    fs.writeSync(fd, `${line}\n`);
  } catch {
    // stderr is stalled or gone too
  }
}

/** How many lines `buffer` holds (each ends with a newline; one partly written counts). */
function newlines(buffer: Buffer | undefined): number {
  if (!buffer?.length) return 0;
  let count = 0;
  for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, at + 1)) count += 1;
  return count;
}
