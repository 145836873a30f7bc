import { z } from 'zod';
import { LEAVE_BLANK_CHOICE, OPEN_ANSWER_MAX_LENGTH } from './constants.js';
import { GenreSchema, QuestionTypeSchema, SurveyVariantSchema } from './surveys.js';
import { RR_MAX_WEIGHT } from './randomized-response.js';

// Survey authoring for admins under /api/v1/admin (docs/decisions/010-authoring.md).

const when = z.iso.datetime({ offset: true });

/** Largest image an admin may upload (bytes); the API refuses bigger bodies with 413. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** Image types the upload accepts; everything is stored re-encoded as WebP. */
export const UPLOAD_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const MAX_CHOICES = 12;
export const MAX_TIMER_SECONDS = 3600;

// Files elsewhere play in the browser's <video> (the CSP's media-src). Not HLS (.m3u8): its
// player fetches the stream by script, and the CSP lets scripts connect to this site only.
const VIDEO_FILE = /\.(mp4|webm|ogv|ogg)$/i;
/** Files served by Candor itself (the sample videos, HLS streams too): a path on this site. */
const OWN_VIDEO = /^\/sample\/[\w/-]+\.(mp4|webm|ogv|ogg|m3u8)$/i;

/**
 * Why a video link cannot be played, or null when it can: an https YouTube or Vimeo video page,
 * a direct https link to an .mp4, .webm or .ogv/.ogg file, or one of Candor's own sample
 * videos (`/sample/...`).
 */
export function videoLinkProblem(link: string): string | null {
  if (OWN_VIDEO.test(link)) return null;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return 'Enter a full link, starting with https://.';
  }
  if (url.protocol !== 'https:') return 'Video links must start with https://.';
  if (url.username || url.password) return 'Video links cannot carry a user name or password.';
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.)/, '');
  const path = url.pathname;
  if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (path === '/watch' && /^[\w-]{11}$/.test(url.searchParams.get('v') ?? '')) return null;
    if (/^\/(embed|shorts|live)\/[\w-]{11}\/?$/.test(path)) return null;
    return 'That YouTube link does not name a video (use the video’s share link).';
  }
  if (host === 'youtu.be') {
    return /^\/[\w-]{11}\/?$/.test(path) ? null : 'That YouTube link does not name a video.';
  }
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    return /^\/(video\/)?\d+(\/[\da-f]+)?\/?$/.test(path)
      ? null
      : 'That Vimeo link does not name a video.';
  }
  if (VIDEO_FILE.test(path)) return null;
  return 'Use a YouTube or Vimeo link, or a direct link to an .mp4, .webm or .ogv file.';
}

const HOSTED = ['youtube.com', 'youtube-nocookie.com', 'youtu.be', 'vimeo.com', 'player.vimeo.com'];

/** YouTube and Vimeo links: they play in their own players, with their own captions. */
export function isHostedVideo(link: string): boolean {
  try {
    return HOSTED.includes(new URL(link).hostname.toLowerCase().replace(/^(www\.|m\.)/, ''));
  } catch {
    return false;
  }
}

const HOSTED_CAPTIONS =
  'Captions work with direct video files only; YouTube and Vimeo carry their own.';

const trimmed = (max: number, what: string) =>
  z.string().trim().max(max, `${what} can be at most ${max} characters.`);

/** An image the API stored (`/uploads/...`), or one of the sample images (`/sample/...`). */
export const ImagePathSchema = z
  .string()
  .regex(/^\/(uploads|sample)\/[\w/-]+\.webp$/, 'Upload the image first, then use its address.');

/** A survey's own content: what an edit sends and what a survey file carries. */
const surveyContent = {
  name: trimmed(120, 'The name').min(1, 'Give the survey a name.'),
  author: trimmed(120, 'The author').default(''),
  cover_headline: trimmed(160, 'The headline').default(''),
  intro_screen_text: trimmed(4000, 'The intro').default(''),
  outro_screen_text: trimmed(4000, 'The outro').default(''),
  cover_image: ImagePathSchema.nullable().default(null),
  intro_screen_image: ImagePathSchema.nullable().default(null),
  variant: SurveyVariantSchema.default('v1_medium'),
  /**
   * Each person meets the questions in an order of their own, drawn on their device and kept
   * there, so a reload asks them in the same order (an honesty-gap pair keeps its place).
   */
  randomise_questions: z.boolean().default(false),
};

/** Create or edit a survey (`POST /admin/surveys/`, `PUT /admin/surveys/{gid}/`). */
export const SurveyInputSchema = z
  .object({
    ...surveyContent,
    /** Position among the home page's bricks; left out on create: after the last one. */
    slot: z.number().int().min(0).max(100_000).optional(),
    release_date: when,
    /**
     * A scheduled close: from then on it takes no answers, as if closed by hand (null: open until
     * closed). Ignored while the survey is closed; reopening clears it.
     */
    closes_at: when.nullable().default(null),
    genres: z
      .array(z.uuid('Pick genres from the list.'))
      .max(10, 'Pick at most 10 genres.')
      .default([]),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.closes_at && Date.parse(s.closes_at) <= Date.parse(s.release_date)) {
      ctx.addIssue({
        code: 'custom',
        path: ['closes_at'],
        message: 'Close it after its release date.',
      });
    }
  });
export type SurveyInput = z.input<typeof SurveyInputSchema>;

const videoLink = z
  .string()
  .trim()
  .max(500, 'Video links can be at most 500 characters.')
  .superRefine((link, ctx) => {
    const problem = videoLinkProblem(link);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const captionsLink = z
  .string()
  .trim()
  .max(500, 'Caption links can be at most 500 characters.')
  .regex(
    /^(https:\/\/[^\s]+|\/sample\/[\w/-]+)\.vtt(\?[^\s]*)?$/i,
    'Captions must be an https link to a .vtt file.',
  );

/**
 * A question's content (`POST /admin/surveys/{gid}/questions/`, `PUT /admin/questions/{qid}/`).
 * `choices` are the answers to pick from; the leave-blank choice is added (and kept) by the API.
 */
export const QuestionInputSchema = z
  .object({
    type: QuestionTypeSchema,
    question: trimmed(500, 'The question').min(1, 'Write the question.'),
    choices: z
      .array(trimmed(120, 'A choice').min(1, 'Choices cannot be empty.'))
      .max(MAX_CHOICES, `At most ${MAX_CHOICES} choices.`)
      .default([]),
    randomise_answers: z.boolean().default(true),
    timer_seconds: z
      .number()
      .int('The timer is in whole seconds.')
      .min(0, 'The timer cannot be negative.')
      .max(MAX_TIMER_SECONDS, `The timer can be at most ${MAX_TIMER_SECONDS} seconds.`)
      .default(0),
    video_link_1: videoLink.nullable().default(null),
    video_link_2: videoLink.nullable().default(null),
    video_captions_1: captionsLink.nullable().default(null),
    video_captions_2: captionsLink.nullable().default(null),
    /** Character limit of an open answer; ignored for closed questions. */
    max_length: z.number().int().min(1).max(OPEN_ANSWER_MAX_LENGTH).nullable().default(null),
    /**
     * Randomized response (decision 028): the device keeps the true choice with weight m, each
     * other choice with weight 1. Closed questions only; fixed once the survey is published.
     */
    rr_weight: z
      .number()
      .int('Pick one of the offered strengths.')
      .min(2, 'Pick one of the offered strengths.')
      .max(RR_MAX_WEIGHT, 'Pick one of the offered strengths.')
      .nullable()
      .default(null),
    /**
     * The honesty gap (decision 029): on a randomized-response question, the ordinary question
     * of the same survey, with the same choices, that it asks again; each respondent is asked
     * one of the two. Fixed once the survey is published.
     */
    twin_qid: z.uuid('Pick a question of this survey.').nullable().default(null),
  })
  .strict()
  .superRefine((q, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    const labels = q.choices.filter((c) => c.toLowerCase() !== LEAVE_BLANK_CHOICE.toLowerCase());
    const seen = new Set<string>();
    for (const label of labels) {
      // An empty choice is already refused as empty: "“” is listed twice" would say it again.
      if (label && seen.has(label.toLowerCase())) issue('choices', `“${label}” is listed twice.`);
      seen.add(label.toLowerCase());
    }
    if (q.type === 'Closed' && labels.length < 2) {
      issue('choices', 'A closed question needs at least two choices.');
    }
    if (q.type === 'Open' && labels.length) {
      issue('choices', 'Open questions have no choices: people write their answer.');
    }
    if (q.type === 'Open' && q.rr_weight !== null) {
      issue('rr_weight', 'Only questions with choices can randomize the answer sent.');
    }
    if (q.twin_qid !== null && q.rr_weight === null) {
      issue('twin_qid', 'Only a question that randomizes the answer sent can ask another again.');
    }
    if (q.video_link_2 && !q.video_link_1) issue('video_link_2', 'Fill in the first video first.');
    for (const n of [1, 2] as const) {
      const link = q[`video_link_${n}`];
      if (!q[`video_captions_${n}`]) continue;
      if (!link) issue(`video_captions_${n}`, 'Captions need a video.');
      else if (isHostedVideo(link)) issue(`video_captions_${n}`, HOSTED_CAPTIONS);
    }
  });
export type QuestionInput = z.input<typeof QuestionInputSchema>;

/**
 * `POST /api/v1/admin/surveys/{gid}/delete/` (admins): deletes a closed survey with its answers
 * and releases, or a draft. The survey's exact name confirms it (decision 010).
 */
export const DeleteSurveyRequestSchema = z
  .object({
    name: z
      .string({ error: 'Type the survey’s name to delete it.' })
      .max(500, 'Type the survey’s name to delete it.'),
  })
  .strict();
export type DeleteSurveyRequest = z.infer<typeof DeleteSurveyRequestSchema>;

/** The largest survey file the import takes (200 long questions fit well within it). */
export const SURVEY_FILE_MAX_BYTES = 2 * 1024 * 1024;

/** The format a survey file names: its content only, never its answers. */
export const SURVEY_FILE_FORMAT = 'candor.survey/1';

/**
 * A survey's content as a file (`GET /admin/surveys/{gid}/content/`, `POST /admin/surveys/import/`):
 * its texts, images, genres by name, its questions in order, and its honesty-gap pairs by
 * question number. Never an answer, a count, a date or an id of this installation.
 */
export const SurveyFileSchema = z
  .object({
    format: z.literal(SURVEY_FILE_FORMAT, 'This is not a Candor survey file (candor.survey/1).'),
    survey: z
      .object(
        {
          ...surveyContent,
          genres: z
            .array(trimmed(60, 'A genre name').min(1, 'A genre needs a name.'))
            .max(10, 'Pick at most 10 genres.')
            .default([]),
        },
        'The file has no survey part.',
      )
      .strict(),
    questions: z
      .array(QuestionInputSchema, 'The file has no list of questions.')
      .max(200, 'At most 200 questions.'),
    /** Question `question` (numbered from 1) asks question `asks_again` again (decision 029). */
    pairs: z
      .array(
        z
          .object({
            question: z.number().int().min(1, 'Questions are numbered from 1.'),
            asks_again: z.number().int().min(1, 'Questions are numbered from 1.'),
          })
          .strict(),
      )
      .max(100)
      .default([]),
  })
  .strict();
export type SurveyFile = z.input<typeof SurveyFileSchema>;

/** Where a survey stands: a draft is never listed; scheduled is published with a future release. */
export const SurveyStateSchema = z.enum(['draft', 'scheduled', 'open', 'closed']);
export type SurveyState = z.infer<typeof SurveyStateSchema>;

/** A question as admins edit it. */
export const AdminQuestionSchema = z.object({
  qid: z.uuid(),
  position: z.number().int(),
  type: QuestionTypeSchema,
  question: z.string(),
  /** The choices to pick from, in order, without the leave-blank choice (always kept, last). */
  choices: z.array(z.string()),
  randomise_answers: z.boolean(),
  timer_seconds: z.number().int(),
  video_link_1: z.string().nullable(),
  video_link_2: z.string().nullable(),
  video_captions_1: z.string().nullable(),
  video_captions_2: z.string().nullable(),
  max_length: z.number().int().nullable(),
  /** Randomized response's weight m (decision 028); null for an ordinary question. */
  rr_weight: z.number().int().nullable(),
  /** The honesty gap's pair (decision 029): on a randomized question, the question it asks again. */
  twin_qid: z.uuid().nullable(),
  /** About how many answered, as published (blurred for privacy): 0 until the first update. */
  answers_count: z.number().int().min(0),
  /** Published: the type stays, the question cannot be deleted, its choices stay (answered or not). */
  locked: z.boolean(),
  /** Choices that can be moved but never removed or renamed: all of them once published. */
  locked_choices: z.array(z.string()),
});
export type AdminQuestion = z.infer<typeof AdminQuestionSchema>;

const adminSurveyBase = {
  gid: z.uuid(),
  name: z.string(),
  state: SurveyStateSchema,
  cover_image: z.string().nullable(),
  variant: SurveyVariantSchema,
  slot: z.number().int(),
  release_date: when,
  date_published: when.nullable(),
  /** When it closed (past); null while it takes answers. */
  closed_at: when.nullable(),
  /** Its scheduled close, while still to come; null when none is set or once it has closed. */
  closes_at: when.nullable(),
  /** When it was archived (off the home page; a closed survey only); null otherwise. */
  archived_at: when.nullable(),
  /** One of the sample surveys Candor starts with (not an operator's own). */
  sample: z.boolean(),
  questions_count: z.number().int().min(0),
  /** About how many answers, as published (blurred for privacy): the questions' sum. */
  answers_count: z.number().int().min(0),
};

/** A survey in the admins' list (`GET /admin/surveys/`): every state, in home-page order. */
export const AdminSurveySummarySchema = z.object(adminSurveyBase);
export type AdminSurveySummary = z.infer<typeof AdminSurveySummarySchema>;

export const AdminSurveyListSchema = z.object({ results: z.array(AdminSurveySummarySchema) });
export type AdminSurveyList = z.infer<typeof AdminSurveyListSchema>;

/** A survey as admins edit it (`GET /admin/surveys/{gid}/`). */
export const AdminSurveySchema = z.object({
  ...adminSurveyBase,
  author: z.string(),
  cover_headline: z.string(),
  intro_screen_image: z.string().nullable(),
  intro_screen_text: z.string(),
  outro_screen_text: z.string(),
  randomise_questions: z.boolean(),
  genres: z.array(GenreSchema),
  questions: z.array(AdminQuestionSchema),
  shareable_link: z.string(),
});
export type AdminSurvey = z.infer<typeof AdminSurveySchema>;

/** `PUT /admin/surveys/{gid}/question-order/`: every question's qid, in the new order. */
export const QuestionOrderSchema = z
  .object({
    qids: z
      .array(z.uuid('Unknown question.'))
      .min(1)
      .max(500)
      .refine((qids) => new Set(qids).size === qids.length, 'List each question once.'),
  })
  .strict();
export type QuestionOrder = z.infer<typeof QuestionOrderSchema>;

/** `PUT /admin/survey-order/`: surveys' gids in home-page order; slots become 1, 2, 3... */
export const SurveyOrderSchema = z
  .object({ gids: z.array(z.uuid('Unknown survey.')).min(1).max(1000) })
  .strict();
export type SurveyOrder = z.infer<typeof SurveyOrderSchema>;

/** `POST /admin/genres/`, `PUT /admin/genres/{unique_GID}/`. */
export const GenreInputSchema = z
  .object({ genre_name: trimmed(60, 'A genre name').min(1, 'Name the genre.') })
  .strict();
export type GenreInput = z.infer<typeof GenreInputSchema>;

/** A genre with how many surveys use it (`GET /admin/genres/`). */
export const AdminGenreSchema = GenreSchema.extend({ surveys_count: z.number().int().min(0) });
export type AdminGenre = z.infer<typeof AdminGenreSchema>;
export const AdminGenreListSchema = z.object({ results: z.array(AdminGenreSchema) });
export type AdminGenreList = z.infer<typeof AdminGenreListSchema>;

/** `POST /admin/uploads/` (body: the image bytes, `Content-Type: image/...`). */
export const UploadedImageSchema = z.object({
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
});
export type UploadedImage = z.infer<typeof UploadedImageSchema>;
