import {
  type AdminQuestion,
  type QuestionInput,
  type SurveyFile,
  SurveyFileSchema,
  type SurveyState,
  type SurveyVariant,
  UPLOAD_IMAGE_TYPES,
  UPLOAD_MAX_BYTES,
} from '@candor/contracts';

export const STATE_LABELS: Record<SurveyState, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  open: 'Open',
  closed: 'Closed',
};

/** What each state means for respondents, in one line for the editor's status card. */
export const STATE_NOTES: Record<SurveyState, string> = {
  draft: 'Only staff can see it. Publish it to put it on the home page at its release date.',
  scheduled: 'Published: it appears on the home page at its release date.',
  open: 'On the home page: people are answering it.',
  closed: 'Closed: people can see its results but no longer answer.',
};

/**
 * The list with the item at `index` moved by `delta` places (-1 up, +1 down); the same list when
 * the move would leave it. Never changes its input.
 */
export function moveItem<T>(list: readonly T[], index: number, delta: number): T[] {
  const to = index + delta;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length || delta === 0) {
    return [...list];
  }
  const out = [...list];
  const [item] = out.splice(index, 1);
  out.splice(to, 0, item!);
  return out;
}

/** True when two lists hold the same items in the same order. */
export const sameOrder = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO date-time as the value of a `datetime-local` input, in this browser's time zone. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A `datetime-local` value (`2026-03-01T09:30`, seconds optional) as ISO 8601 with this browser's
 * offset on that day (`2026-03-01T09:30:00+01:00`), or null when it is not a date and time.
 */
export function fromLocalInput(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m
    .slice(1)
    .map((p: string | undefined) => Number(p ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const d = new Date(year, month - 1, day, hour, minute, second);
  // Reject dates the calendar does not have (31 April) rather than rolling them over.
  if (d.getFullYear() !== year || d.getMonth() !== month - 1 || d.getDate() !== day) return null;
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return (
    `${year}-${pad(month)}-${pad(day)}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** This browser's time zone name, to say which clock the release date is on. */
export function localZoneName(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'your time zone';
  } catch {
    return 'your time zone';
  }
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

/** Why an image cannot be uploaded (checked before sending; the API checks again), or null. */
export function imageProblem(file: { type: string; size: number }): string | null {
  if (!(UPLOAD_IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return 'Choose a JPEG, PNG, WebP or GIF image.';
  }
  if (file.size > UPLOAD_MAX_BYTES) {
    return `That image is ${sizeText(file.size)}: images can be at most ${sizeText(UPLOAD_MAX_BYTES)}.`;
  }
  if (file.size === 0) return 'That file is empty.';
  return null;
}

export type Feedback = 'v1' | 'v2';
export type BrickSize = 'large' | 'medium' | 'small';

/** A variant's two halves: when feedback comes, and the brick's size on the home page. */
export function splitVariant(variant: SurveyVariant): { feedback: Feedback; size: BrickSize } {
  const [feedback, size] = variant.split('_') as [Feedback, BrickSize];
  return { feedback, size };
}

export const joinVariant = (feedback: Feedback, size: BrickSize): SurveyVariant =>
  `${feedback}_${size}`;

export const FEEDBACK_LABELS: Record<Feedback, { label: string; note: string }> = {
  v1: { label: 'Instant feedback', note: 'the graph of everyone’s answers after each answer' },
  v2: { label: 'Feedback at the end', note: 'all graphs together after the last question' },
};

export const SIZE_LABELS: Record<BrickSize, string> = {
  large: 'Large',
  medium: 'Medium',
  small: 'Small',
};

export const QUESTION_TYPE_LABELS: Record<QuestionFormValues['type'], string> = {
  Closed: 'Multiple choice',
  Open: 'Written answer',
};

/** One row of the choices editor; `original` is the saved label (null for a new row). */
export interface ChoiceRow {
  label: string;
  original: string | null;
}

/** A row whose saved label has answers: it may move, never be removed or renamed. */
export const isLocked = (row: ChoiceRow, locked: readonly string[]): boolean =>
  row.original !== null && locked.includes(row.original);

/** The question form's values: text inputs stay strings until the form is sent. */
export interface QuestionFormValues {
  type: 'Closed' | 'Open';
  question: string;
  choices: ChoiceRow[];
  randomise_answers: boolean;
  timer_seconds: string;
  video_link_1: string;
  video_link_2: string;
  video_captions_1: string;
  video_captions_2: string;
  max_length: string;
  /** Randomized response's weight m as text ('' when off): one of RR_WEIGHTS. */
  rr_weight: string;
  /** The honesty gap's pair: the qid of the question this one asks again ('' for none). */
  twin_qid: string;
}

/** An empty closed question with two blank choices to fill in. */
export const newQuestionValues = (): QuestionFormValues => ({
  type: 'Closed',
  question: '',
  choices: [
    { label: '', original: null },
    { label: '', original: null },
  ],
  randomise_answers: true,
  timer_seconds: '0',
  video_link_1: '',
  video_link_2: '',
  video_captions_1: '',
  video_captions_2: '',
  max_length: '',
  rr_weight: '',
  twin_qid: '',
});

/** A saved question as form values. */
export function questionValues(q: AdminQuestion): QuestionFormValues {
  return {
    type: q.type,
    question: q.question,
    choices: q.choices.map((label) => ({ label, original: label })),
    randomise_answers: q.randomise_answers,
    timer_seconds: String(q.timer_seconds),
    video_link_1: q.video_link_1 ?? '',
    video_link_2: q.video_link_2 ?? '',
    video_captions_1: q.video_captions_1 ?? '',
    video_captions_2: q.video_captions_2 ?? '',
    max_length: q.max_length === null ? '' : String(q.max_length),
    rr_weight: q.rr_weight === null ? '' : String(q.rr_weight),
    twin_qid: q.twin_qid ?? '',
  };
}

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
const wholeNumber = (value: string) => (value.trim() === '' ? NaN : Number(value.trim()));

/**
 * Form values as the API's QuestionInput: empty links become null; an open question sends no
 * choices; a number that is not one is sent as NaN so the schema names the field.
 */
export function questionInput(values: QuestionFormValues): QuestionInput {
  const closed = values.type === 'Closed';
  const randomized = closed && values.rr_weight !== '';
  return {
    type: values.type,
    question: values.question.trim(),
    choices: closed ? values.choices.map((c) => c.label.trim()) : [],
    randomise_answers: closed ? values.randomise_answers : false,
    timer_seconds: values.timer_seconds.trim() === '' ? 0 : wholeNumber(values.timer_seconds),
    video_link_1: orNull(values.video_link_1),
    video_link_2: orNull(values.video_link_2),
    video_captions_1: orNull(values.video_captions_1),
    video_captions_2: orNull(values.video_captions_2),
    max_length: closed || values.max_length.trim() === '' ? null : wholeNumber(values.max_length),
    rr_weight: randomized ? Number(values.rr_weight) : null,
    // Only a randomized question asks another again (decision 029).
    twin_qid: randomized && values.twin_qid !== '' ? values.twin_qid : null,
  };
}

/**
 * The published (blurred) number of answers: "About 120 answers", "None published yet". Staff
 * never see true counts: which questions have answers is answer data (docs/decisions/011).
 */
export const answersText = (n: number): string =>
  n === 0 ? 'None published yet' : `About ${n.toLocaleString('en-US')} answers`;

/**
 * A survey file's text read as SurveyFile, or the problems to show, each once and named by where
 * it is ("Question 3: Choices cannot be empty."): checked here first, so a wrong file never
 * reaches the API.
 */
export function readSurveyFile(
  text: string,
): { file: SurveyFile; problems: null } | { file: null; problems: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { file: null, problems: ['This file is not a survey file: it is not JSON.'] };
  }
  const parsed = SurveyFileSchema.safeParse(raw);
  if (parsed.success) return { file: raw as SurveyFile, problems: null };
  // Another kind of file: that is the one thing to say.
  const format = parsed.error.issues.find((issue) => issue.path[0] === 'format');
  if (format) return { file: null, problems: [format.message] };
  const problems = parsed.error.issues.map((issue) => {
    const [where, index] = issue.path;
    const n = typeof index === 'number' ? index + 1 : null;
    if (where === 'questions' && n) return `Question ${n}: ${issue.message}`;
    if (where === 'pairs' && n) return `Pair ${n}: ${issue.message}`;
    if (issue.code === 'unrecognized_keys') {
      return `The file holds something a survey file does not: ${issue.keys.join(', ')}.`;
    }
    return issue.message;
  });
  return { file: null, problems: [...new Set(problems)] };
}
