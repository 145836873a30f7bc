import type { AnswerQuality, RatingsSummary } from '@candor/contracts';

/** Below this many timed answers or ratings the API gives no median or mean. */
export const MINIMUM_SAMPLE = 10;

const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** "4.2 s" under 10 s, "42 s" under a minute, then "2 min 5 s". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 9.95) return `${oneDecimal.format(seconds)} s`;
  const rounded = Math.round(seconds);
  if (rounded < 60) return `${rounded} s`;
  const minutes = Math.floor(rounded / 60);
  const rest = rounded % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** A share of 0..100 in whole percent; a small share that is not zero never reads as "0%". */
export function formatShare(percent: number): string {
  if (percent > 0 && percent < 0.5) return 'under 1%';
  if (percent < 100 && percent > 99.5) return 'over 99%';
  return `${whole.format(percent)}%`;
}

/** "12 ratings", "1 timed answer". */
export const countOf = (n: number, one: string, many: string): string =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** How answers were given, in words; `null` fields while too few answers were timed. */
export function describeQuality(quality: AnswerQuality): {
  median: string | null;
  fast: string | null;
  basis: string;
} {
  const n = quality.timed_answers;
  if (quality.answer_time_median_ms === null) {
    return {
      median: null,
      fast: null,
      basis: `Not enough timed answers yet (${n} of ${MINIMUM_SAMPLE} needed)`,
    };
  }
  return {
    median: formatDuration(quality.answer_time_median_ms),
    fast:
      quality.fast_share === null
        ? null
        : `${formatShare(quality.fast_share)} answered in under a third of that`,
    basis: `From ${countOf(n, 'timed answer', 'timed answers')}`,
  };
}

/** How interesting members found the question: the mean rating out of 10, or why there is none. */
export function describeInterest(ratings: RatingsSummary): { mean: string | null; basis: string } {
  if (ratings.mean === null) {
    return {
      mean: null,
      basis: `Not enough ratings yet (${ratings.count} of ${MINIMUM_SAMPLE} needed)`,
    };
  }
  return {
    mean: `${oneDecimal.format(ratings.mean)} / 10`,
    basis: `from ${countOf(ratings.count, 'rating', 'ratings')}`,
  };
}

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const longDayFormat = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** `2026-03-07` as "7 Mar" (the API's days are UTC calendar days). */
export const shortDay = (day: string): string => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** `2026-03-07` as "Sat, 7 Mar 2026". */
export const longDay = (day: string): string => longDayFormat.format(new Date(`${day}T00:00:00Z`));

/**
 * The value axis of a count chart: 0 up to at least `max` in 2 to 5 equal whole steps of 1, 2
 * or 5 times a power of ten (0, 5, 10, 15 rather than 0, 4.3, 8.6, 12.9).
 */
export function countTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(max));
  let step = 1;
  for (let magnitude = 1; ; magnitude *= 10) {
    const fit = [1, 2, 5].map((m) => m * magnitude).find((s) => Math.ceil(top / s) <= 4);
    if (fit !== undefined) {
      step = fit;
      break;
    }
  }
  const steps = Math.max(1, Math.ceil(top / step));
  return Array.from({ length: steps + 1 }, (_, i) => i * step);
}

/** Which of `count` day labels to print so that about `room` of them fit side by side. */
export function dayLabelEvery(count: number, room: number): number {
  return Math.max(1, Math.ceil(count / Math.max(1, room)));
}
