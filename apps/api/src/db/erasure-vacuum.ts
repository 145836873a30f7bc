import { sql } from 'drizzle-orm';
import type { Database } from './client.js';

/**
 * The tables an erasure deletes from or rewrites (issue 28). A DELETE only marks a row version
 * dead: until VACUUM prunes it, the erased users row (phone number, name) and the member's
 * answers stay readable in the table files (`pageinspect` read 6 of 6), and autovacuum comes
 * only once a fifth of a table is dead, which on a large table may be never. `question_tallies`
 * held the snapshot that showed one of their texts as a sample; `audit_log` rows name an erased
 * staff member's id until `set null`; `credential_issuances` says which surveys the account got
 * credentials for; `vaults` held the member's vault (sealed under a key only their device has,
 * so it is vacuumed, not scrubbed: decision 020).
 */
export const ERASURE_TABLES = [
  'users',
  'otp_challenges',
  'refresh_tokens',
  'respondents',
  'answers',
  'ratings',
  'timings',
  'results_queue',
  'question_tallies',
  'audit_log',
  'credential_issuances',
  'vaults',
  'staff_totp',
  'staff_passkeys',
  'webauthn_challenges',
  'identity_keys',
  // A survey deleted with its answers (decision 010) also leaves its panel completions.
  'panel_completions',
] as const;

/**
 * The account tables a scrub rewrites (VACUUM FULL): small, and where the number and name are.
 * A plain VACUUM frees a dead row's space without zeroing it, so a copied table file still held
 * some erased numbers (bench/erasure-residue.ts: 1 or 2 of 5 after a checkpoint).
 */
export const ACCOUNT_TABLES = [
  'users',
  'otp_challenges',
  'refresh_tokens',
  'identity_keys',
] as const;

/**
 * A second pass this long after the last erasure, for row versions that a transaction running
 * during the first pass could still see (so VACUUM had to keep them): a request's transaction is
 * over by then (statements stop at 20 s, idle transactions at 60 s: db/connections.ts). What a
 * longer one (a backup's snapshot) holds back waits for autovacuum or the next erasure.
 */
export const ERASURE_FOLLOW_UP_MS = 120_000;

/** Read afresh after an await (a property check would stay narrowed). */
const isAborted = (signal: AbortSignal) => signal.aborted;

/** How long the scrub's VACUUM FULL waits for its lock before giving up. */
export const SCRUB_LOCK_TIMEOUT_MS = 2_000;

export interface ErasureVacuumOptions {
  followUpMs?: number;
  /**
   * Also scrub (only where Candor owns the server, the embedded PostgreSQL): rewrite the account
   * tables, then switch the write-ahead log and checkpoint, so the segment holding the erased
   * rows is deleted (the server runs with wal_recycle off). Not on a server others run: there a
   * VACUUM FULL would lock `users` against every login for its duration, and the log, its
   * archive and backups are the operator's (docs/privacy.md).
   */
  scrub?: boolean;
  onDone?: (ms: number) => void;
  onError?: (err: unknown) => void;
}

/**
 * Vacuums the erasure's tables right after one, in the background: `erased()` returns at once,
 * so the reply never waits on it. Erasures that come together share passes: while a pass runs,
 * any number of new requests make exactly one more pass after it (a pass that had already
 * started may have missed their rows), never one each. Every pass is followed, once things are
 * quiet, by one more after `followUpMs`.
 */
export function createErasureVacuum(
  { unbounded }: Pick<Database, 'unbounded'>,
  opts: ErasureVacuumOptions = {},
) {
  const followUpMs = opts.followUpMs ?? ERASURE_FOLLOW_UP_MS;
  let running: Promise<void> | undefined;
  let wanted = false;
  let followUp: NodeJS.Timeout | undefined;
  let stopping = new AbortController();

  async function pass(signal: AbortSignal) {
    const started = performance.now();
    const tables = sql.join(
      ERASURE_TABLES.map((t) => sql.identifier(t)),
      sql`, `,
    );
    // INDEX_CLEANUP ON: with few dead rows PostgreSQL (14+) may skip the indexes, and the
    // users' unique index on the phone number would keep the erased number. Not SKIP_LOCKED:
    // a vacuum that another process runs may have started before this erasure committed.
    // On a connection of its own without the statement timeouts: it may wait for a lock.
    await unbounded(async (own) => {
      await own.execute(sql`vacuum (index_cleanup on) ${tables}`);
      // Crypto-shredding (modules/auth/identity.ts): with the keys in the database, the erased
      // key leaves the table's files at once. The table is small (a key per account, some 7 MB
      // at 100,000), so the rewrite holds up logins for milliseconds, where rewriting `users`
      // would not; on the embedded server the scrub below rewrites it with the others.
      if (!opts.scrub) {
        await own.execute(sql.raw(`set lock_timeout = '${SCRUB_LOCK_TIMEOUT_MS}ms'`));
        await own.execute(sql`vacuum full identity_keys`);
        await own.execute(sql`set lock_timeout = 0`);
        return;
      }
      const accounts = sql.join(
        ACCOUNT_TABLES.map((t) => sql.identifier(t)),
        sql`, `,
      );
      // VACUUM FULL locks the tables against every read: waiting behind a long transaction
      // would queue every login behind it, so it gives up instead (the follow-up tries again).
      await own.execute(sql.raw(`set lock_timeout = '${SCRUB_LOCK_TIMEOUT_MS}ms'`));
      await own.execute(sql`vacuum full ${accounts}`);
      await own.execute(sql`set lock_timeout = 0`);
      await own.execute(sql`select pg_switch_wal()`);
      await own.execute(sql`checkpoint`);
    }, signal);
    opts.onDone?.(Math.round(performance.now() - started));
  }

  async function loop() {
    const { signal } = stopping;
    while (wanted && !signal.aborted) {
      wanted = false;
      try {
        await pass(signal);
      } catch (err) {
        // Stopped: not an error. Else autovacuum, the follow-up or the next erasure catches up.
        if (!isAborted(signal)) opts.onError?.(err);
      }
    }
  }

  function start() {
    wanted = true;
    if (running) return;
    running = loop().finally(() => {
      running = undefined;
      // Asked for between the loop's last look and here: not lost.
      if (wanted && !stopping.signal.aborted) start();
    });
  }

  return {
    /** After an erasure committed: a pass now (or right after the running one) and a later one. */
    erased(): void {
      start();
      clearTimeout(followUp);
      if (followUpMs > 0) {
        followUp = setTimeout(start, followUpMs);
        followUp.unref();
      }
    },
    /** Resolves once no pass runs or is due now (tests; the follow-up may still come). */
    async settled(): Promise<void> {
      while (running) await running;
    },
    /** Stops: the running pass's connection is ended, the follow-up dropped. */
    async stop(): Promise<void> {
      clearTimeout(followUp);
      followUp = undefined;
      wanted = false;
      stopping.abort();
      stopping = new AbortController();
      await running;
    },
  };
}

export type ErasureVacuum = ReturnType<typeof createErasureVacuum>;
