import { sql } from 'drizzle-orm';
import type { Database, Db } from './client.js';

/**
 * Vacuum and analyze where the database does not do it itself. PostgreSQL's autovacuum keeps
 * the planner's statistics fresh and reclaims the row versions that every fold leaves behind;
 * PGlite has no background workers, and a server may run with autovacuum off. Without it the
 * planner never learns how big `answers` is, and once it holds tens of thousands of rows a
 * member's own answers are read by scanning the whole table backwards (see
 * docs/reliability.md, the soak). So each pass asks whether autovacuum runs and, if not,
 * vacuums or analyzes the tables PostgreSQL 15's autovacuum would pick by its thresholds and
 * scale factors, with the server's own settings. A simplification of it: no per-table
 * settings, no cap on the threshold (PostgreSQL 18).
 *
 * Like autovacuum, it also keeps transaction ids from wrapping around (past which PostgreSQL
 * stops taking writes): once the database's oldest unfrozen transaction id is older than
 * `autovacuum_freeze_max_age`, or its oldest multixact id (shared row locks: foreign key checks,
 * `for share`) older than `autovacuum_multixact_freeze_max_age`, it freezes the whole database,
 * system catalogs included. It cannot reach the other databases of the cluster (PGlite's
 * `template0` and `template1` age with every transaction and are vacuumed by nobody): it warns
 * once one of them is past the freeze age, about 1.9 billion transactions before the guard
 * would stop writes.
 */

export interface TableWork {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/**
 * Whether this database runs autovacuum: never PGlite (no background workers, though its
 * setting says `on`); PostgreSQL when its settings say so. Settings, not the launcher's row in
 * `pg_stat_activity`, which an ordinary role cannot see.
 */
export async function autovacuumRuns(db: Db, engine: Database['engine']): Promise<boolean> {
  if (engine === 'pglite') return false;
  const rows = await db.execute(sql`
    select current_setting('autovacuum') = 'on' and current_setting('track_counts') = 'on'
      as runs`);
  return Boolean(rowsOf<{ runs: boolean }>(rows)[0]?.runs);
}

/** Freeze ages; a test lowers them (it cannot age a database by 200 million transactions). */
export interface FreezeLimits {
  freezeMaxAge?: number;
  multixactFreezeMaxAge?: number;
}

/**
 * The databases past a freeze age: whether this one is (`here`), and which others are. The
 * server's `autovacuum_freeze_max_age` and `autovacuum_multixact_freeze_max_age` unless given.
 */
export async function freezeDue(
  db: Db,
  limits: FreezeLimits = {},
): Promise<{ here: boolean; elsewhere: string[] }> {
  const limit = (given: number | undefined, setting: string) =>
    given === undefined ? sql`current_setting(${setting})::float8` : sql`${given}::float8`;
  const rows = rowsOf<{ name: string; here: boolean }>(
    await db.execute(sql`
      select datname as name, datname = current_database() as here
      from pg_database
      where age(datfrozenxid) > ${limit(limits.freezeMaxAge, 'autovacuum_freeze_max_age')}
         or mxid_age(datminmxid) > ${limit(
           limits.multixactFreezeMaxAge,
           'autovacuum_multixact_freeze_max_age',
         )}
      order by datname`),
  );
  return {
    here: rows.some((r) => r.here),
    elsewhere: rows.filter((r) => !r.here).map((r) => r.name),
  };
}

/** The tables autovacuum would vacuum or analyze now (an insert threshold of -1 is off). */
export async function dueTables(db: Db): Promise<TableWork[]> {
  const rows = await db.execute(sql`
    with s as (
      select current_setting('autovacuum_vacuum_threshold')::float8 as vt,
             current_setting('autovacuum_vacuum_scale_factor')::float8 as vf,
             current_setting('autovacuum_vacuum_insert_threshold')::float8 as it,
             current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as iff,
             current_setting('autovacuum_analyze_threshold')::float8 as at,
             current_setting('autovacuum_analyze_scale_factor')::float8 as af
    )
    select t.relname as "table",
           t.n_dead_tup > s.vt + s.vf * greatest(c.reltuples, 0)
             or (s.it >= 0 and t.n_ins_since_vacuum > s.it + s.iff * greatest(c.reltuples, 0))
             as vacuum,
           t.n_mod_since_analyze > s.at + s.af * greatest(c.reltuples, 0) as analyze
    from pg_stat_user_tables t
    join pg_class c on c.oid = t.relid
    cross join s
    where t.schemaname = current_schema()
    order by t.relname`);
  return rowsOf<TableWork>(rows).filter((t) => t.vacuum || t.analyze);
}

export interface MaintenanceOptions extends FreezeLimits {
  /** Seconds between passes; 0 runs none in the background (tests call runOnce()). */
  intervalSeconds: number;
  onWork?: (work: TableWork, ms: number) => void;
  /** The whole database was frozen, in `ms`. */
  onFreeze?: (ms: number) => void;
  /** Other databases past a freeze age, which this process cannot vacuum (once per change). */
  onAging?: (databases: string[]) => void;
  onError?: (err: unknown) => void;
  /**
   * The app's own tidying, at the start of every pass whether or not autovacuum runs (expired
   * account limits: decision 022); its failure is reported and the pass goes on.
   */
  tidy?: () => Promise<unknown>;
}

/** What one pass did: the tables it vacuumed or analyzed, and whether it froze the database. */
export interface Pass {
  tables: TableWork[];
  froze: boolean;
}

/** The background maintenance of one process; a pass runs at start, then every interval. */
export function createMaintenance(
  { db, engine, unbounded }: Pick<Database, 'db' | 'engine' | 'unbounded'>,
  opts: MaintenanceOptions,
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<Pass> | undefined;
  let stopping = new AbortController(); // ends a pass's connection on stop()
  let reportedAging = '';

  /**
   * One pass: the app's tidying; then nothing when autovacuum runs, else the due tables, one
   * statement each, then the whole database frozen if it is past a freeze age.
   */
  async function runOnce(signal?: AbortSignal): Promise<Pass> {
    await opts.tidy?.().catch((err: unknown) => opts.onError?.(err));
    if (await autovacuumRuns(db, engine)) return { tables: [], froze: false };
    // A VACUUM may rightly take minutes on a large table: not under the statement timeouts.
    return unbounded((own) => vacuumDue(own), signal);
  }

  async function vacuumDue(own: Db): Promise<Pass> {
    const done: TableWork[] = [];
    for (const work of await dueTables(own)) {
      const started = performance.now();
      const table = sql.identifier(work.table);
      try {
        // SKIP_LOCKED: a table another process is vacuuming (or migrating) is left to it.
        await own.execute(
          work.vacuum
            ? sql`vacuum (analyze, skip_locked) ${table}`
            : sql`analyze (skip_locked) ${table}`,
        );
      } catch (err) {
        opts.onError?.(err); // one table failing does not keep the others from their turn
        continue;
      }
      done.push(work);
      opts.onWork?.(work, Math.round(performance.now() - started));
    }
    const due = await freezeDue(own, opts);
    const aging = due.elsewhere.join(', ');
    if (aging && aging !== reportedAging) opts.onAging?.(due.elsewhere);
    reportedAging = aging;
    if (!due.here) return { tables: done, froze: false };
    const started = performance.now();
    // Database-wide, so the catalogs are frozen too and `datfrozenxid` moves on.
    await own.execute(sql`vacuum (freeze, skip_locked)`);
    opts.onFreeze?.(Math.round(performance.now() - started));
    return { tables: done, froze: true };
  }

  function pass() {
    if (running) return;
    const { signal } = stopping;
    running = runOnce(signal)
      .catch((err: unknown): Pass => {
        if (!signal.aborted) opts.onError?.(err); // stopped: VACUUM resumes at the next pass
        return { tables: [], froze: false };
      })
      .finally(() => (running = undefined));
  }

  return {
    runOnce,
    start() {
      if (opts.intervalSeconds <= 0 || timer) return;
      pass();
      timer = setInterval(pass, opts.intervalSeconds * 1000);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      stopping.abort();
      stopping = new AbortController();
      await running;
    },
  };
}

/** node-postgres returns { rows }, PGlite an array-like result with rows too. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
