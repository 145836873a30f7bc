import { and, count, desc, eq, isNull, like, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { refreshTokens, users } from '../../db/schema.js';
import type { SessionChanges } from '../auth/session-changes.js';

export type UserRow = typeof users.$inferSelect;

/**
 * Accounts as admins see and change them: Drizzle only. Role and status writes are announced
 * through `sessionChanges` (the auth repository's too), so tokens stop at once.
 */
export function createUsersRepository(db: Db, sessionChanges: SessionChanges) {
  return {
    async findByUuid(uuid: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.uuid, uuid));
      return row;
    },

    /** Accounts whose E.164 number starts with `prefix` (all when empty), newest first. */
    async searchByPhone(prefix: string, offset: number, limit: number) {
      const where = prefix ? like(users.phoneE164, `${prefix}%`) : undefined;
      const [rows, [total]] = await Promise.all([
        db.select().from(users).where(where).orderBy(desc(users.id)).offset(offset).limit(limit),
        db.select({ n: count() }).from(users).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** Sets the role or the status; what the user's tokens may do changes with it. */
    async setStanding(
      id: number,
      values: Partial<Pick<UserRow, 'role' | 'status'>>,
    ): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(users.id, id))
        .returning();
      if (row) await sessionChanges.changed(row.uuid);
      return row;
    },

    /** Ends every session of the user (their refresh tokens are revoked). */
    async endSessions(userId: number, now: Date): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
      await sessionChanges.changedById(userId);
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
