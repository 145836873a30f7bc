import { and, asc, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { groupBy } from '../../lib/group-by.js';
import { choices, genres, questions, surveyGenres, surveys } from '../../db/schema.js';

const listed = (now: Date) => and(isNotNull(surveys.publishedAt), lte(surveys.releaseDate, now));

type SurveyRow = typeof surveys.$inferSelect;
type QuestionRow = typeof questions.$inferSelect;
type ChoiceRow = typeof choices.$inferSelect;
type GenreRow = typeof genres.$inferSelect;

export type SurveyWithContent = SurveyRow & {
  questions: Array<QuestionRow & { choices: ChoiceRow[] }>;
  genres: GenreRow[];
};

/**
 * Reads published, released surveys with their questions, choices and genres. Three flat
 * queries assembled here beat one nested JSON-aggregating query several times over
 * (docs/performance.md), most of all on PGlite.
 */
export function createSurveysRepository(db: Db) {
  async function withContent(rows: SurveyRow[]): Promise<SurveyWithContent[]> {
    if (!rows.length) return [];
    const ids = rows.map((s) => s.id);
    const [questionRows, choiceRows, genreRows] = await Promise.all([
      db
        .select()
        .from(questions)
        .where(inArray(questions.surveyId, ids))
        .orderBy(asc(questions.surveyId), asc(questions.position)),
      db
        .select({ choice: choices })
        .from(choices)
        .innerJoin(questions, eq(questions.id, choices.questionId))
        .where(inArray(questions.surveyId, ids))
        .orderBy(asc(choices.questionId), asc(choices.position)),
      db
        .select({ surveyId: surveyGenres.surveyId, genre: genres })
        .from(surveyGenres)
        .innerJoin(genres, eq(genres.id, surveyGenres.genreId))
        .where(inArray(surveyGenres.surveyId, ids))
        .orderBy(asc(genres.name)),
    ]);
    const choicesOf = groupBy(
      choiceRows.map((r) => r.choice),
      (c) => c.questionId,
    );
    const questionsOf = groupBy(
      questionRows.map((q) => ({ ...q, choices: choicesOf.get(q.id) ?? [] })),
      (q) => q.surveyId,
    );
    const genresOf = groupBy(genreRows, (g) => g.surveyId);
    return rows.map((s) => ({
      ...s,
      questions: questionsOf.get(s.id) ?? [],
      genres: (genresOf.get(s.id) ?? []).map((g) => g.genre),
    }));
  }

  return {
    /** Every listed survey in slot order, with its content. */
    async listListed(now: Date): Promise<SurveyWithContent[]> {
      const rows = await db
        .select()
        .from(surveys)
        .where(listed(now))
        .orderBy(asc(surveys.slot), asc(surveys.id));
      return withContent(rows);
    },

    async findListedByGid(gid: string, now: Date): Promise<SurveyWithContent | undefined> {
      const rows = await db
        .select()
        .from(surveys)
        .where(and(eq(surveys.gid, gid), listed(now)));
      return (await withContent(rows))[0];
    },

    /** A survey by gid whatever its status (draft, scheduled, open or closed), for staff. */
    async findAnyByGid(gid: string): Promise<SurveyWithContent | undefined> {
      const rows = await db.select().from(surveys).where(eq(surveys.gid, gid));
      return (await withContent(rows))[0];
    },
  };
}

export type SurveysRepository = ReturnType<typeof createSurveysRepository>;
