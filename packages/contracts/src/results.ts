import { z } from 'zod';
import { QuestionTypeSchema } from './surveys.js';

/** One bar: a choice and how many counted people gave it; null where the cell is suppressed. */
export const ChoiceResultSchema = z.object({
  choice: z.string(),
  /** People who gave this answer; null: suppressed (fewer than 10, or it would reveal one). */
  count: z.number().int().min(0).nullable(),
  /** Share of everyone counted (left blank included), 0..100, one decimal; null when suppressed. */
  percent: z.number().min(0).max(100).nullable(),
  is_blank: z.boolean(),
});
export type ChoiceResult = z.infer<typeof ChoiceResultSchema>;

export const BreakdownDimensionSchema = z.enum(['gender', 'age', 'country'], {
  error: 'Break down by gender, age or country.',
});
export type BreakdownDimension = z.infer<typeof BreakdownDimensionSchema>;

/** One group of a breakdown (a gender, an age band, a country, or `other` countries). */
export const ResultGroupSchema = z.object({
  /** `female`, `18-24`, `GB`... or `other` for countries with fewer than 10 people together. */
  key: z.string(),
  /** True when nothing of the group can be shown (too few people, or too uniform answers). */
  suppressed: z.boolean(),
  respondents: z.number().int().min(0).nullable(),
  blank: z.number().int().min(0).nullable(),
  /** Closed questions: every choice in the question's order; open: empty. */
  choices: z.array(ChoiceResultSchema),
});
export type ResultGroup = z.infer<typeof ResultGroupSchema>;

export const BreakdownSchema = z.object({
  dimension: BreakdownDimensionSchema,
  groups: z.array(ResultGroupSchema),
});
export type Breakdown = z.infer<typeof BreakdownSchema>;

export const WordCountSchema = z.object({ word: z.string(), count: z.number().int().min(0) });
export type WordCount = z.infer<typeof WordCountSchema>;

/**
 * The published results of one question: a snapshot of verified members' answers, taken after
 * 10 new answers or 5 minutes, with every number of fewer than 10 people (or that would reveal
 * one) suppressed as null.
 */
export const QuestionResultsSchema = z.object({
  qid: z.uuid(),
  type: QuestionTypeSchema,
  /** People counted, left-blank included; null while fewer than 10. */
  respondents: z.number().int().min(0).nullable(),
  /** Of them, those who left it blank; null when suppressed. */
  blank: z.number().int().min(0).nullable(),
  /** Closed: every choice in the question's order (leave-blank last). Open: empty. */
  choices: z.array(ChoiceResultSchema),
  /** The requested breakdown (`?breakdown=`), else null. */
  breakdown: BreakdownSchema.nullable(),
  /** Open questions: the most common words, each used in 10 answers or more. */
  words: z.array(WordCountSchema),
  /** Open questions: newest moderated (approved) answers. */
  samples: z.array(z.string()),
  /** When the snapshot was taken; null before the first one. */
  snapshot_at: z.iso.datetime({ offset: true }).nullable(),
});
export type QuestionResults = z.infer<typeof QuestionResultsSchema>;

/** Query of `GET /v1/questions/{qid}/results/`. */
export const ResultsQuerySchema = z.object({ breakdown: BreakdownDimensionSchema.optional() });
export type ResultsQuery = z.infer<typeof ResultsQuerySchema>;

/** One answered question in the mirror (`/me`): the member's answer against everyone's. */
export const MirrorItemSchema = z.object({
  qid: z.uuid(),
  question: z.string(),
  type: QuestionTypeSchema,
  gid: z.uuid(),
  survey: z.string(),
  answer: z.string(),
  is_blank: z.boolean(),
  date: z.iso.date(),
  /** The member's interest rating, 0..10, if they gave one. */
  rating: z.number().int().min(0).max(10).nullable(),
  /** Share of everyone counted who gave the same answer (closed questions); null if unknown. */
  same_percent: z.number().min(0).max(100).nullable(),
  /** People counted in the question's published results; null while fewer than 10. */
  respondents: z.number().int().min(0).nullable(),
  /** True when the answer is not the most common and under half gave it; null if unknown. */
  minority: z.boolean().nullable(),
});
export type MirrorItem = z.infer<typeof MirrorItemSchema>;

/** `GET /v1/user/mirror/`: every question the member answered, newest first. */
export const MirrorSchema = z.object({ results: z.array(MirrorItemSchema) });
export type Mirror = z.infer<typeof MirrorSchema>;
