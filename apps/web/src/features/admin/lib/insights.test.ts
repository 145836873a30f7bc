import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countTicks,
  dayLabelEvery,
  describeInterest,
  describeQuality,
  formatDuration,
  formatShare,
  longDay,
  shortDay,
} from './insights';

describe('formatDuration', () => {
  it('says seconds with one decimal under 10 s, whole seconds under a minute, then minutes', () => {
    expect(formatDuration(0)).toBe('0.0 s');
    expect(formatDuration(4_213)).toBe('4.2 s');
    expect(formatDuration(9_940)).toBe('9.9 s');
    expect(formatDuration(9_960)).toBe('10 s');
    expect(formatDuration(42_400)).toBe('42 s');
    expect(formatDuration(59_600)).toBe('1 min');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });
});

describe('formatShare', () => {
  it('rounds to whole percent, but never turns a few into 0% or nearly all into 100%', () => {
    expect(formatShare(12.3)).toBe('12%');
    expect(formatShare(0)).toBe('0%');
    expect(formatShare(0.2)).toBe('under 1%');
    expect(formatShare(99.8)).toBe('over 99%');
    expect(formatShare(100)).toBe('100%');
  });
});

describe('describeQuality', () => {
  it('gives the median and the share of fast answers', () => {
    expect(
      describeQuality({ timed_answers: 57, answer_time_median_ms: 4_200, fast_share: 12.3 }),
    ).toEqual({
      median: '4.2 s',
      fast: '12% answered in under a third of that',
      basis: 'From 57 timed answers',
    });
  });

  it('says plainly when too few answers were timed', () => {
    expect(
      describeQuality({ timed_answers: 3, answer_time_median_ms: null, fast_share: null }),
    ).toEqual({ median: null, fast: null, basis: 'Not enough timed answers yet (3 of 10 needed)' });
  });
});

describe('describeInterest', () => {
  it('gives the mean out of 10 and how many rated', () => {
    expect(describeInterest({ count: 34, mean: 7.14 })).toEqual({
      mean: '7.1 / 10',
      basis: 'from 34 ratings',
    });
    expect(describeInterest({ count: 10, mean: 7 }).mean).toBe('7.0 / 10');
  });

  it('says plainly when too few rated', () => {
    expect(describeInterest({ count: 1, mean: null })).toEqual({
      mean: null,
      basis: 'Not enough ratings yet (1 of 10 needed)',
    });
  });
});

describe('days', () => {
  it('reads the API days as UTC calendar days', () => {
    expect(shortDay('2026-03-07')).toBe('7 Mar');
    expect(longDay('2026-03-07')).toBe('Sat, 7 Mar 2026');
  });
});

describe('countTicks', () => {
  it('steps by 1, 2 or 5 times a power of ten', () => {
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(13)).toEqual([0, 5, 10, 15]);
    expect(countTicks(40)).toEqual([0, 10, 20, 30, 40]);
    expect(countTicks(41)).toEqual([0, 20, 40, 60]);
    expect(countTicks(1_234)).toEqual([0, 500, 1_000, 1_500]);
  });

  it('always reaches the largest count in 1 to 4 equal whole steps', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), (max) => {
        const ticks = countTicks(max);
        const step = ticks[1]! - ticks[0]!;
        expect(ticks[0]).toBe(0);
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        expect(ticks.length).toBeLessThanOrEqual(5);
        expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(max);
        expect(Number.isInteger(step)).toBe(true);
        expect(/^[125]0*$/.test(String(step))).toBe(true);
        ticks.forEach((t, i) => expect(t).toBe(i * step));
      }),
    );
  });
});

describe('dayLabelEvery', () => {
  it('prints at most the room given, and every day when they fit', () => {
    expect(dayLabelEvery(7, 6)).toBe(2);
    expect(dayLabelEvery(6, 6)).toBe(1);
    expect(dayLabelEvery(90, 6)).toBe(15);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 40 }), (n, room) => {
        const every = dayLabelEvery(n, room);
        expect(Math.ceil(n / every)).toBeLessThanOrEqual(room);
      }),
    );
  });
});
