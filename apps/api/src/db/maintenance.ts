import { sql } from 'drizzle-orm';
import type { Db } from './client.js';

/**
 * Vacuum and analyze where the database does not do it itself. PostgreSQL's autovacuum keeps
 * the planner's statistics fresh and reclaims the row versions that every fold leaves behind;
 * PGlite has no background workers, and a server may run with autovacuum off. Without it the
 * planner never learns how big `answers` is, and once it holds tens of thousands of rows a
 * member's own answers are read by scanning the whole table backwards (see
 * docs/reliability.md, the soak). So each pass asks whether an autovacuum launcher runs and,
 * if none does, vacuums or analyzes the tables that autovacuum itself would pick, by its own
 * formula and with the server's own settings.
 */

export interface TableWork {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/** Whether this database runs autovacuum (PostgreSQL with its launcher; never PGlite). */
export async function autovacuumRuns(db: Db): Promise<boolean> {
  const rows = await db.execute(sql`
    select exists (select 1 from pg_stat_activity where backend_type = 'autovacuum launcher')
      as runs`);
  return Boolean(rowsOf<{ runs: boolean }>(rows)[0]?.runs);
}

/** The tables autovacuum would vacuum or analyze now (its thresholds and scale factors). */
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
             or t.n_ins_since_vacuum > s.it + s.iff * greatest(c.reltuples, 0) as vacuum,
           t.n_mod_since_analyze > s.at + s.af * greatest(c.reltuples, 0) as analyze
    from pg_stat_user_tables t
    join pg_class c on c.oid = t.relid
    cross join s
    where t.schemaname = current_schema()
    order by t.relname`);
  return rowsOf<TableWork>(rows).filter((t) => t.vacuum || t.analyze);
}

export interface MaintenanceOptions {
  /** Seconds between passes; 0 runs none in the background (tests call runOnce()). */
  intervalSeconds: number;
  onWork?: (work: TableWork, ms: number) => void;
  onError?: (err: unknown) => void;
}

/** The background maintenance of one process; a pass runs at start, then every interval. */
export function createMaintenance(db: Db, opts: MaintenanceOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<TableWork[]> | undefined;

  /** One pass: nothing when autovacuum runs; else the due tables, one statement each. */
  async function runOnce(): Promise<TableWork[]> {
    if (await autovacuumRuns(db)) return [];
    const due = await dueTables(db);
    for (const work of due) {
      const started = performance.now();
      const table = sql.identifier(work.table);
      // SKIP_LOCKED: a table another process is vacuuming (or migrating) is left to it.
      await db.execute(
        work.vacuum
          ? sql`vacuum (analyze, skip_locked) ${table}`
          : sql`analyze (skip_locked) ${table}`,
      );
      opts.onWork?.(work, Math.round(performance.now() - started));
    }
    return due;
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
