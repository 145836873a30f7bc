/** Shapes of the sample content loaded into an empty database (see content.ts). */
export type SeedVariant =
  'v1_large' | 'v1_medium' | 'v1_small' | 'v2_large' | 'v2_medium' | 'v2_small';

interface SeedQuestionBase {
  text: string;
  /** Seconds on the countdown; omitted or 0 means no timer. */
  timerSeconds?: number;
  /** Question video(s): paths under /sample/video/ or YouTube/Vimeo URLs, each with an optional WebVTT captions path. */
  video?: { link1: string; captions1?: string; link2?: string; captions2?: string };
}

export interface SeedClosedQuestion extends SeedQuestionBase {
  type: 'Closed';
  /** Answer labels WITHOUT the leave-blank option: the seed adds "Leave blank" itself. */
  choices: string[];
  /** Shuffle the choices for each respondent (default true). */
  randomise?: boolean;
}

export interface SeedOpenQuestion extends SeedQuestionBase {
  type: 'Open';
  /** Character limit for the free-text answer (default 280). */
  maxLength?: number;
}

export type SeedQuestion = SeedClosedQuestion | SeedOpenQuestion;

export interface SeedSurvey {
  /** Stable internal key; the seed is idempotent on it. */
  slug: string;
  name: string;
  coverHeadline: string;
  author: string;
  introText: string;
  outroText: string;
  variant: SeedVariant;
  /** Position on the home page, 1 = first. */
  slot: number;
  genres: string[];
  /** Release date relative to seeding time, in hours (negative = in the past, positive = scheduled). */
  releaseOffsetHours: number;
  /** When set, the survey was closed this many hours before seeding (results only). */
  closedOffsetHours?: number;
  questions: SeedQuestion[];
}
