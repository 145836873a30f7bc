/**
 * Randomized response (issue 29, point 3): the statistics shared by the device, which draws the
 * answer it sends, and the results, which turn what was sent back into an estimate of the true
 * shares. Candor's own mechanism, written here by hand and checked by property tests and a
 * seeded simulation (randomized-response.test.ts).
 *
 * The design is k-ary randomized response (Warner's for k = 2): the device sends the person's
 * true choice with probability m / (m + k - 1) and each other choice with 1 / (m + k - 1), for a
 * whole number m >= 1. That is local differential privacy with epsilon = ln m, exactly: the
 * draw is one uniform integer below m + k - 1, so no rounding of a probability weakens it.
 */

import { marginPoints, samplingVariance } from './intervals.js';
import type { ShareWithMargin } from './results.js';

/**
 * The weights (m) an author picks from, strongest deniability first: with 4 choices they let an
 * operator holding everything be at most 50%, 75% or 86% sure of anyone's true choice.
 */
export const RR_WEIGHTS = [3, 9, 19] as const;
/** The largest weight the API takes (epsilon ln 99, about 4.6): beyond it deniability is thin. */
export const RR_MAX_WEIGHT = 99;

/** A question's randomized-response design: k choices, and m = e^epsilon (a whole number). */
export interface RrDesign {
  choices: number;
  weight: number;
}

/** The probabilities of sending the true choice, and of sending each other choice. */
export function rrProbabilities({ choices, weight }: RrDesign): { keep: number; other: number } {
  if (!Number.isInteger(choices) || choices < 2) throw new RangeError('at least 2 choices');
  if (!Number.isInteger(weight) || weight < 1) throw new RangeError('a whole weight of 1 or more');
  const outcomes = weight + choices - 1;
  return { keep: weight / outcomes, other: 1 / outcomes };
}

/** The local epsilon of a design: ln m. */
export const rrEpsilon = ({ weight }: RrDesign) => Math.log(weight);

/**
 * The most anyone holding everything (the stored answer and the design) can be sure of a
 * person's true choice, when every choice was as likely beforehand: the chance the stored
 * choice is the true one. 4 choices at epsilon ln 9: 75%.
 */
export const rrCertaintyCap = (design: RrDesign) => rrProbabilities(design).keep;

/**
 * The choice the device sends for the true choice `truth` (0..k-1). `randomInt(n)` must be a
 * uniform integer in [0, n) from a cryptographically secure source (the browser's
 * crypto.getRandomValues); it is called once.
 */
export function rrReport(
  truth: number,
  design: RrDesign,
  randomInt: (maxExclusive: number) => number,
): number {
  const { choices, weight } = design;
  rrProbabilities(design);
  if (!Number.isInteger(truth) || truth < 0 || truth >= choices) {
    throw new RangeError('the true choice is one of the choices');
  }
  const r = randomInt(weight + choices - 1);
  if (r < weight) return truth;
  // The k - 1 other choices, in order, skipping the true one.
  const other = r - weight;
  return other < truth ? other : other + 1;
}

/** An estimated true share: the point, in points (0..100, one decimal), and its 95% interval. */
export interface RrEstimate {
  percent: number;
  low: number;
  high: number;
  /**
   * The half-width of the interval before it is kept within 0..answered: the sent margin over
   * (keep - other). Published as the estimate's margin, so a point clipped to 0 reads "under
   * about N%", never an exact-looking "0-0%".
   */
  margin: number;
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;
const clamp = (n: number) => Math.min(100, Math.max(0, n));

/**
 * Turns the share sent for one choice back into an estimate of the share that truly holds it:
 * sent = other + (keep - other) * true, so true = (sent - other) / (keep - other). The margin
 * of the sent share (sampling and any published noise, as every published row gives it) is
 * divided by (keep - other) the same way.
 *
 * `answeredPercent` is the share of the row that chose an answer rather than leaving it blank
 * (leaving blank is never randomized): shares are of everyone counted, so the point is
 * (sent - answered * other) / (keep - other), and it and its interval are kept within
 * 0..answered. The blank share is taken as known: its own uncertainty is not added.
 */
export function rrEstimate(
  sentPercent: number,
  sentMargin: number,
  design: RrDesign,
  answeredPercent = 100,
): RrEstimate {
  const { keep, other } = rrProbabilities(design);
  const gain = keep - other;
  const point = (sentPercent - answeredPercent * other) / gain;
  const margin = sentMargin / gain;
  const within = (n: number) => oneDecimal(Math.min(answeredPercent, clamp(n)));
  return {
    percent: within(point),
    low: within(point - margin),
    high: within(point + margin),
    margin: oneDecimal(margin),
  };
}

/**
 * The estimates of one published row of a randomized-response question (choices in order, the
 * leave-blank one among them): null for the blank choice, and for every choice while any
 * answered share is hidden (a hidden share is never guessed at). Post-processing of what the
 * row publishes, so it costs no privacy.
 */
export function rrEstimateRow(
  rows: ReadonlyArray<ShareWithMargin & { is_blank: boolean }>,
  weight: number,
): Array<RrEstimate | null> {
  const answered = rows.filter((r) => !r.is_blank);
  const none = rows.map(() => null);
  if (answered.length < 2 || answered.some((r) => r.percent === null || r.margin === null)) {
    return none;
  }
  const answeredPercent = Math.min(
    100,
    answered.reduce((sum, r) => sum + r.percent!, 0),
  );
  if (answeredPercent <= 0) return none;
  const design = { choices: answered.length, weight };
  return rows.map((r) =>
    r.is_blank ? null : rrEstimate(r.percent!, r.margin!, design, answeredPercent),
  );
}

/**
 * Estimates from the counts of what was sent (no published noise): each choice's estimate with
 * the Jeffreys sampling interval of its sent share (`samplingVariance`), through `rrEstimate`.
 */
export function rrEstimateCounts(sent: readonly number[], design: RrDesign): RrEstimate[] {
  const n = sent.reduce((a, b) => a + b, 0);
  return sent.map((count) => {
    const share = n > 0 ? count / n : 0;
    return rrEstimate(share * 100, marginPoints(samplingVariance(share, n)), design);
  });
}
