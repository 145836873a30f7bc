import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { staffTotp } from '../../db/schema.js';

export type StaffTotpRow = typeof staffTotp.$inferSelect;

/** Staff accounts' second factors (decision 024). Every change is one statement. */
export function createSecondFactorRepository(db: Db) {
  return {
    async findTotp(userId: number): Promise<StaffTotpRow | undefined> {
      const [row] = await db.select().from(staffTotp).where(eq(staffTotp.userId, userId));
      return row;
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

    /** Removes the account's second factor: its next login enrols a new one. */
    async reset(userId: number): Promise<void> {
      await db.delete(staffTotp).where(eq(staffTotp.userId, userId));
    },
  };
}

export type SecondFactorRepository = ReturnType<typeof createSecondFactorRepository>;
