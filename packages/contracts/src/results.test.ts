import { describe, expect, it } from 'vitest';
import { standingAmong } from './results.js';

const s = (percent: number | null, margin: number | null = 3) => ({ percent, margin });

describe('standingAmong', () => {
  it('calls a share a minority only when it is clearly below every other answer', () => {
    // The review's case: 50 / 31 / 19, the person gave the 31% answer. Fewer than the most
    // chosen, but more than the 19%: "fewer than most", not a minority.
    expect(standingAmong(s(31), [s(50), s(19)])).toBe('fewer');
    expect(standingAmong(s(19), [s(50), s(31)])).toBe('minority');
    expect(standingAmong(s(50), [s(31), s(19)])).toBe('largest');
  });

  it('says nothing the margins do not allow', () => {
    // 35% against 65% of a small question (margins of 20 and 26 points): level, not ranked.
    expect(standingAmong(s(35.5, 19.5), [s(64.5, 25.7)])).toBe('level');
    expect(standingAmong(s(48), [s(46), s(6)])).toBe('level');
    // Intervals that touch are not apart.
    expect(standingAmong(s(40, 5), [s(50, 5)])).toBe('level');
    expect(standingAmong(s(40, 5), [s(50.1, 5)])).toBe('minority');
  });

  it('never guesses at a hidden share', () => {
    expect(standingAmong(s(10), [s(null, null), s(80)])).toBeNull();
    expect(standingAmong(s(null, null), [s(80)])).toBeNull();
  });
});
