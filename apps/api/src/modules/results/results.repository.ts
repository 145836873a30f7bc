import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { answerCounts } from '../../db/schema.js';

export interface CountRow {
  choiceId: number;
  isBlank: boolean;
  n: number;
}

/** answer_counts, and the fold that moves answers into them: Drizzle only. */
export function createResultsRepository(db: Db) {
  return {
    /**
     * Adds the question's answers not folded yet to answer_counts, in one statement. The UPDATE
     * locks the rows it marks, so concurrent folds (other requests, other processes) each count
     * a row exactly once; answers of respondents who do not count are marked and left out.
     * Count rows are upserted in a fixed order, so two folds cannot deadlock on them.
     */
    async fold(questionId: number): Promise<void> {
      await db.execute(sql`
        with f as (
          update answers set folded = true
          where question_id = ${questionId} and not folded
          returning respondent_id, choice_id, is_blank
        )
        insert into answer_counts (question_id, dimension, bucket, choice_id, is_blank, n)
        select ${questionId}, d.dimension, d.bucket, coalesce(f.choice_id, 0), f.is_blank,
               count(*)::int
        from f
        join respondents r on r.id = f.respondent_id
        cross join lateral (values
          ('all', ''), ('gender', r.gender::text), ('age', r.age_band), ('country', r.country)
        ) as d(dimension, bucket)
        where r.counts
        group by 2, 3, 4, 5
        order by 2, 3, 4, 5
        on conflict (question_id, dimension, bucket, choice_id, is_blank)
        do update set n = answer_counts.n + excluded.n`);
    },

    /** The question's counts over everyone (dimension `all`): a handful of rows. */
    async readAll(questionId: number): Promise<CountRow[]> {
      return db
        .select({
          choiceId: answerCounts.choiceId,
          isBlank: answerCounts.isBlank,
          n: answerCounts.n,
        })
        .from(answerCounts)
        .where(and(eq(answerCounts.questionId, questionId), eq(answerCounts.dimension, 'all')));
    },
  };
}

export type ResultsRepository = ReturnType<typeof createResultsRepository>;
