import { z } from 'zod';
import { pagedSchema } from './paging.js';

/** v1_* variants give instant feedback after each answer; v2_* show all graphs at the end. */
export const SurveyVariantSchema = z.enum([
  'v1_large',
  'v1_medium',
  'v1_small',
  'v2_large',
  'v2_medium',
  'v2_small',
]);
export type SurveyVariant = z.infer<typeof SurveyVariantSchema>;

export const SurveyStatusSchema = z.enum(['Open', 'Closed']);
export type SurveyStatus = z.infer<typeof SurveyStatusSchema>;

export const QuestionTypeSchema = z.enum(['Closed', 'Open']);
export type QuestionType = z.infer<typeof QuestionTypeSchema>;

export const GenreSchema = z.object({
  unique_GID: z.uuid(),
  genre_name: z.string(),
});
export type Genre = z.infer<typeof GenreSchema>;

export const QuestionSchema = z.object({
  qid: z.uuid(),
  question: z.string(),
  type: QuestionTypeSchema,
  /** Countdown as `H:MM:SS`; `0:00:00` means no timer. */
  timer_length: z.string().regex(/^\d+:[0-5]\d:[0-5]\d$/),
  video_link_1: z.string().nullable(),
  video_link_2: z.string().nullable(),
  /** WebVTT captions for video_link_1 / video_link_2 (Candor extension). */
  video_captions_1: z.string().nullable(),
  video_captions_2: z.string().nullable(),
  submitted: z.iso.datetime({ offset: true }),
  /** Answer labels; closed questions always include the leave-blank choice. Empty for open ones. */
  choices: z.array(z.string()),
  randomise_answers: z.boolean(),
  /** Character limit of an open answer; null for closed questions (Candor extension). */
  max_length: z.number().int().positive().nullable(),
  /**
   * Randomized response (decision 028, Candor extension): the weight m with which the device
   * keeps the true choice, against 1 for each other choice, drawing the choice it sends before
   * anything leaves it; null for an ordinary question. Leaving blank is never randomized.
   */
  rr_weight: z.number().int().min(2).nullable(),
  /**
   * The honesty gap (decision 029, Candor extension): the other question of the pair that asks
   * the same thing directly and with randomized response; null for most questions. The device
   * asks each person one of the two, drawn at random, and never the other.
   */
  twin_qid: z.uuid().nullable(),
});
export type Question = z.infer<typeof QuestionSchema>;

/** A question as flattened into the survey list: with its survey's gid, name and status. */
export const ListedQuestionSchema = QuestionSchema.extend({
  gid: z.uuid(),
  name: z.string(),
  status: SurveyStatusSchema,
});
export type ListedQuestion = z.infer<typeof ListedQuestionSchema>;

const surveyBase = {
  gid: z.uuid(),
  name: z.string(),
  cover_image: z.string().nullable(),
  cover_headline: z.string(),
  questions_count: z.number().int().min(0),
  status: SurveyStatusSchema,
  release_date: z.iso.datetime({ offset: true }),
  slot: z.number().int(),
  date_published: z.iso.datetime({ offset: true }).nullable(),
  is_within_24_hours: z.boolean(),
  closed_at: z.iso.datetime({ offset: true }).nullable(),
  /** An open survey's scheduled close, when one is set (Candor extension); null otherwise. */
  closes_at: z.iso.datetime({ offset: true }).nullable(),
  /** Archived by its operators: off the home page; its page and results stay (Candor extension). */
  archived: z.boolean(),
  variant: SurveyVariantSchema,
  genres: z.array(GenreSchema),
};

export const SurveySummarySchema = z.object({
  ...surveyBase,
  questions: z.array(ListedQuestionSchema),
  /**
   * About how many people answered: the published, differentially private `respondents` of the
   * survey's first question (its graph's "n"), the same for every reader; null while too few
   * (decision 011). Never an exact count (Candor extension).
   */
  respondents: z.number().int().min(0).nullable(),
});
export type SurveySummary = z.infer<typeof SurveySummarySchema>;

/**
 * Whether the home page shows a survey's brick: nothing archived, and nothing closed and empty
 * (a closed survey with no published result can take no answer and has nothing to show). Its
 * page stays, for links and the mirror. Decided on the published number only.
 */
export const promotedOnHome = (
  s: Pick<SurveySummary, 'status' | 'respondents' | 'archived'>,
): boolean => !s.archived && (s.status !== 'Closed' || s.respondents !== null);

export const SurveyListSchema = pagedSchema(SurveySummarySchema);
export type SurveyList = z.infer<typeof SurveyListSchema>;

export const SurveyDetailSchema = z.object({
  ...surveyBase,
  author: z.string(),
  intro_screen_image: z.string().nullable(),
  intro_screen_text: z.string(),
  instructions: z.string(),
  outro_screen_text: z.string(),
  questions: z.array(QuestionSchema),
  shareable_link: z.string(),
  /** Questions a visitor may answer before being asked to sign up (Candor extension). */
  visitor_questions: z.number().int().min(0),
  /**
   * Each person is asked the questions in an order of their own, drawn and kept on their device
   * (Candor extension).
   */
  randomise_questions: z.boolean(),
});
export type SurveyDetail = z.infer<typeof SurveyDetailSchema>;
