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
 * settings, no cap on the threshold (PostgreSQL 18), no anti-wraparound freezing.
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

export interface MaintenanceOptions {
  /** Seconds between passes; 0 runs none in the background (tests call runOnce()). */
  intervalSeconds: number;
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
    for (const work of await dueTables(db)) {
      const started = performance.now();
      const table = sql.identifier(work.table);
      try {
        // SKIP_LOCKED: a table another process is vacuuming (or migrating) is left to it.
        await db.execute(
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
