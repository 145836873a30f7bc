// Bounds on every PostgreSQL connection, so that a database that stops answering (a network
// partition, a host gone without closing its sockets) costs a request seconds and a 503, never
// a wait without end (decision 019). A DATABASE_URL's own parameters (`?query_timeout=`,
// `?statement_timeout=`, `?connect_timeout=`) take precedence over the pool's; the dedicated and
// unbounded connections set theirs after connecting, where no URL reaches them.
import pg from 'pg';

/** Opening a connection, or waiting for one of the pool's, gives up after this. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** The server cancels a statement that runs longer (it answers 57014: the connection is fine). */
export const STATEMENT_TIMEOUT_MS = 20_000;
/**
 * The client gives up on a statement the server has not answered at all after this: longer than
 * the statement timeout, so it fires only when the server is unreachable.
 */
export const QUERY_TIMEOUT_MS = 30_000;
/** The server ends a session left inside a transaction this long, with the row locks it held. */
export const IDLE_IN_TRANSACTION_MS = 60_000;
/** How often a dedicated connection (LISTEN, the leader's lock) proves it is still answered. */
export const HEARTBEAT_MS = 2_000;
/** A heartbeat not answered within this ends the connection. */
export const HEARTBEAT_TIMEOUT_MS = 3_000;
/** Closing waits this long for the server to acknowledge; an unreachable one never does. */
export const CLOSE_WAIT_MS = 3_000;

/** Waits for `work`, but not past `ms`: what is left of it is abandoned (it never rejects). */
export async function within(ms: number, work: Promise<unknown> | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work?.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

/** The pool's connections: every statement bounded on the server and on the client. */
export function poolConfig(connectionString: string, max: number): pg.PoolConfig {
  return {
    connectionString,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    keepAlive: true,
  };
}

/**
 * A long-lived connection of its own (LISTEN, the leader's advisory lock): it is idle for hours,
 * so it is watched by `heartbeat`. Its statements are bounded one by one (`briefly`), so that no
 * parameter of DATABASE_URL can stretch them. `name` is its `application_name`, so that an
 * operator (or a test) can tell it apart in `pg_stat_activity`, whose `query` shows only its
 * last heartbeat; a URL's own `application_name` takes precedence.
 */
export function dedicatedConfig(connectionString: string, name: string): pg.ClientConfig {
  return {
    connectionString,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    application_name: name,
  };
}

/** The `application_name` of the connection listening on `channel`. */
export const listenerName = (channel: string) => `candor listen ${channel}`;
/** The `application_name` of the connection holding (or trying for) the background work's lock. */
export const LEADER_NAME = 'candor lead';

/**
 * Opens a dedicated connection and runs DEDICATED_SETUP on it: the server probes it too (TCP keepalives after 10 s idle,
 * every 5 s, 3 times; data unacknowledged for 25 s), so that a session whose client vanished is
 * ended within about 25 s and its advisory lock released for another process to take. The
 * client notices first (within HEARTBEAT_MS + HEARTBEAT_TIMEOUT_MS): an old leader stops before
 * a new one can start. Set by statement rather than as startup parameters: a URL's own
 * `options` would replace those, and PgBouncer refuses them.
 */
export async function connectDedicated(client: pg.Client): Promise<void> {
  await client.connect();
  await briefly(client, DEDICATED_SETUP);
}

const DEDICATED_SETUP =
  'SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; ' +
  'SET tcp_keepalives_count = 3; SET tcp_user_timeout = 25000';

/** A statement on a dedicated connection, given up after HEARTBEAT_TIMEOUT_MS whatever the URL. */
export function briefly<R extends pg.QueryResultRow = pg.QueryResultRow>(
  client: pg.Client,
  text: string,
  values?: unknown[],
): Promise<pg.QueryResult<R>> {
  // A per-query query_timeout takes precedence over the connection's (client.js).
  return client.query<R>({ text, values, query_timeout: HEARTBEAT_TIMEOUT_MS } as pg.QueryConfig);
}

/**
 * Statements that may rightly run for minutes (migrations rewriting a large table or waiting for
 * another process's, VACUUM): no read timeout (removed from the URL too), and `UNBOUNDED_SETUP`
 * run first, since node-postgres does not send a zero `statement_timeout` and a role or database
 * default would apply. TCP keepalives end it after about 11 minutes of silence (Linux defaults).
 */
export function unboundedConfig(connectionString: string): pg.ClientConfig {
  return {
    connectionString: withoutParam(connectionString, 'query_timeout'),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  };
}

export const UNBOUNDED_SETUP =
  'SET statement_timeout = 0; SET idle_in_transaction_session_timeout = 0; SET lock_timeout = 0';

function withoutParam(connectionString: string, name: string): string {
  if (!URL.canParse(connectionString)) return connectionString;
  const url = new URL(connectionString);
  url.searchParams.delete(name);
  return url.toString();
}

/**
 * Runs `SELECT 1` on `client` every `everyMs` (HEARTBEAT_MS by default); the first that fails
 * (not answered within HEARTBEAT_TIMEOUT_MS, a lost connection) is handed to `dead`, once.
 * `answered(sentAt)` is told of each one answered, with the `performance.now()` at which it
 * was sent. Returns the function that stops.
 */
export function heartbeat(
  client: pg.Client,
  dead: (err: Error) => void,
  {
    everyMs = HEARTBEAT_MS,
    answered,
  }: { everyMs?: number; answered?: (sentAt: number) => void } = {},
): () => void {
  let beating = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (beating) return; // the previous one is still waiting: its timeout decides
    beating = true;
    // Taken before the statement is written: the server reads it no earlier than this.
    const sentAt = performance.now();
    briefly(client, 'SELECT 1').then(
      () => {
        beating = false;
        if (!stopped) answered?.(sentAt);
      },
      (err: unknown) => {
        clearInterval(timer);
        dead(err as Error);
      },
    );
  }, everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/**
 * Whether the connection a statement failed on can run another: the server answered with an
 * ordinary error. A read timeout, a lost socket or a FATAL leave it unusable.
 */
function connectionUsable(err: unknown): boolean {
  return err instanceof pg.DatabaseError && err.severity !== 'FATAL' && err.severity !== 'PANIC';
}

type PoolCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * The pool, with the connections it lends for a transaction (`connect()` without a callback:
 * Drizzle's `db.transaction`) given back whatever the borrower does. Two holes are closed here:
 * - a failed first statement (BEGIN): Drizzle 0.45.4 never releases the connection then
 *   (node-postgres/session.js), and the pool would lose that slot for good;
 * - a failure that leaves the connection unusable (`connectionUsable`): it goes back at once,
 *   with the error, so the pool drops it rather than lend it again with a statement still
 *   waiting on it, and every later statement on it (Drizzle's ROLLBACK) fails at once with that
 *   same error, which is the one the request reports, instead of waiting out its own timeout.
 * `pool.query` (the callback form) already drops a connection whose statement failed.
 * The first-statement rule holds for any borrower of the promise form: a first statement that
 * fails for an ordinary reason (a typo) costs a new connection, nothing more. Drizzle's
 * transactions are the only such borrower; they use the promise form of `query` (a callback or
 * a Submittable is passed through unguarded).
 */
export class GuardedPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: PoolCallback): void;
  override connect(callback?: PoolCallback): Promise<pg.PoolClient> | undefined {
    if (!callback) return super.connect().then(guardLoan);
    super.connect(callback);
    return undefined;
  }
}

function guardLoan(client: pg.PoolClient): pg.PoolClient {
  // Both are called with the client as `this`: `release` is the pool's own arrow function.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const giveBack = client.release;
  let returned = false;
  let broken: Error | undefined;
  let first = true;
  const settle = (err?: Error | boolean) => {
    if (returned) return;
    returned = true;
    if (!broken) {
      // A healthy connection goes back as it came, for its next borrower.
      delete (client as { query?: unknown }).query;
      client.release = giveBack;
    }
    giveBack(err);
  };
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const query = client.query;
  client.query = ((...args: unknown[]) => {
    if (broken) return Promise.reject(broken);
    const wasFirst = first;
    first = false;
    const result = (query as (...a: unknown[]) => unknown).apply(client, args);
    if (result instanceof Promise) {
      result.catch((err: unknown) => {
        if (broken || !(wasFirst || !connectionUsable(err))) return;
        broken = err as Error;
        settle(broken);
      });
    }
    return result;
  }) as typeof client.query;
  client.release = settle;
  return client;
}
