import { and, count, desc, gte, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { pageViews } from '../../db/schema.js';

/** First-party page views: Drizzle only. */
export function createPageViewsRepository(db: Db) {
  return {
    async insert(values: typeof pageViews.$inferInsert): Promise<void> {
      await db.insert(pageViews).values(values);
    },

    /** Views per day, per route pattern and per referring host between two days (inclusive). */
    async stats(from: string, to: string) {
      // Views of the staff area stored before they were dropped (page-views.service) are left out.
      const inPeriod = and(
        gte(pageViews.day, from),
        lte(pageViews.day, to),
        sql`${pageViews.path} <> '/admin' and ${pageViews.path} not like '/admin/%'`,
      );
      const views = count();
      const [perDay, perPath, perReferrer] = await Promise.all([
        db
          .select({ day: pageViews.day, views })
          .from(pageViews)
          .where(inPeriod)
          .groupBy(pageViews.day),
        db
          .select({ path: pageViews.path, views })
          .from(pageViews)
          .where(inPeriod)
          .groupBy(pageViews.path)
          .orderBy(desc(views), pageViews.path)
          .limit(20),
        db
          .select({ host: pageViews.referrerHost, views })
          .from(pageViews)
          .where(and(inPeriod, isNotNull(pageViews.referrerHost)))
          .groupBy(pageViews.referrerHost)
          .orderBy(desc(views), pageViews.referrerHost)
          .limit(20),
      ]);
      return { perDay, perPath, perReferrer };
    },
  };
}

export type PageViewsRepository = ReturnType<typeof createPageViewsRepository>;
