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
 * scale factors, with the server's own settings. Like autovacuum, it also freezes a table whose
 * oldest unfrozen transaction id is older than `autovacuum_freeze_max_age`, so a long-lived
 * embedded database never nears transaction id wraparound (at which PostgreSQL stops taking
 * writes), and likewise by `autovacuum_multixact_freeze_max_age` for the multixact ids that
 * shared row locks (foreign key checks, `for share`) take. A simplification of it: no per-table
 * settings, no cap on the threshold (PostgreSQL 18).
 */

export interface TableWork {
  table: string;
  vacuum: boolean;
  analyze: boolean;
  /** Its oldest unfrozen transaction id is past the freeze age: vacuum with FREEZE. */
  freeze: boolean;
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

/**
 * The tables autovacuum would vacuum, analyze or freeze now (an insert threshold of -1 is off).
 * `freezeMaxAge` replaces the server's `autovacuum_freeze_max_age` (a test cannot age a table by
 * 200 million transactions).
 */
export async function dueTables(
  db: Db,
  { freezeMaxAge }: { freezeMaxAge?: number } = {},
): Promise<TableWork[]> {
  const maxAge =
    freezeMaxAge === undefined
      ? sql`current_setting('autovacuum_freeze_max_age')::float8`
      : sql`${freezeMaxAge}::float8`;
  const rows = await db.execute(sql`
    with s as (
      select current_setting('autovacuum_vacuum_threshold')::float8 as vt,
             current_setting('autovacuum_vacuum_scale_factor')::float8 as vf,
             current_setting('autovacuum_vacuum_insert_threshold')::float8 as it,
             current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as iff,
             current_setting('autovacuum_analyze_threshold')::float8 as at,
             current_setting('autovacuum_analyze_scale_factor')::float8 as af,
             ${maxAge} as fa,
             current_setting('autovacuum_multixact_freeze_max_age')::float8 as ma
    ), due as (
      select t.relname as "table",
             t.n_dead_tup > s.vt + s.vf * greatest(c.reltuples, 0)
               or (s.it >= 0 and t.n_ins_since_vacuum > s.it + s.iff * greatest(c.reltuples, 0))
               as vacuum,
             t.n_mod_since_analyze > s.at + s.af * greatest(c.reltuples, 0) as "analyze",
             age(c.relfrozenxid) > s.fa or mxid_age(c.relminmxid) > s.ma as "freeze"
      from pg_stat_user_tables t
      join pg_class c on c.oid = t.relid
      cross join s
      where t.schemaname = current_schema()
    )
    select "table", vacuum or "freeze" as vacuum, "analyze", "freeze" from due
    where vacuum or "analyze" or "freeze"
    order by "table"`);
  return rowsOf<TableWork>(rows);
}

export interface MaintenanceOptions {
  /** Seconds between passes; 0 runs none in the background (tests call runOnce()). */
  intervalSeconds: number;
  /** Passed on to dueTables (tests). */
  freezeMaxAge?: number;
  onWork?: (work: TableWork, ms: number) => void;
  onError?: (err: unknown) => void;
}

/** The background maintenance of one process; a pass runs at start, then every interval. */
export function createMaintenance(
  { db, engine }: Pick<Database, 'db' | 'engine'>,
  opts: MaintenanceOptions,
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<TableWork[]> | undefined;

  /** One pass: nothing when autovacuum runs; else the due tables, one statement each. */
  async function runOnce(): Promise<TableWork[]> {
    if (await autovacuumRuns(db, engine)) return [];
    const done: TableWork[] = [];
    for (const work of await dueTables(db, { freezeMaxAge: opts.freezeMaxAge })) {
      const started = performance.now();
      const table = sql.identifier(work.table);
      try {
        // SKIP_LOCKED: a table another process is vacuuming (or migrating) is left to it.
        await db.execute(
          work.freeze
            ? sql`vacuum (freeze, analyze, skip_locked) ${table}`
            : work.vacuum
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
    return done;
  }

  function pass() {
    if (running) return;
    running = runOnce()
      .catch((err) => {
        opts.onError?.(err);
        return [];
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
      await running;
    },
  };
}

/** node-postgres returns { rows }, PGlite an array-like result with rows too. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
