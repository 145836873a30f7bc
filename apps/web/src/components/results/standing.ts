import type { MirrorItem, Question, QuestionResults } from '@candor/contracts';
import { firstGraphShort } from './first-graph';
import { type MineState, stateNote } from './own-answer';
import { aboutShareText } from './shares';

/**
 * One of the person's answers against everyone's: what they gave, and the published share of
 * people who gave the same (the outro and the mirror show it, and rank the most unusual).
 */
export interface Standing {
  qid: string;
  question: string;
  gid: string;
  survey: string;
  /** The choice or the written answer; '' when left blank. */
  answer: string;
  isBlank: boolean;
  closed: boolean;
  /** Published share (0..100) of everyone counted who gave the same answer; null when not shown. */
  percent: number | null;
  /** Half-width of that share's 95% interval, in points; null likewise. */
  margin: number | null;
  /** About how many people the question's published results count; null while too few. */
  respondents: number | null;
  /** Whether the person's own answer is in these numbers yet. */
  state: MineState;
  /** The published `next_update_after`: when an answer not in the numbers yet joins them. */
  nextUpdateAfter: number | null;
}

/** A standing whose share is shown: the only kind that can be ranked. */
export type RankedStanding = Standing & { percent: number };

/**
 * Whether a standing takes part in the ranking: a closed question answered (not left blank)
 * whose share is published. A hidden share is never guessed at, and never ranked as 0.
 */
export const isRanked = (s: Standing): s is RankedStanding =>
  s.closed && !s.isBlank && s.percent !== null;

/**
 * The person's `n` most unusual answers: those whose published share is smallest, among the
 * answers whose share is shown. Answers of equal share keep the order they came in.
 */
export function mostUnusual(standings: readonly Standing[], n = 3): RankedStanding[] {
  return standings
    .filter(isRanked)
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.percent - b.s.percent || a.i - b.i)
    .slice(0, Math.max(0, n))
    .map(({ s }) => s);
}

/** Items grouped by survey, surveys in the order of their first item, items kept in order. */
export function groupBySurvey<T extends { gid: string; survey: string }>(
  items: readonly T[],
): Array<{ gid: string; survey: string; items: T[] }> {
  const groups = new Map<string, { gid: string; survey: string; items: T[] }>();
  for (const item of items) {
    let group = groups.get(item.gid);
    if (!group) groups.set(item.gid, (group = { gid: item.gid, survey: item.survey, items: [] }));
    group.items.push(item);
  }
  return [...groups.values()];
}

/** A standing from a question's published results and the person's answer to it. */
export function standingOf({
  question,
  survey,
  answer,
  isBlank,
  results,
  state,
}: {
  question: Pick<Question, 'qid' | 'question' | 'type'>;
  survey: { gid: string; name: string };
  answer: string;
  isBlank: boolean;
  results: Pick<QuestionResults, 'respondents' | 'choices' | 'next_update_after'> | null;
  state: MineState;
}): Standing {
  const closed = question.type === 'Closed';
  const own =
    closed && !isBlank
      ? results?.choices.find((c) => !c.is_blank && c.choice === answer)
      : undefined;
  return {
    qid: question.qid,
    question: question.question,
    gid: survey.gid,
    survey: survey.name,
    answer,
    isBlank,
    closed,
    percent: own?.percent ?? null,
    margin: own && own.percent !== null ? own.margin : null,
    respondents: results?.respondents ?? null,
    state,
    nextUpdateAfter: results?.next_update_after ?? null,
  };
}

/** A standing from a mirror item (the API computed the share the same way). */
export function standingOfMirror(item: MirrorItem, state: MineState): Standing {
  return {
    qid: item.qid,
    question: item.question,
    gid: item.gid,
    survey: item.survey,
    answer: item.answer,
    isBlank: item.is_blank,
    closed: item.type === 'Closed',
    percent: item.same_percent,
    margin: item.same_margin,
    respondents: item.respondents,
    state,
    nextUpdateAfter: item.next_update_after,
  };
}

/** A share in words: "About 12% (±3)", or "Under about 4%" inside its noise (shares.ts). */
export function aboutShare(s: RankedStanding): string {
  return aboutShareText(s.percent, s.margin);
}

/** How a standing compares, in words a person reads; null when there is nothing to compare. */
export function standingText(s: Standing): string | null {
  if (s.isBlank) return null;
  if (s.respondents === null) return firstGraphShort(s.nextUpdateAfter);
  // Written answers are not compared one by one: they are the person's own.
  if (!s.closed) return `One of about ${s.respondents.toLocaleString('en')} people who answered`;
  if (!isRanked(s)) return 'Share hidden to protect privacy';
  return s.state === 'not-counted'
    ? `${aboutShare(s)} of verified people chose this`
    : `${aboutShare(s)} answered the same`;
}

/** Whether the person's answer is in the numbers, said beside them (the graph's own words). */
export const standingNote = (s: Standing) => stateNote(s.state, s.nextUpdateAfter);
