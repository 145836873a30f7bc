import { rrReport } from '@candor/contracts';
import { describe, expect, it } from 'vitest';
import { seededInts as seeded, seededNoise, zeroNoise } from '../../test/noise.js';
import type { CatalogQuestion } from '../surveys/surveys.service.js';
import { DIMENSIONS, type Snapshot, cellKey, emptyPending, release } from './privacy.js';
import { toResults } from './results.service.js';

// A randomized-response question's published results (decision 028): the shares are of what
// devices sent, blurred like every row; each choice's estimate of the true share is
// post-processing of them. Checked here by simulating devices drawing, then the release's
// real noise, many times over: the estimates' intervals cover the true shares.

const LABELS = ['Never', 'Once', 'A few times', 'Often'];

function question(rrWeight: number | null): CatalogQuestion {
  const choices = [...LABELS, ''].map((label, i) => ({ id: i + 1, label, isBlank: label === '' }));
  return {
    id: 1,
    qid: '00000000-0000-4000-8000-000000000028',
    type: 'Closed',
    maxLength: null,
    rrWeight,
    twinQid: null,
    surveyGid: '00000000-0000-4000-8000-000000000001',
    surveyId: 1,
    variant: 'v1_large',
    closed: false,
    choices,
    choiceByLabel: new Map(choices.map((c) => [c.label, c])),
    choiceById: new Map(choices.map((c) => [c.id, c])),
  };
}

/** Of everyone: 10% leave it blank; of the rest, the truth is 50 / 30 / 15 / 5. */
const TRUE_SHARES = [0.45, 0.27, 0.135, 0.045, 0.1];

/** One published snapshot of `people` whose devices drew with weight m. */
function snapshotOf(
  people: number,
  weight: number,
  random: (n: number) => number,
  noise = zeroNoise,
) {
  const q = question(weight);
  const outcomes = q.choices.map((c) => `c${c.id}`);
  const pending = emptyPending();
  for (let person = 0; person < people; person++) {
    let u = random(1_000_000) / 1_000_000;
    let truth = 0;
    while (truth < TRUE_SHARES.length - 1 && u >= TRUE_SHARES[truth]!) u -= TRUE_SHARES[truth++]!;
    const sent =
      truth === LABELS.length
        ? truth // leaving blank is sent as it is
        : rrReport(truth, { choices: LABELS.length, weight }, random);
    const buckets = {
      all: '',
      gender: person % 2 ? 'female' : 'male',
      age: '25-34',
      country: 'GB',
    };
    for (const d of DIMENSIONS) {
      const key = cellKey(d, buckets[d], outcomes[sent]!);
      pending.cells[key] = (pending.cells[key] ?? 0) + 1;
    }
  }
  return release(undefined, pending, outcomes, [], noise) satisfies Snapshot;
}

describe('randomized-response results', () => {
  it('estimates each true share from the sent ones; the blank choice and ordinary questions have none', () => {
    const snapshot = snapshotOf(4000, 3, seeded(7));
    const stored = { snapshot, publishedAt: new Date() };
    const results = toResults(question(3), stored, 'gender');
    expect(results.rr_weight).toBe(3);
    const [never, , , often, blank] = results.choices;
    // Leaving blank is never randomized: its row is as sent.
    expect(blank!.percent).toBe(blank!.sent!.percent);
    // With m = 3 and 4 choices, a device keeps the truth half the time: the sent shares are
    // pulled towards a quarter each, and the estimates pull them back.
    expect(never!.sent!.percent!).toBeLessThan(35);
    expect(never!.percent!).toBeGreaterThan(40);
    expect(often!.sent!.percent!).toBeGreaterThan(12);
    expect(often!.percent!).toBeLessThan(10);
    // Divided by keep - other (1/3 here), the estimate’s margin is three times the sent one’s.
    expect(never!.margin!).toBeGreaterThan(2.8 * never!.sent!.margin!);
    expect(never!.count).toBe(Math.round((never!.percent! / 100) * results.respondents!));
    // Each group its own estimates, from its own (wider) margins.
    const women = results.breakdown!.groups.find((g) => g.key === 'female')!;
    expect(women.choices[1]!.sent).not.toBeNull();
    expect(women.choices[1]!.margin!).toBeGreaterThan(results.choices[1]!.margin!);
    expect(women.margin!).toBeGreaterThan(results.margin!);

    const plain = toResults(question(null), stored, undefined);
    expect(plain.rr_weight).toBeNull();
    expect(plain.choices.every((c) => c.sent === null)).toBe(true);
    expect(plain.choices[0]!.percent).toBe(never!.sent!.percent);
  });

  it('covers every true share about 95 times in 100, with the release’s real noise', () => {
    const random = seeded(20261128);
    const trials = 300;
    const covered = new Array<number>(LABELS.length).fill(0);
    for (let t = 0; t < trials; t++) {
      const snapshot = snapshotOf(1500, 9, random, seededNoise(t + 1));
      const results = toResults(question(9), { snapshot, publishedAt: new Date() }, undefined);
      results.choices.slice(0, LABELS.length).forEach((c, i) => {
        const truth = TRUE_SHARES[i]! * 100;
        if (Math.abs(c.percent! - truth) <= c.margin!) covered[i]! += 1;
      });
    }
    for (const c of covered) {
      // 300 trials: the rate's standard error is about 1.3 points.
      expect(c / trials).toBeGreaterThan(0.9);
      expect(c / trials).toBeLessThan(0.995);
    }
  });
});
