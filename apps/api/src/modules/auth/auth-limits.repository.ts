import { eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { authLimits } from '../../db/schema.js';

/** A refused take: how long until it would be granted (the cap: until a success clears it). */
export interface Refusal {
  retryInMs: number;
  /** The streak reached its cap: no wait ends it, only a success (a reset by code). */
  capped?: boolean;
}

/**
 * The account limits' counters in the database (decision 022): every API process, with or
 * without Redis, sees the same counts, and a take is one statement, so a burst of concurrent
 * requests on any number of processes never gets more than the limit.
 */
export function createAuthLimitsRepository(db: Db) {
  async function endsOf(key: string, now: Date): Promise<number> {
    const [row] = await db
      .select({ endsAt: authLimits.endsAt })
      .from(authLimits)
      .where(eq(authLimits.key, key));
    return row ? Math.max(1000, row.endsAt.getTime() - now.getTime()) : 1000;
  }

  return {
    /** One slot of a fixed window: granted while the window holds fewer than `limit`. */
    async takeWindow(
      key: string,
      limit: number,
      windowMs: number,
      now: Date,
    ): Promise<Refusal | null> {
      const ends = new Date(now.getTime() + windowMs);
      const expired = sql`${authLimits.endsAt} <= ${now}`;
      const rows = await db
        .insert(authLimits)
        .values({ key, count: 1, lastAt: now, endsAt: ends })
        .onConflictDoUpdate({
          target: authLimits.key,
          set: {
            count: sql`case when ${expired} then 1 else ${authLimits.count} + 1 end`,
            endsAt: sql`case when ${expired} then ${ends}::timestamptz else ${authLimits.endsAt} end`,
            lastAt: now,
          },
          setWhere: sql`${expired} or ${authLimits.count} < ${limit}`,
        })
        .returning({ count: authLimits.count });
      return rows.length ? null : { retryInMs: await endsOf(key, now) };
    },

    /**
     * One more consecutive failure (taken before the check): granted below `cap`, and, unless
     * `exempt`, only once the last one is `delay(count)` old, where the delay doubles from
     * `unitMs` after `free` failures up to `maxDelayMs`. The count lasts `keepMs` after the last.
     */
    async takeStreak(
      key: string,
      o: {
        free: number;
        cap: number;
        unitMs: number;
        maxDelayMs: number;
        keepMs: number;
        exempt: boolean;
      },
      now: Date,
    ): Promise<Refusal | null> {
      const ends = new Date(now.getTime() + o.keepMs);
      const expired = sql`${authLimits.endsAt} <= ${now}`;
      const delayMs = sql`least(${o.unitMs}::float8 * power(2::float8, ${authLimits.count} - ${o.free}), ${o.maxDelayMs}::float8)`;
      const waited = o.exempt
        ? sql`true`
        : sql`(${authLimits.count} < ${o.free} or ${authLimits.lastAt} + ${delayMs} * interval '1 millisecond' <= ${now})`;
      const rows = await db
        .insert(authLimits)
        .values({ key, count: 1, lastAt: now, endsAt: ends })
        .onConflictDoUpdate({
          target: authLimits.key,
          set: {
            count: sql`case when ${expired} then 1 else ${authLimits.count} + 1 end`,
            endsAt: ends,
            lastAt: now,
          },
          setWhere: sql`${expired} or (${authLimits.count} < ${o.cap} and ${waited})`,
        })
        .returning({ count: authLimits.count });
      if (rows.length) return null;
      const [row] = await db
        .select({
          count: authLimits.count,
          readyAt: sql<Date>`${authLimits.lastAt} + ${delayMs} * interval '1 millisecond'`,
        })
        .from(authLimits)
        .where(eq(authLimits.key, key));
      if (!row) return { retryInMs: 1000 };
      if (row.count >= o.cap) return { retryInMs: o.maxDelayMs, capped: true };
      return { retryInMs: Math.max(1000, new Date(row.readyAt).getTime() - now.getTime()) };
    },

    /** Gives one slot back (a check that reached no verdict). */
    async release(key: string): Promise<void> {
      await db
        .update(authLimits)
        .set({ count: sql`greatest(${authLimits.count} - 1, 0)` })
        .where(eq(authLimits.key, key));
    },

    /** Forgets the key (a success ends a streak and its pair's window). */
    async clear(key: string): Promise<void> {
      await db.delete(authLimits).where(eq(authLimits.key, key));
    },

    /**
     * Drops counters past their end (each maintenance pass; a stale row already counts as
     * absent): how many went.
     */
    async sweep(now: Date): Promise<number> {
      const gone = await db
        .delete(authLimits)
        .where(lte(authLimits.endsAt, now))
        .returning({ key: authLimits.key });
      return gone.length;
    },
  };
}

export type AuthLimitsRepository = ReturnType<typeof createAuthLimitsRepository>;
