import { and, asc, gt, like, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { respondents } from '../../db/schema.js';

/** Respondents' stored profiles, for sealing the old plain ones: Drizzle only. */
export function createRespondentsRepository(db: Db) {
  return {
    /**
     * Profiles the 0007 migration left unsealed (`plain:...`) with ids above `after`, a batch at
     * a time in id order (by the primary key: each batch starts where the last ended, instead of
     * scanning again past every row already sealed).
     */
    async unsealedProfiles(after: number, limit: number) {
      return db
        .select({ id: respondents.id, profile: respondents.profile })
        .from(respondents)
        .where(and(gt(respondents.id, after), like(respondents.profile, 'plain:%')))
        .orderBy(asc(respondents.id))
        .limit(limit);
    },

    /** Replaces the profiles of the respondents given, in one statement. */
    async setProfiles(rows: Array<{ id: number; profile: string }>): Promise<void> {
      if (!rows.length) return;
      await db.execute(sql`
        update respondents r set profile = v.profile
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id int, profile text)
        where r.id = v.id`);
    },
  };
}

export type RespondentsRepository = ReturnType<typeof createRespondentsRepository>;
