import { and, asc, count, desc, eq, max } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { panelCompletions, surveys } from '../../db/schema.js';

export type NewPanelCompletion = Omit<typeof panelCompletions.$inferInsert, 'id'>;
export type StoredPanelCompletion = Pick<
  typeof panelCompletions.$inferSelect,
  'participantHash' | 'code' | 'completedAt'
>;

/** Panel completions: Drizzle only. */
export function createPanelsRepository(db: Db) {
  const stored = {
    participantHash: panelCompletions.participantHash,
    code: panelCompletions.code,
    completedAt: panelCompletions.completedAt,
  };

  return {
    /** The internal id of a survey of any status, for staff. */
    async surveyIdOf(gid: string): Promise<number | undefined> {
      const [row] = await db.select({ id: surveys.id }).from(surveys).where(eq(surveys.gid, gid));
      return row?.id;
    },

    /** Records a completion unless the respondent or the participant already has one: true if new. */
    async insert(values: NewPanelCompletion): Promise<boolean> {
      const rows = await db
        .insert(panelCompletions)
        .values(values)
        .onConflictDoNothing()
        .returning({ id: panelCompletions.id });
      return rows.length === 1;
    },

    /** The completion of a panel's survey held by a respondent. */
    async find(
      surveyId: number,
      panel: string,
      by: { respondentKey: string },
    ): Promise<StoredPanelCompletion | undefined> {
      const [row] = await db
        .select(stored)
        .from(panelCompletions)
        .where(
          and(
            eq(panelCompletions.surveyId, surveyId),
            eq(panelCompletions.panel, panel),
            eq(panelCompletions.respondentKey, by.respondentKey),
          ),
        );
      return row;
    },

    /**
     * The first completion of a panel's survey that carries a code (one participant's: several
     * accounts may have completed for the same participant id).
     */
    async first(
      surveyId: number,
      panel: string,
      code: string,
    ): Promise<StoredPanelCompletion | undefined> {
      const [row] = await db
        .select(stored)
        .from(panelCompletions)
        .where(
          and(
            eq(panelCompletions.surveyId, surveyId),
            eq(panelCompletions.panel, panel),
            eq(panelCompletions.code, code),
          ),
        )
        .orderBy(asc(panelCompletions.completedAt))
        .limit(1);
      return row;
    },

    /** Completions per panel of a survey, most first. */
    async counts(surveyId: number) {
      const completions = count(panelCompletions.id);
      return db
        .select({
          panel: panelCompletions.panel,
          completions,
          last: max(panelCompletions.completedAt),
        })
        .from(panelCompletions)
        .where(eq(panelCompletions.surveyId, surveyId))
        .groupBy(panelCompletions.panel)
        .orderBy(desc(completions), asc(panelCompletions.panel));
    },

    /** Every completion of a survey: what the CSV lists (it orders them by panel, day, code). */
    async list(surveyId: number) {
      return db
        .select({
          panel: panelCompletions.panel,
          code: panelCompletions.code,
          completedAt: panelCompletions.completedAt,
        })
        .from(panelCompletions)
        .where(eq(panelCompletions.surveyId, surveyId))
        .orderBy(
          asc(panelCompletions.panel),
          asc(panelCompletions.completedAt),
          asc(panelCompletions.code),
        );
    },
  };
}

export type PanelsRepository = ReturnType<typeof createPanelsRepository>;
