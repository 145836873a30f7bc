import type { BreakdownDimension } from '@candor/contracts';
import { describe, expect, it } from 'vitest';
import { zeroNoise } from '../../test/noise.js';
import type { CatalogQuestion } from '../surveys/surveys.service.js';
import { DIMENSIONS, type Snapshot, cellKey, emptyPending, release } from './privacy.js';
import { breakdownUnlocks, toResults } from './results.service.js';

// The breakdown thresholds the API publishes are the ones it applies: a group whose noisy total
// reaches `group_minimum` is shown, one answer fewer is not. Checked on exact snapshots (no
// noise), for questions of several sizes after several updates.

function question(choices: number): Pick<CatalogQuestion, 'qid' | 'type' | 'choices' | 'rrWeight'> {
  return {
    qid: '00000000-0000-4000-8000-000000000001',
    type: 'Closed',
    rrWeight: null,
    choices: Array.from({ length: choices }, (_, i) => ({
      id: i + 1,
      label: i === choices - 1 ? '' : `Choice ${i + 1}`,
      isBlank: i === choices - 1,
    })),
  };
}

/**
 * An exact snapshot after `updates` releases, holding `size` people of one gender (`female`),
 * one age band (`25-34`) and one country (`GB`), spread over the outcomes so no answer dominates.
 */
function snapshotOf(choices: number, updates: number, size: number): Snapshot {
  const outcomes = question(choices).choices.map((c) => `c${c.id}`);
  const pending = emptyPending();
  for (let person = 0; person < size; person++) {
    const outcome = outcomes[person % outcomes.length]!;
    const buckets = { all: '', gender: 'female', age: '25-34', country: 'GB' };
    for (const d of DIMENSIONS) {
      const key = cellKey(d, buckets[d], outcome);
      pending.cells[key] = (pending.cells[key] ?? 0) + 1;
    }
  }
  let snapshot = release(undefined, pending, outcomes, [], zeroNoise);
  for (let i = 1; i < updates; i++) {
    snapshot = release(snapshot, emptyPending(), outcomes, [], zeroNoise);
  }
  return snapshot;
}

const GROUP: Record<BreakdownDimension, string> = { gender: 'female', age: '25-34', country: 'GB' };

/** Whether the one group of `size` people shows in the breakdown by `dimension`. */
function shown(choices: number, updates: number, size: number, dimension: BreakdownDimension) {
  const stored = { snapshot: snapshotOf(choices, updates, size), publishedAt: new Date() };
  const results = toResults(question(choices) as CatalogQuestion, stored, dimension);
  const group = results.breakdown!.groups.find((g) => g.key === GROUP[dimension]);
  return group !== undefined && !group.suppressed;
}

describe('breakdown unlocks', () => {
  it.each([
    [3, 1],
    [4, 1],
    [4, 3],
    [8, 2],
    [13, 5],
  ])('a group is shown from group_minimum on (%i outcomes, %i updates)', (choices, updates) => {
    const unlocks = breakdownUnlocks(question(choices), snapshotOf(choices, updates, 0));
    for (const dimension of ['gender', 'age', 'country'] as const) {
      const minimum = unlocks[dimension].group_minimum;
      expect(shown(choices, updates, minimum, dimension), dimension).toBe(true);
      expect(shown(choices, updates, minimum - 1, dimension), dimension).toBe(false);
    }
    // Two groups' worth: two genders or age bands, or a named country and the rest.
    expect(unlocks.gender.unlocks_at).toBe(2 * unlocks.gender.group_minimum);
    expect(unlocks.country.unlocks_at).toBe(
      unlocks.country.group_minimum + unlocks.gender.group_minimum,
    );
  });

  it('depends on the number of choices and updates, never on the answers', () => {
    const none = breakdownUnlocks(question(4), undefined);
    // Before the first update, the thresholds of the first.
    expect(none).toEqual(breakdownUnlocks(question(4), snapshotOf(4, 1, 0)));
    expect(breakdownUnlocks(question(4), snapshotOf(4, 1, 500))).toEqual(none);
    // Four outcomes, one update: sigma^2 48 per cell, 2 (groups) and 4 (countries) standard
    // deviations of a group's total: 2 * sqrt(4 * 48) = 27.7 and 55.4.
    expect(none).toEqual({
      gender: { group_minimum: 28, unlocks_at: 56 },
      age: { group_minimum: 28, unlocks_at: 56 },
      country: { group_minimum: 56, unlocks_at: 84 },
    });
    // Each update adds noise, so a group needs more to stand out of it.
    const later = breakdownUnlocks(question(4), snapshotOf(4, 4, 0));
    expect(later.gender.group_minimum).toBe(56);
  });
});
