import { and, count, desc, eq, gt, min, sql } from 'drizzle-orm';
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
import type { UserRow } from '../auth/auth.repository.js';
import type { Identities } from '../auth/identity.js';
import type { SessionChanges } from '../auth/session-changes.js';

export type { UserRow };

/** What a reveal found: the number, the actor over their limit (and when a slot frees), or none. */
export type RevealOutcome =
  | { kind: 'revealed'; phoneE164: string }
  | { kind: 'limited'; retryAfterMs: number }
  | { kind: 'not_found' };

/**
 * Accounts as admins see and change them: Drizzle only. Role and status writes are announced
 * through `sessionChanges` (the auth repository's too), so tokens stop at once.
 */
export function createUsersRepository(
  db: Db,
  identities: Identities,
  sessionChanges: SessionChanges,
) {
  return {
    async findByUuid(uuid: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.uuid, uuid));
      return identities.openOne(row);
    },

    /**
     * The account of the whole E.164 number `phone` (every account when empty), newest first:
     * found by its lookup HMAC, since the number itself is sealed.
     */
    async searchByPhone(phone: string, offset: number, limit: number) {
      const where = phone ? eq(users.phoneLookup, identities.lookup(phone)) : undefined;
      const [rows, [total]] = await Promise.all([
        db.select().from(users).where(where).orderBy(desc(users.id)).offset(offset).limit(limit),
        db.select({ n: count() }).from(users).where(where),
      ]);
      return { rows: await identities.open(rows), total: total?.n ?? 0 };
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
      // The number is opened after the transaction: the key store may need a connection of its own.
      const outcome = await db.transaction(async (tx) => {
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
            return {
              kind: 'limited' as const,
              retryAfterMs: Math.max(1000, Number(recent?.freesInMs)),
            };
          }
        }
        const [user] = await tx
          .select({ uuid: users.uuid, identity: users.identity })
          .from(users)
          .where(eq(users.uuid, uuid));
        if (!user) return { kind: 'not_found' as const };
        await insertAuditEntry(tx, entry);
        return { kind: 'sealed' as const, user };
      });
      if (outcome.kind !== 'sealed') return outcome;
      const opened = await identities.openOne(outcome.user);
      return { kind: 'revealed', phoneE164: opened!.phoneE164 };
    },

    /** Sets the role or the status; what the user's tokens may do changes with it. */
    async setStanding(
      id: number,
      values: Partial<Pick<UserRow, 'role' | 'status'>>,
    ): Promise<UserRow | undefined> {
      // Announced with the write; it returns once every process honours it.
      const row = await sessionChanges.write(true, async (tx) => {
        const [written] = await tx
          .update(users)
          .set({ ...values, updatedAt: sql`now()` })
          .where(eq(users.id, id))
          .returning();
        return { uuid: written?.uuid, result: written };
      });
      return identities.openOne(row);
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
