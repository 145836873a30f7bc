// Start-up before the database: a container started before its PostgreSQL, a database
// restarting or failing over. The first statement used to throw ECONNREFUSED uncaught (a stack
// trace, exit 1 at once: issue 34, finding 10); now the start waits for it, within bounds.
import { randomInt } from 'node:crypto';
import { sqlState } from '../lib/sql-state.js';

/** The first wait between tries; each next one doubles, up to MAX_DELAY_MS. */
export const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 5_000;

// What a database that is not (yet) there says: nothing listening, no route or name yet (a
// container network still coming up), reset or no answer in time, and PostgreSQL's own "starting
// up, shutting down, in recovery" (57P03, 57P01), class 08 (connection exceptions) and too many
// connections (53300). Anything else (a wrong password, no such database) will not mend itself.
const PASSING = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  '57P01',
  '57P03',
  '53300',
]);
// node-postgres's own, without a code: no connection in CONNECT_TIMEOUT_MS, or one that ended.
const PASSING_MESSAGE = /timeout exceeded when trying to connect|Connection terminated/i;

/** Whether `err` is of a database that may answer a little later. */
export function isPassing(err: unknown): boolean {
  const code = sqlState(err);
  if (code !== undefined) return PASSING.has(code) || code.startsWith('08');
  return PASSING_MESSAGE.test(innermost(err).message);
}

/** The deepest cause of `err` (Drizzle wraps the driver's error, Node an AggregateError). */
function innermost(err: unknown): Error {
  let e = err instanceof Error ? err : new Error(String(err));
  for (let depth = 0; depth < 4; depth++) {
    if (e.cause instanceof Error) e = e.cause;
    else if (e instanceof AggregateError && e.errors[0] instanceof Error) e = e.errors[0];
    else break;
  }
  return e;
}

/**
 * Why the database did not answer, in a few words and without a stack: its code and the
 * driver's message (which names the host and port, never the URL or its password).
 */
export function reasonOf(err: unknown): string {
  const code = sqlState(err);
  const message = innermost(err).message.split('\n')[0]!.slice(0, 200);
  if (code === undefined || message.includes(code)) return message || 'no reason given';
  return `${code}: ${message}`;
}

/** The database refused in a way that waiting will not mend, or did not answer in time. */
export class DatabaseStartupError extends Error {
  override name = 'DatabaseStartupError';
}

export interface WaitOptions {
  /** Where the database is, for the messages: no credentials (Database.location). */
  location: string;
  /** How long to keep trying; 0 tries once. */
  timeoutMs: number;
  /** Told of each failed try that will be tried again, with the wait before the next. */
  onRetry: (failure: { attempt: number; reason: string; retryInMs: number }) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * Resolves once `ping` succeeds, trying again with a doubling delay (1 s up to 5 s, each
 * jittered by up to a fifth so that processes started together spread out) while the
 * database is away. Throws DatabaseStartupError, its message fit for an operator, when the
 * database refuses for good (a wrong password) or still is not there after `timeoutMs`.
 * Returns how many tries it took.
 */
export async function waitForDatabase(
  ping: () => Promise<void>,
  {
    location,
    timeoutMs,
    onRetry,
    sleep = (ms) => new Promise((r) => setTimeout(r, ms)),
    now = Date.now,
  }: WaitOptions,
): Promise<number> {
  const deadline = now() + timeoutMs;
  let delay = FIRST_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      await ping();
      return attempt;
    } catch (err) {
      const reason = reasonOf(err);
      if (!isPassing(err)) {
        throw new DatabaseStartupError(
          `PostgreSQL at ${location} refused Candor (${reason}). Check DATABASE_URL.`,
        );
      }
      const left = deadline - now();
      if (left <= 0) {
        throw new DatabaseStartupError(
          `Candor could not reach PostgreSQL at ${location} in ${Math.round(timeoutMs / 1000)} s ` +
            `(${attempt} tries; last: ${reason}). Check DATABASE_URL and that PostgreSQL runs; ` +
            `DATABASE_STARTUP_TIMEOUT_MS sets how long start-up waits for it.`,
        );
      }
      const jittered = Math.round(delay * (0.8 + randomInt(401) / 1000));
      const retryInMs = Math.min(jittered, left);
      onRetry({ attempt, reason, retryInMs });
      await sleep(retryInMs);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
