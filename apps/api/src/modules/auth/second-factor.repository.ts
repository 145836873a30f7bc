import { and, asc, count, desc, eq, gt, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { refreshTokens, staffPasskeys, staffTotp, webauthnChallenges } from '../../db/schema.js';

export type StaffTotpRow = typeof staffTotp.$inferSelect;
export type StaffPasskeyRow = typeof staffPasskeys.$inferSelect;
export type NewStaffPasskey = typeof staffPasskeys.$inferInsert;
/** Live WebAuthn challenges an account keeps: a few browser tabs' worth. */
const CHALLENGES_KEPT = 5;

/** The ceremony a WebAuthn challenge was made for: a login's second step, or adding a passkey. */
export type WebauthnPurpose = 'login' | 'register';

/** Staff accounts' second factors (decision 024). Every change is one statement. */
export function createSecondFactorRepository(db: Db) {
  return {
    async findTotp(userId: number): Promise<StaffTotpRow | undefined> {
      const [row] = await db.select().from(staffTotp).where(eq(staffTotp.userId, userId));
      return row;
    },

    /**
     * When the staff session `sid` was opened with its second factor (its refresh-token
     * family's first token); undefined for a session opened without one, or unknown.
     */
    async secondStepAt(userId: number, sid: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ at: sql<Date | string | null>`min(${refreshTokens.createdAt})` })
        .from(refreshTokens)
        .where(
          and(
            eq(refreshTokens.userId, userId),
            eq(refreshTokens.familyId, sid),
            eq(refreshTokens.secondFactor, true),
          ),
        );
      return row?.at ? new Date(row.at) : undefined;
    },

    /** Whether the account has a confirmed second factor (else its next login enrols one). */
    async enrolled(userId: number): Promise<boolean> {
      const [row] = await db
        .select({ confirmedAt: staffTotp.confirmedAt })
        .from(staffTotp)
        .where(eq(staffTotp.userId, userId));
      return row?.confirmedAt != null;
    },

    /**
     * Starts an enrolment with a new sealed secret, or restarts one not confirmed yet (a reload
     * of the enrolment screen). False when the account has a confirmed factor: it is never
     * replaced this way, only reset by another admin (or the create-admin command).
     */
    async startTotp(userId: number, secretSealed: string, now: Date): Promise<boolean> {
      const rows = await db
        .insert(staffTotp)
        .values({ userId, secretSealed, createdAt: now })
        .onConflictDoUpdate({
          target: staffTotp.userId,
          set: { secretSealed, createdAt: now, lastStep: null },
          setWhere: isNull(staffTotp.confirmedAt),
        })
        .returning({ userId: staffTotp.userId });
      return rows.length > 0;
    },

    /**
     * Spends the time step of a right code: true once per step and only for steps after the
     * last one spent (a replayed code, even in its own 30 seconds, and any older one fail), and
     * only while the secret the code was checked against is still the account's. The first
     * code confirms an enrolment. Atomic: of concurrent requests with one code, one wins.
     */
    async spendStep(
      userId: number,
      secretSealed: string,
      step: number,
      now: Date,
    ): Promise<boolean> {
      const rows = await db
        .update(staffTotp)
        .set({ lastStep: step, confirmedAt: sql`coalesce(${staffTotp.confirmedAt}, ${now})` })
        .where(
          and(
            eq(staffTotp.userId, userId),
            eq(staffTotp.secretSealed, secretSealed),
            or(isNull(staffTotp.lastStep), lt(staffTotp.lastStep, step)),
          ),
        )
        .returning({ userId: staffTotp.userId });
      return rows.length > 0;
    },

    /** Whether the account has any passkey (its login then offers one first). */
    async hasPasskey(userId: number): Promise<boolean> {
      const [row] = await db
        .select({ n: count() })
        .from(staffPasskeys)
        .where(eq(staffPasskeys.userId, userId));
      return (row?.n ?? 0) > 0;
    },

    /** The account's passkeys, oldest first. */
    async listPasskeys(userId: number): Promise<StaffPasskeyRow[]> {
      return db
        .select()
        .from(staffPasskeys)
        .where(eq(staffPasskeys.userId, userId))
        .orderBy(asc(staffPasskeys.createdAt), asc(staffPasskeys.id));
    },

    /** The account's passkey with this credential id; another account's is not found. */
    async findPasskey(userId: number, credentialId: string): Promise<StaffPasskeyRow | undefined> {
      const [row] = await db
        .select()
        .from(staffPasskeys)
        .where(and(eq(staffPasskeys.userId, userId), eq(staffPasskeys.credentialId, credentialId)));
      return row;
    },

    /** Stores a new passkey; undefined when its credential id is stored already (any account). */
    async addPasskey(row: NewStaffPasskey): Promise<StaffPasskeyRow | undefined> {
      const [added] = await db
        .insert(staffPasskeys)
        .values(row)
        .onConflictDoNothing({ target: staffPasskeys.credentialId })
        .returning();
      return added;
    },

    /**
     * Moves a passkey's signature counter from the value its answer was checked against to the
     * answer's: true once (compare and set), so of two answers checked against one stored
     * counter only one counts, on any number of processes.
     */
    async spendCounter(id: string, from: number, to: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(staffPasskeys)
        .set({ counter: to, lastUsedAt: now })
        .where(and(eq(staffPasskeys.id, id), eq(staffPasskeys.counter, from)))
        .returning({ id: staffPasskeys.id });
      return rows.length > 0;
    },

    /** Removes one of the account's passkeys; false when it has none of that id. */
    async removePasskey(userId: number, id: string): Promise<boolean> {
      const rows = await db
        .delete(staffPasskeys)
        .where(and(eq(staffPasskeys.userId, userId), eq(staffPasskeys.id, id)))
        .returning({ id: staffPasskeys.id });
      return rows.length > 0;
    },

    /**
     * Keeps a WebAuthn challenge until `expiresAt`. The account's expired ones go, and so do all
     * but its newest few: asking for options again and again piles up no rows.
     */
    async putChallenge(
      userId: number,
      purpose: WebauthnPurpose,
      challenge: string,
      expiresAt: Date,
      now: Date,
    ): Promise<void> {
      await db.insert(webauthnChallenges).values({ challenge, userId, purpose, expiresAt });
      const kept = db
        .select({ challenge: webauthnChallenges.challenge })
        .from(webauthnChallenges)
        .where(and(eq(webauthnChallenges.userId, userId), gt(webauthnChallenges.expiresAt, now)))
        .orderBy(desc(webauthnChallenges.expiresAt))
        .limit(CHALLENGES_KEPT);
      await db
        .delete(webauthnChallenges)
        .where(
          and(
            eq(webauthnChallenges.userId, userId),
            or(
              lte(webauthnChallenges.expiresAt, now),
              notInArray(webauthnChallenges.challenge, kept),
            ),
          ),
        );
    },

    /**
     * Takes a challenge made for this account and ceremony, not expired: true once. One DELETE,
     * so of concurrent answers to one challenge, one wins.
     */
    async takeChallenge(
      userId: number,
      purpose: WebauthnPurpose,
      challenge: string,
      now: Date,
    ): Promise<boolean> {
      const rows = await db
        .delete(webauthnChallenges)
        .where(
          and(
            eq(webauthnChallenges.challenge, challenge),
            eq(webauthnChallenges.userId, userId),
            eq(webauthnChallenges.purpose, purpose),
            gt(webauthnChallenges.expiresAt, now),
          ),
        )
        .returning({ challenge: webauthnChallenges.challenge });
      return rows.length > 0;
    },

    /** Removes the account's second factors (TOTP and passkeys): its next login enrols anew. */
    async reset(userId: number): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(staffTotp).where(eq(staffTotp.userId, userId));
        await tx.delete(staffPasskeys).where(eq(staffPasskeys.userId, userId));
        await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
      });
    },
  };
}

export type SecondFactorRepository = ReturnType<typeof createSecondFactorRepository>;
