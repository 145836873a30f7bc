import type { Db } from '../../db/client.js';
import { pageViews } from '../../db/schema.js';

/** First-party page views: Drizzle only. */
export function createPageViewsRepository(db: Db) {
  return {
    async insert(values: typeof pageViews.$inferInsert): Promise<void> {
      await db.insert(pageViews).values(values);
    },
  };
}

export type PageViewsRepository = ReturnType<typeof createPageViewsRepository>;
