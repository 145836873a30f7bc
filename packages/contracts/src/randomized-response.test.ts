import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  rrCertaintyCap,
  rrEpsilon,
  rrEstimate,
  rrEstimateCounts,
  rrProbabilities,
  rrReport,
} from './randomized-response.js';

/** mulberry32: a seeded source, so the simulation gives the same draws on every run. */
function seeded(seed: number) {
  let state = seed;
  return (maxExclusive: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * maxExclusive);
  };
}

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
});
