// How a published share is said on every screen (graph, outro, mirror, admin), so that one
// answer reads the same wherever it appears. Every share is noisy on purpose; these words say
// how sure it is instead of printing an exact-looking number.

/** A margin in whole points, at least 1 (a share is never claimed exact). */
export const wholeMargin = (margin: number) => Math.max(1, Math.round(margin));

/**
 * Whether a share is inside its own noise: its 95% interval reaches 0, so it cannot be told
 * from nobody, and printing "0%" or "2%" would claim a precision it does not have.
 */
export const withinNoise = (percent: number, margin: number | null) =>
  margin !== null && percent - margin <= 0;

/** The top of a share's interval, in whole points, for "under about N%". */
export const upperBound = (percent: number, margin: number) =>
  Math.max(1, Math.min(100, Math.ceil(percent + margin)));

/**
 * Whether a share inside its noise can still be called "very few": only when even the top of
 * its interval is small. With few answers the interval is wide ("under about 81%"), and all it
 * says is that it is too soon to tell.
 */
export const clearlyFew = (percent: number, margin: number | null) =>
  withinNoise(percent, margin) && upperBound(percent, margin!) <= 15;

/** "31%", or "under about 4%" when the share is inside its noise; "hidden" when not shown. */
export function shareText(percent: number | null, margin: number | null): string {
  if (percent === null) return 'hidden';
  if (withinNoise(percent, margin)) return `under about ${upperBound(percent, margin!)}%`;
  return `${Math.round(percent)}%`;
}

/** The same at the start of a sentence: "About 31% (±3)", "Under about 4%". */
export function aboutShareText(percent: number, margin: number | null): string {
  if (withinNoise(percent, margin)) return `Under about ${upperBound(percent, margin!)}%`;
  return `About ${Math.round(percent)}%${margin !== null ? ` (±${wholeMargin(margin)})` : ''}`;
}

/** "398 verified people" (never "n = 398"). */
export const verifiedPeople = (n: number) =>
  `${n.toLocaleString('en')} verified ${n === 1 ? 'person' : 'people'}`;

/** "±11 points" for a row's note. */
export const pointsText = (margin: number) => {
  const m = wholeMargin(margin);
  return `±${m} ${m === 1 ? 'point' : 'points'}`;
};
