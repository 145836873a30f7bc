import { type SQL, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  answers,
  choices,
  questions,
  ratings,
  respondents,
  surveys,
  timings,
} from '../../db/schema.js';

/** Age bands: the oldest age of each band, then the name of the band above the last. */
export const AGE_BANDS: ReadonlyArray<readonly [oldest: number, band: string]> = [
  [17, 'under-18'],
  [24, '18-24'],
  [34, '25-34'],
  [44, '35-44'],
  [54, '45-54'],
  [64, '55-64'],
];
export const OLDEST_BAND = '65+';

// The same bands in SQL, for the one-statement creation (the bands are constants).
const ageBandSql = (age: SQL) =>
  sql.join(
    [
      sql`case`,
      ...AGE_BANDS.map(
        ([oldest, band]) => sql`when ${age} <= ${sql.raw(String(oldest))} then ${band}`,
      ),
      sql`else ${OLDEST_BAND} end`,
    ],
    sql` `,
  );

/** Respondents (pseudonymous answerers) and the account facts they are made from: Drizzle only. */
export function createRespondentsRepository(db: Db) {
  const byPseudonym = db
    .select({ id: respondents.id })
    .from(respondents)
    .where(eq(respondents.pseudonym, sql.placeholder('pseudonym')))
    .prepare('respondent_by_pseudonym');

  return {
    async findIdByPseudonym(pseudonym: string): Promise<number | undefined> {
      const [row] = await byPseudonym.execute({ pseudonym });
      return row?.id;
    },

    /**
     * The respondent of the account `uuid` (filed under `pseudonym`), created on first use in one
     * statement that copies the account's breakdown fields and standing; undefined when the
     * account does not exist. Race-safe: a concurrent creation wins and its id is returned; the
     * account row is share-locked, so an erasure or a review decision in progress is waited for
     * (and then no account, or the new standing, is found).
     */
    async getOrCreate(uuid: string, pseudonym: string, year: number): Promise<number | undefined> {
      // Counts in results: active and verified, as countsInResults() says.
      const result = await db.execute(sql`
        insert into respondents (pseudonym, gender, age_band, country, counts)
        select ${pseudonym}, u.gender, ${ageBandSql(sql`(${year}::int - u.year_of_birth)`)},
               u.country, (u.status = 'active' and u.phone_verified_at is not null)
        from users u where u.uuid = ${uuid}
        for share of u
        on conflict (pseudonym) do nothing
        returning id`);
      // Both drivers answer `{rows}` (node-postgres and PGlite).
      const [inserted] = (result as unknown as { rows: Array<{ id: number }> }).rows;
      if (inserted) return inserted.id;
      // Created meanwhile by another request or process (a new statement sees its commit), or
      // no such account.
      const [existing] = await byPseudonym.execute({ pseudonym });
      return existing?.id;
    },

    /** Everything stored under a respondent, with public ids and labels, for the member's export. */
    async exportOf(id: number) {
      const [profile] = await db
        .select({
          gender: respondents.gender,
          ageBand: respondents.ageBand,
          country: respondents.country,
          counts: respondents.counts,
        })
        .from(respondents)
        .where(eq(respondents.id, id));
      const [answered, rated, timed] = await Promise.all([
        db
          .select({
            qid: questions.qid,
            question: questions.text,
            gid: surveys.gid,
            survey: surveys.name,
            choice: choices.label,
            text: answers.text,
            isBlank: answers.isBlank,
            answeredOn: answers.answeredOn,
            moderation: answers.moderation,
            idempotencyKey: answers.idempotencyKey,
          })
          .from(answers)
          .innerJoin(questions, eq(questions.id, answers.questionId))
          .innerJoin(surveys, eq(surveys.id, questions.surveyId))
          .leftJoin(choices, eq(choices.id, answers.choiceId))
          .where(eq(answers.respondentId, id))
          .orderBy(desc(answers.id)),
        db
          .select({ qid: questions.qid, score: ratings.score })
          .from(ratings)
          .innerJoin(questions, eq(questions.id, ratings.questionId))
          .where(eq(ratings.respondentId, id)),
        db
          .select({ qid: questions.qid, kind: timings.kind, durationMs: timings.durationMs })
          .from(timings)
          .innerJoin(questions, eq(questions.id, timings.questionId))
          .where(eq(timings.respondentId, id))
          .orderBy(timings.id),
      ]);
      return { profile, answered, rated, timed };
    },

    /** Deletes the respondent; its answers, ratings and timings go with it (cascade). */
    async deleteRespondent(id: number): Promise<void> {
      await db.delete(respondents).where(eq(respondents.id, id));
    },
  };
}

export type RespondentsRepository = ReturnType<typeof createRespondentsRepository>;
