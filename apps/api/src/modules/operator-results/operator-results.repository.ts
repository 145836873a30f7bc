import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { ratings, respondents, timings } from '../../db/schema.js';

/** Raw figures of one question's answer timings and ratings, by counted members only. */
export interface QualityFigures {
  timed: number;
  medianMs: number | null;
  /** Timed answers faster than a third of the median. */
  fast: number;
  ratings: number;
  meanRating: number | null;
}

/** Answer timings and ratings per question, for operators: Drizzle only. */
export function createOperatorResultsRepository(db: Db) {
  return {
    /**
     * One statement over `timings` (kind 'answer') and `ratings` of the question. Only members
     * who count in results (verified, approved, not suspended) count here too.
     */
    async quality(questionId: number): Promise<QualityFigures> {
      const result = await db.execute(sql`
        with timed as (
          select ${timings.durationMs} as ms
          from ${timings} join ${respondents} on ${respondents.id} = ${timings.respondentId}
          where ${timings.questionId} = ${questionId} and ${timings.kind} = 'answer'
            and ${respondents.counts}
        ), stats as (
          select count(*)::int as n,
                 percentile_cont(0.5) within group (order by ms)::float8 as median
          from timed
        ), rated as (
          select count(*)::int as n, avg(${ratings.score})::float8 as mean
          from ${ratings} join ${respondents} on ${respondents.id} = ${ratings.respondentId}
          where ${ratings.questionId} = ${questionId} and ${respondents.counts}
        )
        select stats.n as timed, stats.median as median,
               (select count(*)::int from timed where ms < stats.median / 3) as fast,
               rated.n as ratings, rated.mean as mean
        from stats, rated`);
      const [row] = (
        result as unknown as {
          rows: Array<{
            timed: number;
            median: number | null;
            fast: number;
            ratings: number;
            mean: number | null;
          }>;
        }
      ).rows;
      return {
        timed: Number(row?.timed ?? 0),
        medianMs: row?.median == null ? null : Number(row.median),
        fast: Number(row?.fast ?? 0),
        ratings: Number(row?.ratings ?? 0),
        meanRating: row?.mean == null ? null : Number(row.mean),
      };
    },
  };
}

export type OperatorResultsRepository = ReturnType<typeof createOperatorResultsRepository>;
