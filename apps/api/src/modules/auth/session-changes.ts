import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/**
 * NOTIFY channel of session changes (payload: the user's uuid): a logout, a revoked session, or
 * a change of the account's role or status. Every API process listens and drops what it had
 * cached about that user's access tokens (session-gate.ts).
 */
export const SESSION_CHANNEL = 'candor_sessions';

/** What can run a statement: the database or one of its transactions. */
export type Executor = Pick<Db, 'execute'>;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface SessionChangeOptions {
  /** Told at once, in this process, after a write changed what the user's tokens may do. */
  onSessionChange?: (uuid: string) => void;
  /**
   * How long a change that lets tokens do less waits after its commit before it returns: the
   * other processes' lease (session-gate.ts SESSION_LEASE_MS), after which each has heard it or
   * stopped trusting its cache. 0 (default) when no other process can have a cache (PGlite).
   */
  settleMs?: number;
}

/**
 * Announces that a user's tokens may now do less (or more). The NOTIFY goes in the transaction
 * (or the statement) that writes the change, so it is delivered at its commit and never without
 * it; once committed, this process forgets at once, and a change that takes something away
 * waits out the other processes' lease, so that when the caller answers (a logout's 204) no
 * process admits what was ended (decision 023).
 */
export function createSessionChanges(db: Db, opts: SessionChangeOptions = {}) {
  const settleMs = opts.settleMs ?? 0;

  /** The NOTIFY of a change to `uuid`, run in the writing transaction: sent at its commit. */
  async function announce(tx: Executor, uuid: string): Promise<void> {
    await tx.execute(sql`select pg_notify(${SESSION_CHANNEL}, ${uuid})`);
  }

  /**
   * After the commit of a change announced for `uuids`: this process forgets them, and when
   * `narrows` (tokens may now do less) the lease is waited out.
   */
  async function committed(uuids: readonly string[], narrows: boolean): Promise<void> {
    for (const uuid of uuids) opts.onSessionChange?.(uuid);
    if (!narrows || settleMs <= 0 || uuids.length === 0) return;
    // Measured on the monotonic clock, as the leases are; a timer may fire a little early.
    const until = performance.now() + settleMs;
    for (let left = settleMs; left > 0; left = until - performance.now()) {
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
    }
  }

  return {
    announce,
    committed,

    /**
     * Revokes the live refresh tokens `which` selects (a condition on refresh_tokens) and
     * announces it to their users in the same statement, then `committed`: their sessions have
     * ended on every process when it returns. The uuids of the users whose sessions ended.
     */
    async revokeSessions(which: SQL, now: Date): Promise<string[]> {
      const result = await db.execute(sql`
        with revoked as (
          update refresh_tokens set revoked_at = ${now.toISOString()}::timestamptz
          where revoked_at is null and (${which})
          returning user_id)
        select u.uuid::text as uuid, pg_notify(${SESSION_CHANNEL}, u.uuid::text)::text as sent
        from users u where u.id in (select user_id from revoked)`);
      const uuids = (result as { rows: Array<{ uuid: string }> }).rows.map((r) => r.uuid);
      await committed(uuids, true);
      return uuids;
    },

    /**
     * Runs `write` in a transaction that also announces the change to the uuid it returns (none:
     * nothing changed), then `committed`. Returns what `write` returned.
     */
    async write<T>(
      narrows: boolean,
      write: (tx: Tx) => Promise<{ uuid: string | undefined; result: T }>,
    ): Promise<T> {
      const { uuid, result } = await db.transaction(async (tx) => {
        const done = await write(tx);
        if (done.uuid) await announce(tx, done.uuid);
        return done;
      });
      await committed(uuid ? [uuid] : [], narrows);
      return result;
    },
  };
}

export type SessionChanges = ReturnType<typeof createSessionChanges>;
