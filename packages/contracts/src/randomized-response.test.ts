import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededInts as seeded } from './testing/seeded.js';
import {
  rrCertaintyCap,
  rrEpsilon,
  rrEstimate,
  rrEstimateCounts,
  rrEstimateRow,
  rrProbabilities,
  rrReport,
} from './randomized-response.js';

const designs = fc.record({
  choices: fc.integer({ min: 2, max: 8 }),
  weight: fc.integer({ min: 1, max: 30 }),
});

describe('randomized response', () => {
  it('4 choices at epsilon ln 9 cap anyone’s certainty at 75%', () => {
    const design = { choices: 4, weight: 9 };
    expect(rrEpsilon(design)).toBeCloseTo(Math.log(9), 12);
    expect(rrCertaintyCap(design)).toBe(0.75);
    expect(rrProbabilities(design)).toEqual({ keep: 0.75, other: 1 / 12 });
  });

  it('is epsilon-LDP exactly: every stored choice is at most e^epsilon times likelier under one truth than another', () => {
    fc.assert(
      fc.property(designs, (design) => {
        const { keep, other } = rrProbabilities(design);
        expect(keep + other * (design.choices - 1)).toBeCloseTo(1, 12);
        expect(keep / other).toBeCloseTo(Math.exp(rrEpsilon(design)), 9);
        // Every draw of the uniform integer, for every truth: the exact distribution sent.
        const outcomes = design.weight + design.choices - 1;
        for (let truth = 0; truth < design.choices; truth++) {
          const sent = new Array<number>(design.choices).fill(0);
          for (let r = 0; r < outcomes; r++) sent[rrReport(truth, design, () => r)]! += 1;
          sent.forEach((n, choice) => expect(n).toBe(choice === truth ? design.weight : 1));
        }
      }),
    );
  });

  it('refuses a design or a truth it cannot draw for', () => {
    const random = seeded(1);
    expect(() => rrReport(0, { choices: 1, weight: 3 }, random)).toThrow(RangeError);
    expect(() => rrReport(0, { choices: 3, weight: 0 }, random)).toThrow(RangeError);
    expect(() => rrReport(0, { choices: 3, weight: 2.5 }, random)).toThrow(RangeError);
    expect(() => rrReport(3, { choices: 3, weight: 3 }, random)).toThrow(RangeError);
  });

  it('debiases the expected sent shares back to the true ones exactly', () => {
    fc.assert(
      fc.property(
        designs,
        fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 8, maxLength: 8 }),
        (design, weights) => {
          const raw = weights.slice(0, design.choices);
          const sum = raw.reduce((a, b) => a + b, 0) || 1;
          const truth = raw.map((w) => w / sum);
          const { keep, other } = rrProbabilities(design);
          if (keep === other) return; // weight 1: nothing can be learnt, by design
          truth.forEach((t) => {
            const sent = other + (keep - other) * t;
            const estimate = rrEstimate(sent * 100, 0, design);
            expect(Math.abs(estimate.percent - t * 100)).toBeLessThanOrEqual(0.051);
          });
        },
      ),
    );
  });

  it('covers the true share 95 times in 100 (seeded simulation of devices drawing)', () => {
    const random = seeded(20261128);
    const truth = [0.23, 0.5, 0.17, 0.1];
    const design = { choices: 4, weight: 9 };
    const trials = 400;
    for (const n of [200, 2000]) {
      const covered = new Array<number>(truth.length).fill(0);
      for (let t = 0; t < trials; t++) {
        const sent = new Array<number>(truth.length).fill(0);
        for (let person = 0; person < n; person++) {
          // The person's true choice, then the device's draw.
          let u = random(1_000_000) / 1_000_000;
          let choice = 0;
          while (choice < truth.length - 1 && u >= truth[choice]!) u -= truth[choice++]!;
          sent[rrReport(choice, design, random)]! += 1;
        }
        rrEstimateCounts(sent, design).forEach((e, j) => {
          if (e.low <= truth[j]! * 100 && truth[j]! * 100 <= e.high) covered[j]! += 1;
        });
      }
      for (const c of covered) {
        // 400 trials: the rate's standard error is about 1.1 points.
        expect(c / trials, `n ${n}`).toBeGreaterThan(0.915);
        expect(c / trials, `n ${n}`).toBeLessThan(0.985);
      }
    }
  });

  it('estimates a published row of everyone counted, the blank share left as it is', () => {
    // 20% left it blank; of the 80% who answered, the truth is 60 / 30 / 10.
    const design = { choices: 3, weight: 3 };
    const { keep, other } = rrProbabilities(design);
    const truth = [0.6, 0.3, 0.1];
    const row = [
      ...truth.map((t, i) => ({
        choice: `c${i}`,
        percent: 80 * (other + (keep - other) * t),
        margin: 4,
        is_blank: false,
      })),
      { choice: '', percent: 20, margin: 3, is_blank: true },
    ];
    const estimates = rrEstimateRow(row, design.weight);
    expect(estimates[3]).toBeNull();
    truth.forEach((t, i) => {
      const e = estimates[i]!;
      expect(e.percent).toBeCloseTo(80 * t, 1);
      // The sent margin divided by keep - other (0.4 here): 4 points become 10.
      expect(e.high - e.percent).toBeCloseTo(Math.min(10, 80 - e.percent), 0);
      expect(e.percent - e.low).toBeCloseTo(Math.min(10, e.percent), 0);
    });
    // A hidden answered share hides every estimate: none is guessed at.
    expect(rrEstimateRow([{ ...row[0]!, percent: null }, ...row.slice(1)], 3)).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('keeps every estimate of a row within what answered, low <= point <= high', () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: 0, max: 60, noNaN: true }), { minLength: 2, maxLength: 6 }),
        fc.float({ min: 0, max: 40, noNaN: true }),
        fc.float({ min: 0, max: 30, noNaN: true }),
        fc.integer({ min: 2, max: 99 }),
        (shares, blank, margin, weight) => {
          const row = [
            ...shares.map((percent) => ({ percent, margin, is_blank: false })),
            { percent: blank, margin, is_blank: true },
          ];
          const answered = Math.min(
            100,
            shares.reduce((a, b) => a + b, 0),
          );
          for (const e of rrEstimateRow(row, weight)) {
            if (e === null) continue;
            expect(e.low).toBeLessThanOrEqual(e.percent);
            expect(e.percent).toBeLessThanOrEqual(e.high);
            expect(e.low).toBeGreaterThanOrEqual(0);
            expect(e.high).toBeLessThanOrEqual(Math.round(answered * 10) / 10 + 0.05);
          }
        },
      ),
    );
  });
});
