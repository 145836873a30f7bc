import { z } from 'zod';
import { QuestionTypeSchema } from './surveys.js';

/**
 * One bar: a choice and about how many counted people gave it. Every number is published with
 * calibrated noise (differential privacy): approximate, with its 95% margin; null where the row
 * is not shown (too few people, or one answer given by nearly everyone).
 */
export const ChoiceResultSchema = z.object({
  choice: z.string(),
  /** About how many people gave this answer (never exact); null when the row is not shown. */
  count: z.number().int().min(0).nullable(),
  /** Share of everyone counted (left blank included), 0..100, one decimal; null likewise. */
  percent: z.number().min(0).max(100).nullable(),
  /** Half-width of the share's 95% interval under the noise, in percentage points. */
  margin: z.number().min(0).nullable(),
  is_blank: z.boolean(),
  /**
   * Randomized-response questions (decision 028): what devices sent for this choice, as
   * published; `count`, `percent` and `margin` above are then the estimate of the true choices
   * worked back from it (`rrEstimateRow`), the margin wide enough for the estimate's whole
   * interval. Null for other questions.
   */
  sent: z
    .object({
      count: z.number().int().min(0).nullable(),
      percent: z.number().min(0).max(100).nullable(),
      margin: z.number().min(0).nullable(),
    })
    .nullable(),
});
export type ChoiceResult = z.infer<typeof ChoiceResultSchema>;

/**
 * The age bands of a breakdown, youngest first. Candor is for adults (MINIMUM_AGE, checked at
 * signup), so there is no band under 18.
 */
export const AGE_BANDS = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

/** The oldest age of each band below the last. */
const BAND_OLDEST = [24, 34, 44, 54, 64] as const;

/**
 * The age band of a year of birth in `now`'s year (the age reached that year): the one rule for
 * the API and the device, which sends its own band with an answer (decision 020).
 */
export function ageBandOf(yearOfBirth: number, now: Date = new Date()): AgeBand {
  const age = now.getUTCFullYear() - yearOfBirth;
  const i = BAND_OLDEST.findIndex((oldest) => age <= oldest);
  return AGE_BANDS[i === -1 ? AGE_BANDS.length - 1 : i]!;
}

export const BreakdownDimensionSchema = z.enum(['gender', 'age', 'country'], {
  error: 'Break down by gender, age or country.',
});
export type BreakdownDimension = z.infer<typeof BreakdownDimensionSchema>;

/** One group of a breakdown (a gender, an age band, a country, or `other` countries). */
export const ResultGroupSchema = z.object({
  /** `female`, `18-24`, `GB`... or `other` for countries with fewer than 10 people together. */
  key: z.string(),
  /** True when the group is not shown split (too few people for a useful number, or too uniform). */
  suppressed: z.boolean(),
  respondents: z.number().int().min(0).nullable(),
  blank: z.number().int().min(0).nullable(),
  /**
   * The group's own 95% margin, in points: the widest of its shares' margins (open questions:
   * of its written and left-blank shares). A group is far noisier than the overall row, so its
   * bars say this, never the overall margin. Null when its shares are not shown.
   */
  margin: z.number().min(0).nullable(),
  /** Closed questions: every choice in the question's order; open: empty. */
  choices: z.array(ChoiceResultSchema),
});
export type ResultGroup = z.infer<typeof ResultGroupSchema>;

export const BreakdownSchema = z.object({
  dimension: BreakdownDimensionSchema,
  groups: z.array(ResultGroupSchema),
});
export type Breakdown = z.infer<typeof BreakdownSchema>;

/**
 * When a breakdown can show something. Both numbers come from public constants (the noise's
 * variance, how many standard deviations a group must stand out by, the minimum of 10) and the
 * question's number of choices and updates: never from answers, so they reveal nothing the
 * noise protects (decision 011, "Breakdowns unlock").
 */
export const BreakdownUnlockSchema = z.object({
  /** The least a group's noisy total must reach before its row is shown. */
  group_minimum: z.number().int().min(0),
  /**
   * The published total (`respondents`) from which the breakdown is offered: enough answers
   * for two of its groups to be shown (for countries: one named country and the rest).
   */
  unlocks_at: z.number().int().min(0),
});
export type BreakdownUnlock = z.infer<typeof BreakdownUnlockSchema>;

export const BreakdownUnlocksSchema = z.object({
  gender: BreakdownUnlockSchema,
  age: BreakdownUnlockSchema,
  country: BreakdownUnlockSchema,
});
export type BreakdownUnlocks = z.infer<typeof BreakdownUnlocksSchema>;

export const WordCountSchema = z.object({ word: z.string(), count: z.number().int().min(0) });
export type WordCount = z.infer<typeof WordCountSchema>;

/** The honesty gap for one answer: randomized less direct, in points, with its 95% interval. */
export const GapChoiceSchema = z.object({
  choice: z.string(),
  /** Null while either arm's share is not shown. */
  points: z.number().nullable(),
  margin: z.number().min(0).nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  /** The interval leaves out 0: only then may a screen say more (or fewer) choose it. */
  clear: z.boolean(),
});
export type GapChoice = z.infer<typeof GapChoiceSchema>;

/**
 * The honesty gap of a question asked both directly and with randomized response (decision
 * 029): post-processing of the two questions' published rows, so it costs no privacy.
 */
export const HonestyGapResultSchema = z.object({
  direct_qid: z.uuid(),
  randomized_qid: z.uuid(),
  /** About how many people each arm counts (`respondents` of each question); null while too few. */
  direct_respondents: z.number().int().min(0).nullable(),
  randomized_respondents: z.number().int().min(0).nullable(),
  /** The choices to pick from (leaving blank is never randomized), in the direct question's order. */
  choices: z.array(GapChoiceSchema),
});
export type HonestyGapResult = z.infer<typeof HonestyGapResultSchema>;

/**
 * The published results of one question: a snapshot of verified members' answers under
 * differential privacy (docs/privacy.md). Snapshots come in updates, each time about twice as
 * many answers have arrived; every number is approximate, and rows too small to be useful are
 * null.
 */
export const QuestionResultsSchema = z.object({
  qid: z.uuid(),
  type: QuestionTypeSchema,
  /**
   * Randomized response's weight m (decision 028): each choice's count, share and margin are
   * estimates of the true choices, and `sent` holds what devices sent. Null for an ordinary
   * question.
   */
  rr_weight: z.number().int().nullable(),
  /** The honesty gap, on both questions of a pair (decision 029); null for most questions. */
  honesty_gap: HonestyGapResultSchema.nullable(),
  /** About how many people are counted, left-blank included; null while too few. */
  respondents: z.number().int().min(0).nullable(),
  /** Of them, about how many left it blank; null when not shown. */
  blank: z.number().int().min(0).nullable(),
  /**
   * The overall row's 95% margin, in points: the widest of its shares' margins (open: of its
   * written and left-blank shares); null when the shares are not shown.
   */
  margin: z.number().min(0).nullable(),
  /** Closed: every choice in the question's order (leave-blank last). Open: empty. */
  choices: z.array(ChoiceResultSchema),
  /** Nearly everyone (95% or more) gave one answer: the split is not shown, only the count. */
  dominated: z.boolean(),
  /** The requested breakdown (`?breakdown=`), else null. */
  breakdown: BreakdownSchema.nullable(),
  /** Per breakdown, from how many answers it is offered and what a group needs to be shown. */
  breakdown_unlocks: BreakdownUnlocksSchema,
  /** Open questions: the most common words (about how many answers used each). */
  words: z.array(WordCountSchema),
  /** Open questions: newest moderated (approved) answers. */
  samples: z.array(z.string()),
  /** How many updates the results have had (each adds its own noise). */
  updates: z.number().int().min(0),
  /**
   * About how many new answers, counted from the last update, the next update waits for: the
   * trigger's threshold (20, 40, 80... doubling with each update). From public constants and
   * `updates`, never from answers, so an answer not in the numbers yet can be told honestly
   * when it will be ("within about 160 more answers"). Noise moves the real moment a little.
   */
  next_update_after: z.number().int().min(0),
  /** When the snapshot was taken; null before the first one. */
  snapshot_at: z.iso.datetime({ offset: true }).nullable(),
});
export type QuestionResults = z.infer<typeof QuestionResultsSchema>;

/**
 * `GET /v1/surveys/{gid}/results/`: the published results of every question of a survey, in
 * its order, in one read (a survey's end results, the mirror): the same numbers each question's
 * own read gives, whole (breakdowns are read per question).
 */
export const SurveyResultsSchema = z.object({
  gid: z.string(),
  questions: z.array(QuestionResultsSchema),
});
export type SurveyResults = z.infer<typeof SurveyResultsSchema>;

/** Query of `GET /v1/questions/{qid}/results/`. */
export const ResultsQuerySchema = z.object({ breakdown: BreakdownDimensionSchema.optional() });
export type ResultsQuery = z.infer<typeof ResultsQuerySchema>;

/** A share and its 95% margin, as every published row gives them. */
export interface ShareWithMargin {
  percent: number | null;
  margin: number | null;
}

/**
 * Where one answer stands among the others of its row, said only as far as the margins allow
 * (two shares differ clearly when their 95% intervals do not meet): `largest`, clearly above
 * every other; `minority`, clearly below every other; `fewer`, clearly below the most chosen but
 * not below all ("fewer than most"); `level`, no answer clearly ahead of it. Null when a share
 * it would be compared with is hidden: a hidden share is never guessed at. The API's mirror and
 * the web app's words use this one rule, so "minority" means the same everywhere.
 */
export function standingAmong(
  own: ShareWithMargin,
  others: readonly ShareWithMargin[],
): 'largest' | 'level' | 'fewer' | 'minority' | null {
  if (own.percent === null || others.some((o) => o.percent === null)) return null;
  const low = (s: ShareWithMargin) => s.percent! - (s.margin ?? 0);
  const high = (s: ShareWithMargin) => s.percent! + (s.margin ?? 0);
  if (others.every((o) => low(own) > high(o))) return 'largest';
  if (others.every((o) => high(own) < low(o))) return 'minority';
  if (others.some((o) => high(own) < low(o))) return 'fewer';
  return 'level';
}

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
  /** About what share of everyone counted gave the same answer (closed); null if unknown. */
  same_percent: z.number().min(0).max(100).nullable(),
  /** Half-width of same_percent's 95% interval, in points; null likewise. */
  same_margin: z.number().min(0).nullable(),
  /** About how many people the question's published results count; null while too few. */
  respondents: z.number().int().min(0).nullable(),
  /**
   * True when the answer is clearly chosen less than every other answer (beyond both margins:
   * `standingAmong` says 'minority'); null when a share it is compared with is hidden.
   */
  minority: z.boolean().nullable(),
  /**
   * When the published numbers were taken; null before the first update. An answer given after
   * it is not in them yet: it joins at the next update.
   */
  snapshot_at: z.iso.datetime({ offset: true }).nullable(),
  /** The question's `next_update_after`: when an answer not in the numbers yet joins them. */
  next_update_after: z.number().int().min(0),
  /**
   * A randomized-response question (decision 028): `same_percent` is an estimate worked back
   * from what devices sent, and the mirror says so.
   */
  estimated: z.boolean(),
});
export type MirrorItem = z.infer<typeof MirrorItemSchema>;

/** `GET /v1/user/mirror/`: every question the member answered, newest first. */
export const MirrorSchema = z.object({ results: z.array(MirrorItemSchema) });
export type Mirror = z.infer<typeof MirrorSchema>;
