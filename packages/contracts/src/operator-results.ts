import { z } from 'zod';
import { BreakdownSchema, QuestionResultsSchema } from './results.js';
import { QuestionTypeSchema } from './surveys.js';

/**
 * How answers to a question were given, from the published (noisy) histogram of answer times:
 * about how many were timed, and how many were suspiciously fast.
 */
export const AnswerQualitySchema = z.object({
  /** About how many counted members' answers were timed. */
  timed_answers: z.number().int().min(0),
  /** Median answer time (ms, interpolated in its bucket); null while too few. */
  answer_time_median_ms: z.number().min(0).nullable(),
  /** Share (0..100, one decimal) of timed answers faster than a third of the median; null likewise. */
  fast_share: z.number().min(0).max(100).nullable(),
});
export type AnswerQuality = z.infer<typeof AnswerQualitySchema>;

/** Interest ratings (0..10) of a question by counted members, from the published histogram. */
export const RatingsSummarySchema = z.object({
  /** About how many ratings. */
  count: z.number().int().min(0),
  /** Mean score, one decimal; null while too few ratings. */
  mean: z.number().min(0).max(10).nullable(),
});
export type RatingsSummary = z.infer<typeof RatingsSummarySchema>;

/**
 * `GET /api/v1/admin/questions/{qid}/results/` (admins): the published results a member sees
 * (privacy rules applied to staff too), with answer quality and ratings.
 */
export const OperatorQuestionResultsSchema = QuestionResultsSchema.extend({
  quality: AnswerQualitySchema,
  ratings: RatingsSummarySchema,
});
export type OperatorQuestionResults = z.infer<typeof OperatorQuestionResultsSchema>;

/**
 * One place of a survey's drop-off: a question (or an honesty-gap pair, which each person meets
 * as one question) and about how many people answered it, as published.
 */
export const ReachStepSchema = z.object({
  /** The question's qid (a pair: its directly asked question's). */
  qid: z.uuid(),
  position: z.number().int(),
  question: z.string(),
  /** The other question of an honesty-gap pair, when this place is one; else null. */
  pair_qid: z.uuid().nullable(),
  /** About how many people answered it (left blank included); null while too few to show. */
  respondents: z.number().int().min(0).nullable(),
  /** The 95% margin of `respondents`, in people: the privacy noise only (it is a count). */
  respondents_margin: z.number().min(0).nullable(),
  /**
   * `respondents` as a share of the first place's, 0-100 with one decimal; null while either is
   * not shown, or while the first's noise (its standard deviation) is over a fifth of it: too
   * noisy to divide by.
   */
  kept_percent: z.number().min(0).nullable(),
  /** Its 95% margin, in points (the noise of both counts, by the delta method). */
  kept_margin: z.number().min(0).nullable(),
  /** The median time people took to answer it, in ms, as its insights publish it. */
  answer_time_median_ms: z.number().min(0).nullable(),
});
export type ReachStep = z.infer<typeof ReachStepSchema>;

/**
 * `GET /api/v1/admin/surveys/{gid}/reach/` (admins): how far people got through a survey, from
 * each question's published numbers only (post-processing: it costs no privacy and counts
 * nobody twice). Staff never answer as staff, so none of it is staff traffic.
 */
export const SurveyReachSchema = z.object({
  gid: z.uuid(),
  /** Each person met the questions in an order of their own: places are questions, not steps. */
  shuffled: z.boolean(),
  steps: z.array(ReachStepSchema),
  /**
   * The sum of each place's median answer time, in ms, once every place has one: a typical time
   * to answer the whole survey. Each person's own total is never stored (their answers are not
   * linked to each other), so the median of totals cannot be published.
   */
  typical_time_ms: z.number().min(0).nullable(),
});
export type SurveyReach = z.infer<typeof SurveyReachSchema>;

/** One question of a survey export: its published results overall and by each dimension. */
export const SurveyExportQuestionSchema = z.object({
  qid: z.uuid(),
  position: z.number().int(),
  question: z.string(),
  type: QuestionTypeSchema,
  /** The overall published results (no breakdown). */
  results: QuestionResultsSchema,
  breakdowns: z.object({
    gender: BreakdownSchema,
    age: BreakdownSchema,
    country: BreakdownSchema,
  }),
});
export type SurveyExportQuestion = z.infer<typeof SurveyExportQuestionSchema>;

/** The format a codebook names. */
export const CODEBOOK_FORMAT = 'candor.codebook/1';

/**
 * What a survey's export means (issue 31, point 5): its questions with their choices' codes,
 * types and settings, who was asked each, the privacy mechanism's parameters, how each figure's
 * interval is made, and every CSV column. In the JSON export, and on its own
 * (`…/surveys/{gid}/codebook.json`) beside the CSV.
 */
export const SurveyCodebookSchema = z.object({
  format: z.literal(CODEBOOK_FORMAT),
  survey: z.object({
    gid: z.uuid(),
    name: z.string(),
    /**
     * The order people met the questions in: the authored one (`position`), or one drawn for
     * each person on their device (`randomise_questions`).
     */
    question_order: z.enum(['as authored', 'shuffled per person']),
  }),
  questions: z.array(
    z.object({
      position: z.number().int(),
      qid: z.uuid(),
      question: z.string(),
      type: QuestionTypeSchema,
      /** Closed questions: each choice's code (1, 2…; the leave-blank choice is `blank`). */
      choices: z.array(
        z.object({ code: z.union([z.number().int(), z.literal('blank')]), label: z.string() }),
      ),
      /** Open questions' character limit. */
      max_length: z.number().int().nullable(),
      /** Who was asked it, in words (show-if logic, when there is any). */
      asked: z.string(),
      /** Randomized response (decision 028): the weight m of the truthful answer; null if not. */
      rr_weight: z.number().int().nullable(),
      /** The other question of its honesty-gap pair (decision 029), if any. */
      honesty_gap_pair: z.uuid().nullable(),
    }),
  ),
  /** The privacy mechanism (decision 008, 011), as set in the code that made the numbers. */
  privacy: z.object({
    mechanism: z.string(),
    noise_variance: z.record(z.string(), z.number()),
    trigger_epsilon: z.number(),
    first_threshold: z.number().int(),
    events_per_person: z.number().int(),
    delta: z.number(),
    min_row_total: z.number().int(),
    dominance: z.number(),
    words_per_answer: z.number().int(),
  }),
  /** How each share's interval is made (decision 027). */
  intervals: z.object({ level: z.number(), method: z.string() }),
  /** Every column of the CSV export, in order, with its meaning. */
  csv_columns: z.array(z.object({ name: z.string(), meaning: z.string() })),
});
export type SurveyCodebook = z.infer<typeof SurveyCodebookSchema>;

/** `GET /api/v1/admin/surveys/{gid}/export.json` (admins): every question, published numbers only. */
export const SurveyExportSchema = z.object({
  gid: z.uuid(),
  name: z.string(),
  exported_at: z.iso.datetime({ offset: true }),
  questions: z.array(SurveyExportQuestionSchema),
  codebook: SurveyCodebookSchema,
});
export type SurveyExport = z.infer<typeof SurveyExportSchema>;
