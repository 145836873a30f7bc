/**
 * The honesty gap (issue 29, point 4; decision 029, proposed): one question asked both directly
 * and with randomized response, each respondent given one of the two at random. The gap is how
 * many more points choose an answer when nobody can know it: the randomized arm's estimate less
 * the direct arm's share. Both are published rows (noisy, with their margins, decisions 011 and
 * 027), so the gap is post-processing of them and costs no privacy. The arms hold different
 * people, so their errors are independent and the 95% margins add as variances.
 */

import type { GapChoice, ShareWithMargin } from './results.js';

/** A gap in points (randomized less direct, one decimal) with its 95% interval. */
export interface HonestyGap {
  points: number;
  margin: number;
  low: number;
  high: number;
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/**
 * The gap for one answer, from its share in the direct arm and its estimate in the randomized
 * arm (both of everyone counted in their arm); null while either is hidden or has no margin.
 */
export function honestyGap(
  direct: ShareWithMargin,
  randomized: ShareWithMargin,
): HonestyGap | null {
  if (direct.percent === null || randomized.percent === null) return null;
  if (direct.margin === null || randomized.margin === null) return null;
  const points = randomized.percent - direct.percent;
  const margin = Math.hypot(direct.margin, randomized.margin);
  return {
    points: oneDecimal(points),
    margin: oneDecimal(margin),
    low: oneDecimal(points - margin),
    high: oneDecimal(points + margin),
  };
}

/**
 * Whether the gap is clearly there: its interval leaves out 0. Only then may a screen say that
 * more (or fewer) choose the answer when nobody can know; otherwise "no clear gap".
 */
export const clearGap = (gap: HonestyGap) => gap.low > 0 || gap.high < 0;

/** A published answer's row as the gap reads it. */
export interface GapInput extends ShareWithMargin {
  choice: string;
  is_blank: boolean;
}

/**
 * The gap for each answer to pick from (leaving blank is never randomized), in the direct
 * question's order, matched by label: both questions have the same choices (decision 029).
 */
export function gapChoices(
  direct: readonly GapInput[],
  randomized: readonly GapInput[],
): GapChoice[] {
  return direct
    .filter((d) => !d.is_blank)
    .map((d) => {
      const r = randomized.find((c) => c.choice === d.choice && !c.is_blank);
      const gap = r ? honestyGap(d, r) : null;
      return gap
        ? { choice: d.choice, ...gap, clear: clearGap(gap) }
        : { choice: d.choice, points: null, margin: null, low: null, high: null, clear: false };
    });
}

/** One arm of an honesty-gap pair: asked directly, or with randomized response. */
export type Arm = 'direct' | 'randomized';

/** What pairing reads of a question (a survey's or a survey list's). */
export interface PairedQuestion {
  qid: string;
  twin_qid: string | null;
  rr_weight: number | null;
}

/** Whether a question is the direct (ordinary) question of an honesty-gap pair. */
export const isDirectOfPair = (q: PairedQuestion) => q.twin_qid !== null && q.rr_weight === null;

/**
 * The questions a person is asked, in the survey's order: one of each honesty-gap pair, never
 * both (the API takes one answer per pair from a credential). An answer already given settles
 * the pair; otherwise the arm drawn on the device (`arms`, by the direct question's qid) does,
 * and without one the direct question stands for the pair (a brick's count and time). Every
 * screen that counts a survey's questions for a person counts these.
 */
export function onePerPair<Q extends PairedQuestion>(
  questions: readonly Q[],
  arms: Readonly<Record<string, Arm>> | undefined,
  answered: ReadonlySet<string>,
): Q[] {
  const skipped = new Set<string>();
  for (const direct of questions.filter(isDirectOfPair)) {
    const twin = direct.twin_qid!;
    const arm = answered.has(direct.qid)
      ? 'direct'
      : answered.has(twin)
        ? 'randomized'
        : (arms?.[direct.qid] ?? 'direct');
    skipped.add(arm === 'direct' ? twin : direct.qid);
  }
  return questions.filter((q) => !skipped.has(q.qid));
}
