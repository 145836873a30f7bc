import { samplingVariance } from '@candor/contracts';
import { describe, expect, it } from 'vitest';
import { seededNoise, zeroNoise } from '../../test/noise.js';
import {
  BUCKETS,
  DIMENSIONS,
  type Noise,
  PARAMETERS,
  type Pending,
  HELD_FROM_PERIOD,
  budget,
  cellKey,
  emptyPending,
  epsilonOf,
  heldChange,
  mergePending,
  publishRow,
  releasable,
  release,
  releasesOf,
  rowOf,
  thresholdOf,
  wordThreshold,
} from './privacy.js';

// The attacks of issue 14, replayed against the mechanism many times: each must succeed every
// time without noise (the old behaviour: exact steps) and fail most of the time with it.

const OUTCOMES = ['c1', 'c2', 'c3', 'c4', 'c5'];
const PROFILE = { gender: 'female', age: '25-34', country: 'GB' } as const;

/** A pending increment of people: [outcome index, gender, age, country] each, +1 or -1. */
function pendingOf(people: Array<[number, string, string, string]>, sign = 1): Pending {
  const p = emptyPending();
  for (const [o, gender, age, country] of people) {
    const buckets = { all: '', gender, age, country };
    for (const d of DIMENSIONS) {
      const key = cellKey(d, buckets[d], OUTCOMES[o]!);
      p.cells[key] = (p.cells[key] ?? 0) + sign;
    }
    if (sign > 0) p.events += 1;
  }
  return p;
}

function background(n: number, seed: number): Array<[number, string, string, string]> {
  let s = seed;
  const next = () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  return Array.from({ length: n }, () => [
    Math.floor(next() * OUTCOMES.length),
    pick(BUCKETS.gender),
    pick(BUCKETS.age),
    pick(['GB', 'US', 'IN']),
  ]);
}

/**
 * The staff attack: read the results, take one known member out (suspend) or put one in
 * (approve, or a sybil newcomer of a known group), read the next update, and guess the member's
 * answer as the outcome whose cells moved the most in their direction, weighing each row by
 * the precision of its noise. Returns the share of trials guessed right.
 */
function differencing(noise: Noise, trials: number): number {
  let right = 0;
  for (let t = 0; t < trials; t++) {
    const victim = t % OUTCOMES.length;
    const others = background(40, t + 1);
    const before = release(undefined, pendingOf(others), OUTCOMES, [], noise);
    const left = pendingOf([[victim, PROFILE.gender, PROFILE.age, PROFILE.country]], -1);
    const after = release(before, left, OUTCOMES, [], noise);
    const score = OUTCOMES.map((_, o) =>
      DIMENSIONS.reduce((sum, d) => {
        const bucket = d === 'all' ? '' : PROFILE[d];
        const diff = after.cells[d][bucket]![o]! - before.cells[d][bucket]![o]!;
        return sum - diff / PARAMETERS.sigma2[d];
      }, 0),
    );
    const guess = score.indexOf(Math.max(...score));
    if (guess === victim) right++;
  }
  return right / trials;
}

/**
 * Padding: a cell of a small group is read, the attacker adds 9 answers of their own to it,
 * reads again, and takes their own 9 out of the second read to learn the cell exactly.
 */
function padding(noise: Noise, trials: number): number {
  let exact = 0;
  for (let t = 0; t < trials; t++) {
    const real = 1 + (t % 3);
    const people: Array<[number, string, string, string]> = Array.from({ length: real }, () => [
      0,
      'non_binary',
      '65+',
      'NZ',
    ]);
    const everyone = [...people, ...background(30, t)];
    const truth = everyone.filter(([o, g]) => o === 0 && g === 'non_binary').length;
    const first = release(undefined, pendingOf(everyone), OUTCOMES, [], noise);
    const mine = Array.from(
      { length: 9 },
      () => [0, 'non_binary', '65+', 'NZ'] as [number, string, string, string],
    );
    const second = release(first, pendingOf(mine), OUTCOMES, [], noise);
    const estimate = second.cells.gender.non_binary![0]! - 9;
    if (estimate === truth) exact++;
  }
  return exact / trials;
}

describe('the mechanism against the attacks of issue 14', () => {
  it('differencing one member (suspension, approval, a sybil step): exact without noise, a poor guess with it', () => {
    expect(differencing(zeroNoise, 100)).toBe(1);
    const rate = differencing(seededNoise(7), 600);
    // Five answers: chance is 20%. The bound of the stated epsilon allows more in the worst
    // case; the real attacker here gets about a third.
    expect(rate).toBeLessThan(0.45);
  });

  it('padding a small cell: read exactly without noise, rarely with it', () => {
    expect(padding(zeroNoise, 60)).toBe(1);
    // Subtracting one's own answers leaves the cell plus two updates' noise (variance 2 x 48).
    expect(padding(seededNoise(11), 600)).toBeLessThan(0.1);
  });

  it('publishes every cell of the fixed domain, so an empty group is noise like a full one', () => {
    const snap = release(undefined, pendingOf(background(50, 3)), OUTCOMES, [], seededNoise(5));
    for (const d of DIMENSIONS) {
      expect(Object.keys(snap.cells[d]).sort()).toEqual([...BUCKETS[d]].sort());
    }
    // Countries nobody lives in carry noise: most of their cells are not zero.
    const empty = BUCKETS.country.filter((c) => !['GB', 'US', 'IN'].includes(c));
    const zeros = empty.flatMap((c) => snap.cells.country[c]!).filter((n) => n === 0).length;
    expect(zeros / (empty.length * OUTCOMES.length)).toBeLessThan(0.2);
  });

  it('adds each update to the last: the margin grows with updates, a share stays unbiased', () => {
    const noise = seededNoise(9);
    let snap = release(undefined, pendingOf(background(500, 1)), OUTCOMES, [], noise);
    for (let i = 0; i < 3; i++) snap = release(snap, emptyPending(), OUTCOMES, [], noise);
    expect(snap.periods).toBe(4);
    expect(snap.draws.c1).toBe(4);
    const row = rowOf(snap, 'all', '', OUTCOMES)!;
    expect(row.variances[0]).toBe(4 * PARAMETERS.sigma2.all);
    const shown = publishRow(row);
    expect(Math.abs(shown.total! - 500)).toBeLessThan(60);
  });
});

describe('releases staff cause (decision 021)', () => {
  const all = (p: Pending | null) =>
    Object.entries(p?.cells ?? {})
      .filter(([k]) => k.startsWith('all|'))
      .reduce((n, [, v]) => n + v, 0);

  it('a close or forced release neither raises the threshold nor counts twice as a close', () => {
    let snap = release(undefined, pendingOf(background(30, 3)), OUTCOMES, [], zeroNoise);
    expect(snap).toMatchObject({ periods: 1 });
    snap = release(snap, emptyPending(), OUTCOMES, [], zeroNoise, 'close');
    expect(snap).toMatchObject({ periods: 1, forced: 1, closeReleased: true });
    snap = release(snap, emptyPending(), OUTCOMES, [], zeroNoise, 'forced');
    expect(snap).toMatchObject({ periods: 1, forced: 2, closeReleased: true });
    expect(thresholdOf(snap.periods)).toBe(thresholdOf(1));
    // Every release drew noise and is an update readers see.
    expect(releasesOf(snap)).toBe(3);
    expect(snap.draws.c1).toBe(3);
    // The trigger's release on the tick a survey closes is the close's too.
    const onClose = release(undefined, emptyPending(), OUTCOMES, [], zeroNoise, 'trigger', true);
    expect(onClose).toMatchObject({ periods: 1, closeReleased: true });
  });

  it('what staff changed waits for a release of the trigger past the quiet periods', () => {
    const answers = pendingOf(background(25, 4));
    const leaving = heldChange(pendingOf([[0, 'female', '25-34', 'GB']], -1));
    const open = mergePending(answers, leaving);
    expect(open.events).toBe(25);
    for (const [periods, cause] of [
      [HELD_FROM_PERIOD + 2, 'close'],
      [HELD_FROM_PERIOD + 2, 'forced'],
      [HELD_FROM_PERIOD - 1, 'trigger'],
    ] as const) {
      const { released, kept } = releasable(open, periods, cause);
      expect(all(released)).toBe(25);
      expect(released.held).toBeUndefined();
      expect(all(kept?.held ?? null)).toBe(-1);
      expect(kept?.events).toBe(0);
    }
    const { released, kept } = releasable(open, HELD_FROM_PERIOD, 'trigger');
    expect(all(released)).toBe(24);
    expect(kept).toBeNull();
  });
});

describe('publishing a row', () => {
  it('hides a row under 10 and a dominated one, and gives margins otherwise', () => {
    expect(publishRow({ counts: [3, 2, 1], variances: [12, 12, 12] }).total).toBeNull();
    const dominated = publishRow({ counts: [40, 1, 0], variances: [12, 12, 12] });
    expect(dominated).toMatchObject({ total: 41, dominated: true });
    expect(dominated.counts).toEqual([null, null, null]);
    const row = publishRow({ counts: [60, 40, -3], variances: [12, 12, 12] });
    expect(row.counts).toEqual([60, 40, 0]);
    expect(row.percents).toEqual([60, 40, 0]);
    // About 100 people: sampling alone gives ±9.6 points at 60%; the noise adds a little.
    expect(row.margins[0]).toBeGreaterThan(9.6);
    expect(row.margins[0]).toBeLessThan(14);
  });

  it('gives margins that cover the true share 95 times in 100: who answered and the noise (seeded simulation)', () => {
    // mulberry32: a seeded source for who happens to answer; the noise is the real sampler.
    let state = 20261128;
    const uniform = () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const noise = seededNoise(31);
    const draws = 2;
    const v = draws * PARAMETERS.sigma2.all;
    const trials = 600;
    for (const n of [60, 600, 3000]) {
      for (const p of [0.15, 0.4]) {
        let covered = 0;
        let shown = 0;
        for (let t = 0; t < trials; t++) {
          let x = 0;
          for (let k = 0; k < n; k++) if (uniform() < p) x++;
          const gauss = () =>
            noise.gaussian(PARAMETERS.sigma2.all) + noise.gaussian(PARAMETERS.sigma2.all);
          const row = publishRow({ counts: [x + gauss(), n - x + gauss()], variances: [v, v] });
          // A row not shown split (too small, or one answer near all of it) claims no share.
          const [percent, margin] = [row.percents[0], row.margins[0]];
          if (percent == null || margin == null) continue;
          shown++;
          if (Math.abs(percent - p * 100) <= margin) covered++;
        }
        expect(shown / trials, `n ${n}, share ${p}`).toBeGreaterThan(0.8);
        // 600 trials: the rate's standard error is about 0.9 points.
        expect(covered / shown, `n ${n}, share ${p}`).toBeGreaterThan(0.92);
        expect(covered / shown, `n ${n}, share ${p}`).toBeLessThan(0.985);
      }
    }
  });

  it('never calls a share exact: the sampling part is above 0 at 0% and 100%, and shrinks with n', () => {
    expect(samplingVariance(0, 500)).toBeGreaterThan(0);
    expect(samplingVariance(1, 500)).toBeGreaterThan(0);
    expect(samplingVariance(0.3, 5000)).toBeLessThan(samplingVariance(0.3, 500));
    // Close to p(1-p)/n where that is sound.
    expect(samplingVariance(0.5, 1000) / (0.25 / 1000)).toBeCloseTo(1, 2);
  });

  it('merges pending increments, dropping cells that cancel out', () => {
    const a = pendingOf([[0, 'female', '25-34', 'GB']]);
    const b = pendingOf([[0, 'female', '25-34', 'GB']], -1);
    const merged = mergePending(a, b);
    expect(merged.cells).toEqual({});
    expect(merged.events).toBe(1);
  });
});

describe('the stated budget', () => {
  it('is what the parameters give, per person and question over its whole life', () => {
    const b = budget();
    expect(b.rho.closed).toBeCloseTo(0.21875, 6);
    expect(b.rho.open).toBeCloseTo(0.28125, 6);
    expect(b.epsilon.closed).toBeGreaterThan(3.5);
    expect(b.epsilon.closed).toBeLessThan(4.5);
    // The conversion is never worse than the simple bound rho + 2 sqrt(rho log(1/delta)).
    const simple = (rho: number) => rho + 2 * Math.sqrt(rho * Math.log(1 / 1e-9));
    expect(epsilonOf(0.21875, 1e-9)).toBeLessThanOrEqual(simple(0.21875));
    expect(wordThreshold()).toBeGreaterThan(40);
  });
});
