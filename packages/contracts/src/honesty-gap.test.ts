import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededInts as seeded } from './testing/seeded.js';
import { clearGap, gapChoices, honestyGap } from './honesty-gap.js';
import { marginPoints, samplingVariance } from './intervals.js';
import { rrEstimateCounts, rrReport } from './randomized-response.js';

const share = fc.record({
  percent: fc.float({ min: 0, max: 100, noNaN: true }),
  margin: fc.float({ min: 0, max: 40, noNaN: true }),
});

describe('the honesty gap', () => {
  it('is the randomized arm less the direct one, its margin the two added as variances', () => {
    const gap = honestyGap({ percent: 12, margin: 3 }, { percent: 20, margin: 4 })!;
    expect(gap).toEqual({ points: 8, margin: 5, low: 3, high: 13 });
    expect(clearGap(gap)).toBe(true);
    expect(clearGap(honestyGap({ percent: 12, margin: 3 }, { percent: 15, margin: 4 })!)).toBe(
      false,
    );
  });

  it('pairs the answers by label, leaves blank out, and says nothing of a hidden share', () => {
    const row = (
      choice: string,
      percent: number | null,
      margin: number | null,
      is_blank = false,
    ) => ({ choice, percent, margin, is_blank });
    const direct = [row('Yes', 12, 3), row('No', 80, 3), row('Leave blank', 8, 2, true)];
    const randomized = [row('No', 72, 4), row('Yes', 20, 4), row('Leave blank', 8, 2, true)];
    expect(gapChoices(direct, randomized)).toEqual([
      { choice: 'Yes', points: 8, margin: 5, low: 3, high: 13, clear: true },
      { choice: 'No', points: -8, margin: 5, low: -13, high: -3, clear: true },
    ]);
    expect(gapChoices(direct, [row('Yes', null, null), row('Maybe', 50, 4)])).toEqual([
      { choice: 'Yes', points: null, margin: null, low: null, high: null, clear: false },
      { choice: 'No', points: null, margin: null, low: null, high: null, clear: false },
    ]);
  });

  it('never guesses at a hidden share', () => {
    expect(honestyGap({ percent: null, margin: 3 }, { percent: 20, margin: 4 })).toBeNull();
    expect(honestyGap({ percent: 12, margin: 3 }, { percent: 20, margin: null })).toBeNull();
  });

  it('is at least as unsure as either arm, and flips sign with the arms', () => {
    fc.assert(
      fc.property(share, share, (a, b) => {
        const gap = honestyGap(a, b)!;
        const back = honestyGap(b, a)!;
        expect(gap.margin).toBeGreaterThanOrEqual(Math.max(a.margin, b.margin) - 0.05);
        expect(gap.points).toBeCloseTo(-back.points, 1);
        expect(gap.low).toBeLessThanOrEqual(gap.points);
        expect(gap.high).toBeGreaterThanOrEqual(gap.points);
      }),
    );
  });

  it('covers the true gap 95 times in 100 when a fifth of those who did it deny it when asked directly', () => {
    const random = seeded(20261128);
    // Truth: 30% did it. Asked directly, a fifth of them say "no": 24% say "yes".
    const did = 0.3;
    const lie = 0.2;
    const trueGap = did * lie * 100;
    const design = { choices: 2, weight: 3 };
    const trials = 400;
    let covered = 0;
    let seen = 0;
    for (let t = 0; t < trials; t++) {
      const n = 600; // per arm
      let directYes = 0;
      const sent = [0, 0];
      for (let person = 0; person < n; person++) {
        const yes = random(1_000_000) / 1_000_000 < did;
        if (yes && random(1_000_000) / 1_000_000 >= lie) directYes++;
      }
      for (let person = 0; person < n; person++) {
        const yes = random(1_000_000) / 1_000_000 < did;
        // Nobody can know: the randomized arm answers truthfully.
        sent[rrReport(yes ? 0 : 1, design, random)]! += 1;
      }
      const directShare = directYes / n;
      const direct = {
        percent: directShare * 100,
        margin: marginPoints(samplingVariance(directShare, n)),
      };
      const estimate = rrEstimateCounts(sent, design)[0]!;
      const randomized = {
        percent: estimate.percent,
        margin: Math.max(estimate.percent - estimate.low, estimate.high - estimate.percent),
      };
      const gap = honestyGap(direct, randomized)!;
      if (gap.low <= trueGap && trueGap <= gap.high) covered++;
      if (clearGap(gap) && gap.points > 0) seen++;
    }
    // 400 trials: the rate's standard error is about 1.1 points.
    expect(covered / trials).toBeGreaterThan(0.92);
    expect(covered / trials).toBeLessThan(0.99);
    // A 6-point gap in arms of 600 is told apart from none about a quarter of the time (27% with
    // this seed): the screens say "no clear gap" otherwise, never a gap the margins do not allow.
    expect(seen / trials).toBeGreaterThan(0.15);
    expect(seen / trials).toBeLessThan(0.45);
  });
});
