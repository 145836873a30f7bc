import {
  type Arm,
  isDirectOfPair,
  LEAVE_BLANK_CHOICE,
  onePerPair,
  type Question,
  type QuestionResults,
  type SurveyVariant,
} from '@candor/contracts';
import { type MineState, ownState } from '../../../components/results/own-answer';
import { secureRandomInt } from './randomized-response';

/** Where a person is in a survey. */
export type Step =
  | { kind: 'intro' }
  | { kind: 'question'; index: number }
  | { kind: 'feedback'; index: number }
  | { kind: 'gate'; index: number }
  | { kind: 'results' }
  | { kind: 'outro' };

export interface FlowContext {
  questions: Question[];
  variant: SurveyVariant;
  /** qids answered by this person (in this browser or known to the API). */
  answered: ReadonlySet<string>;
  /** Null for a member; for a visitor, how many questions they may answer before signing up. */
  visitorLimit: number | null;
}

export const instantFeedback = (variant: SurveyVariant) => variant.startsWith('v1_');

function firstUnanswered(ctx: FlowContext, from: number): number {
  for (let i = from; i < ctx.questions.length; i++) {
    if (!ctx.answered.has(ctx.questions[i]!.qid)) return i;
  }
  return -1;
}

/** The step to show for question `index`: asked, gated for a visitor at the limit, or its feedback. */
function stepAt(ctx: FlowContext, index: number): Step {
  if (ctx.answered.has(ctx.questions[index]!.qid)) return { kind: 'feedback', index };
  if (ctx.visitorLimit !== null && ctx.answered.size >= ctx.visitorLimit) {
    return { kind: 'gate', index };
  }
  return { kind: 'question', index };
}

function end(ctx: FlowContext): Step {
  return instantFeedback(ctx.variant) ? { kind: 'outro' } : { kind: 'results' };
}

/**
 * A step seen before, as it stands now (Back and Forward, issue 30 point 8): a question
 * answered since shows its feedback (a question is answered once), and a visitor past the free
 * questions meets the sign-up wall.
 */
export function revisit(step: Step, ctx: FlowContext): Step {
  if (step.kind !== 'question' && step.kind !== 'gate' && step.kind !== 'feedback') return step;
  // A feedback screen only for a question answered: an entry made under another order (the
  // person's order redrawn since) never shows a graph of one they have not answered.
  if (step.kind === 'feedback' && ctx.answered.has(ctx.questions[step.index]?.qid ?? ''))
    return step;
  return ctx.questions[step.index] ? stepAt(ctx, step.index) : { kind: 'intro' };
}

/** The step after `step`, once it is done. */
export function nextStep(step: Step, ctx: FlowContext): Step {
  switch (step.kind) {
    case 'intro': {
      const i = firstUnanswered(ctx, 0);
      return i < 0 ? end(ctx) : stepAt(ctx, i);
    }
    case 'question':
      return { kind: 'feedback', index: step.index };
    case 'feedback':
    case 'gate': {
      const i = firstUnanswered(ctx, step.index + (step.kind === 'feedback' ? 1 : 0));
      if (i >= 0) return stepAt(ctx, i);
      // Questions skipped earlier (answered elsewhere, or by a timer) come before the end.
      const earlier = firstUnanswered(ctx, 0);
      return earlier >= 0 ? stepAt(ctx, earlier) : end(ctx);
    }
    case 'results':
      return { kind: 'outro' };
    case 'outro':
      return step;
  }
}

/** Where a reload or a return from signing up lands: the saved active question, if any. */
export function resumeStep(ctx: FlowContext, activeQuestion: string | null): Step {
  const index = activeQuestion ? ctx.questions.findIndex((q) => q.qid === activeQuestion) : -1;
  return index < 0 ? { kind: 'intro' } : stepAt(ctx, index);
}

/** The saved choice order of each closed question of one survey (`currentShuffle`). */
export interface Shuffle {
  gid: string;
  choices: Record<string, string[]>;
  /**
   * Where this person's interest ratings fall (0 to RATE_EVERY - 1), drawn with the shuffle:
   * each question is rated by about one person in RATE_EVERY (absent in older saves: 0).
   */
  rateAt?: number;
  /**
   * Which question of each honesty-gap pair this person is asked (decision 029), by the pair's
   * direct question's qid: drawn once with the shuffle, so a reload asks the same one (absent
   * in older saves: drawn when read).
   */
  arms?: Record<string, Arm>;
  /**
   * The order this person meets the survey's questions in, as qids, where the survey shuffles
   * its questions (`randomise_questions`): drawn once with the shuffle, so a reload asks them in
   * the same order (absent in older saves: drawn when read).
   */
  order?: string[];
}

/**
 * The shuffle with an arm for every pair of the survey, drawn where missing: one of two, each
 * as likely, from the device's secure source (decision 029).
 */
export function withArms(
  shuffle: Shuffle,
  questions: readonly Question[],
  randomInt: (max: number) => number = secureRandomInt,
): Shuffle {
  const arms = { ...shuffle.arms };
  for (const q of questions.filter(isDirectOfPair)) {
    if (arms[q.qid] !== 'direct' && arms[q.qid] !== 'randomized') {
      arms[q.qid] = randomInt(2) === 0 ? 'direct' : 'randomized';
    }
  }
  return { ...shuffle, arms };
}

/** The shuffle with an order of the questions, drawn where missing (older saves). */
export function withOrder(
  shuffle: Shuffle,
  questions: readonly Question[],
  random: () => number = Math.random,
): Shuffle {
  const order = shuffle.order;
  if (Array.isArray(order) && order.every((qid) => typeof qid === 'string')) return shuffle;
  return {
    ...shuffle,
    order: shuffled(
      questions.map((q) => q.qid),
      random,
    ),
  };
}

/**
 * The questions in this person's order: as the saved order ranks them, and any question added
 * since (not in it) after those, in the survey's own order.
 */
export function inPersonsOrder<Q extends Pick<Question, 'qid'>>(
  questions: readonly Q[],
  order: readonly string[] | undefined,
): Q[] {
  if (!order) return [...questions];
  const rank = new Map(order.map((qid, i) => [qid, i]));
  const at = (q: Q, i: number) => rank.get(q.qid) ?? order.length + i;
  return questions
    .map((q, i) => ({ q, at: at(q, i) }))
    .sort((a, b) => a.at - b.at)
    .map(({ q }) => q);
}

/** The questions this person is asked: one of each honesty-gap pair (contracts' `onePerPair`). */
export const askedQuestions = onePerPair;

/**
 * The interest rating is asked after one question in this many, not after every one (issue 30,
 * point 1; decision 007): it costs a decision, and the operators' mean interest needs only a
 * share of the people, so long as every question gets its share.
 */
export const RATE_EVERY = 4;

/** Whether the rating is asked after the question at `index` of this person's survey. */
export function asksRating(shuffle: Pick<Shuffle, 'rateAt'>, index: number): boolean {
  const at = shuffle.rateAt;
  const offset = Number.isInteger(at) && at! >= 0 ? at! % RATE_EVERY : 0;
  return (index + offset) % RATE_EVERY === 0;
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Choice orders for a survey: shuffled where `randomise_answers`, leave-blank always last. */
export function makeShuffle(gid: string, questions: Question[], random = Math.random): Shuffle {
  const choices: Record<string, string[]> = {};
  for (const q of questions) {
    if (q.type !== 'Closed') continue;
    const blank = q.choices.filter((c) => c === LEAVE_BLANK_CHOICE);
    const rest = q.choices.filter((c) => c !== LEAVE_BLANK_CHOICE);
    choices[q.qid] = [...(q.randomise_answers ? shuffled(rest, random) : rest), ...blank];
  }
  return {
    gid,
    choices,
    rateAt: Math.floor(random() * RATE_EVERY),
    order: shuffled(
      questions.map((q) => q.qid),
      random,
    ),
  };
}

/** A saved shuffle still fits when it is for this survey and holds the same choices. */
export function shuffleFits(saved: Shuffle | null, gid: string, questions: Question[]): boolean {
  if (saved?.gid !== gid || typeof saved.choices !== 'object') return false;
  return questions.every((q) => {
    if (q.type !== 'Closed') return true;
    const order = saved.choices[q.qid];
    return (
      Array.isArray(order) &&
      order.length === q.choices.length &&
      [...order].sort().join('\u0000') === [...q.choices].sort().join('\u0000')
    );
  });
}

/** Seconds of a `H:MM:SS` timer; 0 means no timer. */
export function timerSeconds(timerLength: string): number {
  // A part missing or not a number counts as 0.
  const [h = 0, m = 0, s = 0] = timerLength.split(':').map((part) => Number(part) || 0);
  return h * 3600 + m * 60 + s;
}

/**
 * Whether the person's own answer is in published results: a visitor's never is (it waits in
 * the browser); an account under review counts only once approved; a member's answer given in
 * this page after the snapshot joins at the next one. Compares the server's snapshot time with
 * this browser's clock, so a clock that is off can misjudge a snapshot taken within that error
 * of the answer (and no other). After a reload the page no longer knows the time, only the day
 * the API keeps (`day`), and judges by it as the mirror does, so both say the same.
 */
export function mineStateOf(
  member: boolean,
  answeredAt: number | null,
  results: Pick<QuestionResults, 'snapshot_at'>,
  day: string | null = null,
  underReview = false,
): MineState {
  return ownState({ member, underReview, snapshotAt: results.snapshot_at, answeredAt, day });
}
