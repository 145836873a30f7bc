import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';

/**
 * NOTIFY channel of session changes (payload: the user's uuid): a logout, a revoked session, or
 * a change of the account's role or status. Every API process listens and drops what it had
 * cached about that user's access tokens (session-gate.ts).
 */
export const SESSION_CHANNEL = 'candor_sessions';

export interface SessionChangeOptions {
  /** Told at once, in this process, after a write changed what the user's tokens may do. */
  onSessionChange?: (uuid: string) => void;
}

/**
 * Announces that a user's tokens may now do less (or more): this process first
 * (synchronously), then every process through the database. Each repository that writes a
 * role, a status or a session calls it after the write.
 */
export function createSessionChanges(db: Db, opts: SessionChangeOptions = {}) {
  async function changed(uuid: string): Promise<void> {
    opts.onSessionChange?.(uuid);
    await db.execute(sql`select pg_notify(${SESSION_CHANNEL}, ${uuid})`);
  }

  return {
    changed,

    /** The same, for a user known by row id. */
    async changedById(userId: number): Promise<void> {
      const [row] = await db.select({ uuid: users.uuid }).from(users).where(eq(users.id, userId));
      if (row) await changed(row.uuid);
    },
  };
}

export type SessionChanges = ReturnType<typeof createSessionChanges>;
