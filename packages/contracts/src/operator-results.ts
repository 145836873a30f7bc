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

/** `GET /api/v1/admin/surveys/{gid}/export.json` (admins): every question, published numbers only. */
export const SurveyExportSchema = z.object({
  gid: z.uuid(),
  name: z.string(),
  exported_at: z.iso.datetime({ offset: true }),
  questions: z.array(SurveyExportQuestionSchema),
});
export type SurveyExport = z.infer<typeof SurveyExportSchema>;
