import { and, count, desc, eq, gt, like, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  auditLog,
  refreshTokens,
  staffPasskeys,
  staffTotp,
  users,
  webauthnChallenges,
} from '../../db/schema.js';
import { type AuditInsert, insertAuditEntry } from '../audit/audit.repository.js';
import type { SessionChanges } from '../auth/session-changes.js';

export type UserRow = typeof users.$inferSelect;

/** What a reveal found: the number, the actor over their limit (and when a slot frees), or none. */
export type RevealOutcome =
  | { kind: 'revealed'; phoneE164: string }
  | { kind: 'limited'; retryAfterMs: number }
  | { kind: 'not_found' };

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

    /**
     * The whole number of `uuid`, read in one transaction with its audit entry: the entry is
     * written before the number is returned, or neither happens. The actor's earlier reveals in
     * the audit log are the rate limit: at most `limit` within `windowSeconds` (their row is
     * locked, so two reveals at once count each other).
     */
    async revealNumber(
      uuid: string,
      entry: AuditInsert,
      limit: { max: number; windowSeconds: number },
    ): Promise<RevealOutcome> {
      return db.transaction(async (tx) => {
        const [actor] = await tx
          .select({ id: users.id })
          .from(users)
          .where(eq(users.uuid, entry.actorUuid))
          .for('update');
        if (actor) {
          const [recent] = await tx
            .select({
              n: count(),
              freesInMs: sql<string | null>`extract(epoch from (${min(auditLog.at)}
                + make_interval(secs => ${limit.windowSeconds}) - now())) * 1000`,
            })
            .from(auditLog)
            .where(
              and(
                eq(auditLog.actorId, actor.id),
                eq(auditLog.action, entry.action),
                gt(auditLog.at, sql`now() - make_interval(secs => ${limit.windowSeconds})`),
              ),
            );
          if ((recent?.n ?? 0) >= limit.max) {
            return { kind: 'limited', retryAfterMs: Math.max(1000, Number(recent?.freesInMs)) };
          }
        }
        const [user] = await tx
          .select({ phoneE164: users.phoneE164 })
          .from(users)
          .where(eq(users.uuid, uuid));
        if (!user) return { kind: 'not_found' };
        await insertAuditEntry(tx, entry);
        return { kind: 'revealed', phoneE164: user.phoneE164 };
      });
    },

    /** Sets the role or the status; what the user's tokens may do changes with it. */
    async setStanding(
      id: number,
      values: Partial<Pick<UserRow, 'role' | 'status'>>,
    ): Promise<UserRow | undefined> {
      // Announced with the write; it returns once every process honours it.
      return sessionChanges.write(true, async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ ...values, updatedAt: sql`now()` })
          .where(eq(users.id, id))
          .returning();
        return { uuid: row?.uuid, result: row };
      });
    },

    /**
     * Removes the account's second factors, its TOTP and every passkey (decision 024), in one
     * transaction: its next login enrols a new one.
     */
    async resetSecondFactor(userId: number): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(staffTotp).where(eq(staffTotp.userId, userId));
        await tx.delete(staffPasskeys).where(eq(staffPasskeys.userId, userId));
        await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
      });
    },

    /** Ends every session of the user (their refresh tokens are revoked), on every process. */
    async endSessions(userId: number, now: Date): Promise<void> {
      await sessionChanges.revokeSessions(eq(refreshTokens.userId, userId), now);
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
