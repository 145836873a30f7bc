import { z } from 'zod';
import { OPEN_ANSWER_MAX_LENGTH, RATING_MAX, RATING_MIN } from './constants.js';
import { pagedSchema } from './paging.js';
import { AnswerProfileSchema } from './credentials.js';
import { QuestionResultsSchema } from './results.js';

/**
 * The body of `POST /v1/questions/{qid}/answer/`: `choice` (a label of the question's choices,
 * the leave-blank one included) for a closed question, `text` for an open one; an empty or
 * all-space `text` means the open question was left blank.
 */
export const AnswerRequestSchema = z
  .object({
    choice: z.string({ error: 'Choose one of the answers.' }).min(1).max(500).optional(),
    text: z
      .string({ error: 'Write your answer as text.' })
      .max(OPEN_ANSWER_MAX_LENGTH, `Use at most ${OPEN_ANSWER_MAX_LENGTH} characters.`)
      .optional(),
    /**
     * The device's breakdown class (decision 020): required with a credential; with a session
     * (the older path) it files the respondent of the member's first answer, else undisclosed.
     */
    profile: AnswerProfileSchema.optional(),
    /**
     * With a credential only: how long answering took, measured on the device (a duration,
     * never a time of day); dropped when over an hour.
     */
    duration_ms: z
      .number({ error: 'Send the duration in milliseconds.' })
      .int('Send the duration in milliseconds.')
      .min(0, 'Send the duration in milliseconds.')
      .optional(),
  })
  .strict();
export type AnswerRequest = z.infer<typeof AnswerRequestSchema>;

/** `Idempotency-Key`: the client's id of one answering attempt (a UUID); optional. */
export const IdempotencyKeySchema = z
  .string()
  .trim()
  .min(8, 'Use a UUID as the Idempotency-Key.')
  .max(100, 'Use a UUID as the Idempotency-Key.');

/** What the API stored for one answer; the same body answers a replay of the same request. */
export const AnswerResponseSchema = z.object({
  qid: z.uuid(),
  /** Survey gid. */
  gid: z.uuid(),
  /** The choice label (closed), the text (open), or '' when left blank. */
  answer: z.string(),
  is_blank: z.boolean(),
  /** The day only (`YYYY-MM-DD`, UTC): no time is stored next to an answer. */
  date: z.iso.date(),
  /** The question's results when its survey gives instant feedback (v1_*), else null. */
  results: QuestionResultsSchema.nullable(),
});
export type AnswerResponse = z.infer<typeof AnswerResponseSchema>;

export const AttemptedQuestionSchema = z.object({
  qid: z.uuid(),
  gid: z.uuid(),
  answer: z.string(),
  is_blank: z.boolean(),
  date: z.iso.date(),
});
export type AttemptedQuestion = z.infer<typeof AttemptedQuestionSchema>;

/** `GET /v1/questions/my-attempted-questions/`: newest first; `page_size` up to 100. */
export const AttemptedQuestionListSchema = pagedSchema(AttemptedQuestionSchema);
export type AttemptedQuestionList = z.infer<typeof AttemptedQuestionListSchema>;

export const RatingRequestSchema = z
  .object({
    score: z
      .number({ error: `Rate from ${RATING_MIN} to ${RATING_MAX}.` })
      .int(`Rate from ${RATING_MIN} to ${RATING_MAX}.`)
      .min(RATING_MIN, `Rate from ${RATING_MIN} to ${RATING_MAX}.`)
      .max(RATING_MAX, `Rate from ${RATING_MIN} to ${RATING_MAX}.`),
  })
  .strict();
export type RatingRequest = z.infer<typeof RatingRequestSchema>;

export const RatingResponseSchema = z.object({ qid: z.uuid(), score: z.number().int() });
export type RatingResponse = z.infer<typeof RatingResponseSchema>;

/** Body of the answer-time and graph-time start calls. */
export const TimingStartRequestSchema = z.object({ qid: z.uuid() }).strict();
export type TimingStartRequest = z.infer<typeof TimingStartRequestSchema>;

/**
 * `{id}` of a running timing: an opaque signed token that carries its own start, so no
 * wall-clock time is ever stored; the end call stores only the duration.
 */
export const TimingIdSchema = z.object({ id: z.string() });
export type TimingId = z.infer<typeof TimingIdSchema>;

/**
 * A first-party page view: the route pattern (`/surveys/:surveyId`, never ids or query strings)
 * and the referring host. No cookie, no IP, no user.
 */
export const PageViewRequestSchema = z
  .object({
    path: z
      .string()
      .max(200)
      .regex(/^\/[A-Za-z0-9_:/-]*$/, 'Send the route pattern.'),
    referrer_host: z.string().max(253).nullable().optional(),
  })
  .strict();
export type PageViewRequest = z.infer<typeof PageViewRequestSchema>;
