import { pino } from 'pino';

/** The most a slow log reader may leave waiting; lines beyond it are dropped. */
const MAX_WAITING_BYTES = 16 * 1024 * 1024;

/**
 * Standard output for the server's logs, best effort: logging never stops the server. pino
 * absorbs only EPIPE (the reader gone); any other failed write (a full disk, EIO) would be an
 * uncaught exception whose exit handler retries the write every 100 ms forever, leaving the
 * process hung and deaf to SIGTERM. Here a destination that fails is given up, as pino does for
 * EPIPE, and said so once on stderr; a stalled reader holds at most 16 MiB of lines.
 */
export function logDestination(): pino.DestinationStream {
  const out = pino.destination({ dest: 1, sync: false, maxLength: MAX_WAITING_BYTES });
  let givenUp = false;
  out.on('error', (err: NodeJS.ErrnoException) => {
    if (givenUp) return;
    givenUp = true;
    Object.assign(out, {
      write: () => true,
      flush: (done?: (err?: Error) => void) => done?.(),
      flushSync: () => undefined,
      end: () => undefined,
    });
    try {
      process.stderr.write(`Candor: writing the log failed (${err.code}); no more log lines.\n`);
    } catch {
      // stderr is gone too
    }
  });
  // The startup lines (console.log) must not end the process when stdout's reader is gone.
  process.stdout.on('error', () => undefined);
  return out;
}
