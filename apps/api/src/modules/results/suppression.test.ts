import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DOMINANCE,
  MIN_CELL,
  publishBreakdown,
  publishOverall,
  publishResults,
  type GroupCounts,
  type PublishedGroup,
  type PublishedResults,
  type PublishedRow,
} from './suppression.js';

const RUNS = { numRuns: 400 };

// Small counts are where suppression happens; large ones give the groups something to hide behind.
const countArb = fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 300 }));
const rowArb = (outcomes: number) =>
  fc.array(countArb, { minLength: outcomes, maxLength: outcomes });
const overallArb = fc.integer({ min: 1, max: 6 }).chain(rowArb);
const tableArb = (minGroups: number) =>
  fc
    .integer({ min: 1, max: 6 })
    .chain((outcomes) => fc.array(rowArb(outcomes), { minLength: minGroups, maxLength: 8 }))
    .map((rows): GroupCounts[] => rows.map((counts, i) => ({ key: `g${i}`, counts })));

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const isSmall = (n: number | null) => n !== null && n >= 1 && n < MIN_CELL;

// ---- The attacker: exact linear algebra over the integers -------------------------------------

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));

/** Reduced row echelon form, kept integral by cross-multiplying and dividing rows by their gcd. */
function reduce(matrix: readonly bigint[][]): bigint[][] {
  const rows = matrix.map((r) => [...r]);
  const width = rows[0]?.length ?? 0;
  let top = 0;
  for (let col = 0; col < width && top < rows.length; col++) {
    const found = rows.findIndex((r, i) => i >= top && r[col] !== 0n);
    if (found < 0) continue;
    [rows[top], rows[found]] = [rows[found]!, rows[top]!];
    const pivot = rows[top]!;
    rows.forEach((r, i) => {
      const factor = r[col]!;
      if (i === top || factor === 0n) return;
      const next = r.map((v, k) => v * pivot[col]! - pivot[k]! * factor);
      const g = next.reduce(gcd, 0n);
      rows[i] = g === 0n ? next : next.map((v) => v / g);
    });
    top++;
  }
  return rows;
}

/**
 * Unknowns whose unit vector lies in the row space of the coefficients: in reduced form, exactly
 * the rows with a single non-zero entry.
 */
function solvable(equations: readonly bigint[][]): number[] {
  return reduce(equations).flatMap((row) => {
    const nonZero = row.flatMap((v, k) => (v === 0n ? [] : [k]));
    return nonZero.length === 1 ? nonZero : [];
  });
}

/** Collects the attacker's unknowns and equations; known values go to the (unneeded) right side. */
class System {
  readonly names: string[] = [];
  private readonly equations: [number, bigint][][] = [];

  unknown(name: string): number {
    return this.names.push(name) - 1;
  }

  equation(terms: [number, bigint][]): void {
    this.equations.push(terms);
  }

  solvableNames(): string[] {
    const matrix = this.equations.map((terms) => {
      const row = this.names.map(() => 0n);
      for (const [k, c] of terms) row[k]! += c;
      return row;
    });
    return solvable(matrix).map((k) => this.names[k]!);
  }
}

/** Suppressed values of an overall row that follow from "cells sum to the total". */
function solvableInOverall(row: PublishedRow): string[] {
  const system = new System();
  const cells = row.counts.flatMap((c, j) => (c === null ? [system.unknown(`[${j}]`)] : []));
  if (row.total !== null) system.equation(cells.map((k) => [k, 1n]));
  return system.solvableNames();
}

/**
 * Suppressed values that follow from what one response publishes: the overall row and a
 * breakdown of it. Unknowns are the hidden group cells and totals and the hidden overall cells and
 * total; the equations are each group row (cells sum to the group total), each column (group
 * cells sum to the overall cell), the overall row (cells sum to the overall total) and the group
 * totals summing to the overall total. Published values are known and only move the right side.
 */
function solvableInResults({ overall, groups }: PublishedResults): string[] {
  const system = new System();
  const cells = groups.map((g) =>
    g.counts.map((c, j) => (c === null ? system.unknown(`${g.key}[${j}]`) : undefined)),
  );
  const totals = groups.map((g) =>
    g.total === null ? system.unknown(`${g.key}.total`) : undefined,
  );
  const overallCells = overall.counts.map((c, j) =>
    c === null ? system.unknown(`overall[${j}]`) : undefined,
  );
  const overallTotal = overall.total === null ? system.unknown('overall.total') : undefined;
  const terms = (ks: (number | undefined)[], c: bigint) =>
    ks.flatMap((k): [number, bigint][] => (k === undefined ? [] : [[k, c]]));
  groups.forEach((_, i) => system.equation([...terms(cells[i]!, 1n), ...terms([totals[i]], -1n)]));
  overall.counts.forEach((_, j) =>
    system.equation([
      ...terms(
        cells.map((row) => row[j]),
        1n,
      ),
      ...terms([overallCells[j]], -1n),
    ]),
  );
  system.equation([...terms(overallCells, 1n), ...terms([overallTotal], -1n)]);
  system.equation([...terms(totals, 1n), ...terms([overallTotal], -1n)]);
  return system.solvableNames();
}

/**
 * The stricter model the breakdown's own fixed point works in: every column total and the grand
 * total known, as if the overall row hid nothing. Only the nulls matter, so the values are zeros.
 */
const solvableInBreakdown = (groups: readonly PublishedGroup[]) =>
  solvableInResults({
    overall: { total: 0, counts: (groups[0]?.counts ?? []).map(() => 0) },
    groups: [...groups],
  });

describe('the attacker model', () => {
  it('solves a lone suppressed cell of a row', () => {
    expect(solvableInOverall({ total: 20, counts: [null, 15, 5] })).toEqual(['[0]']);
    expect(solvableInOverall({ total: 20, counts: [null, null, 5] })).toEqual([]);
  });

  it('solves a cell joining two blocks even though every row and column hides two', () => {
    const n = null;
    const published: PublishedGroup[] = [
      { key: 'a', suppressed: false, total: 59, counts: [n, n, n, 20, 30] },
      { key: 'b', suppressed: false, total: 83, counts: [n, n, 20, 20, 30] },
      { key: 'c', suppressed: false, total: 83, counts: [20, 20, n, n, 30] },
      { key: 'd', suppressed: false, total: 85, counts: [20, 20, n, n, 30] },
    ];
    expect(solvableInBreakdown(published)).toEqual(['a[2]']);
  });

  it('solves a hidden overall cell from group cells published in full', () => {
    // What the breakdown used to publish for female [0,54,3,58], male [0,12,5,0]: column 3 in
    // full gives the hidden overall 58 away, and the overall total then the hidden 8.
    const published: PublishedResults = {
      overall: { total: 132, counts: [0, 66, null, null] },
      groups: [
        { key: 'female', suppressed: false, total: 115, counts: [0, null, null, 58] },
        { key: 'male', suppressed: false, total: 17, counts: [0, null, null, 0] },
      ],
    };
    expect(solvableInResults(published)).toEqual(['overall[2]', 'overall[3]']);
    expect(solvableInBreakdown(published.groups)).toEqual([]);
  });
});

describe('publishOverall', () => {
  it('publishes nothing of a tiny question (total 7)', () => {
    expect(publishOverall([4, 3, 0])).toEqual({ total: null, counts: [null, null, null] });
  });

  it('hides a small cell and the smallest other one that would give it away', () => {
    expect(publishOverall([50, 3, 40])).toEqual({ total: 93, counts: [50, null, null] });
  });

  it('publishes zero counts', () => {
    expect(publishOverall([0, 30, 40])).toEqual({ total: 70, counts: [0, 30, 40] });
  });

  it('lets two small cells protect each other', () => {
    expect(publishOverall([5, 6, 0])).toEqual({ total: 11, counts: [null, null, 0] });
  });

  it('prefers a positive complement to a zero one, which would hide nobody', () => {
    expect(publishOverall([12, 5, 0])).toEqual({ total: 17, counts: [null, null, 0] });
  });

  it('publishes a unanimous question: dominance is not applied to the overall row', () => {
    expect(publishOverall([100, 0])).toEqual({ total: 100, counts: [100, 0] });
  });

  it('never publishes a count or total of 1 to 9', () => {
    fc.assert(
      fc.property(overallArb, (counts) => {
        const row = publishOverall(counts);
        expect(row.counts.filter(isSmall)).toEqual([]);
        expect(isSmall(row.total)).toBe(false);
      }),
      RUNS,
    );
  });

  it('leaves no suppressed cell solvable from the total', () => {
    fc.assert(
      fc.property(overallArb, (counts) => {
        expect(solvableInOverall(publishOverall(counts))).toEqual([]);
      }),
      RUNS,
    );
  });

  it('publishes the true numbers only', () => {
    fc.assert(
      fc.property(overallArb, (counts) => {
        const row = publishOverall(counts);
        expect(row.counts).toHaveLength(counts.length);
        row.counts.forEach((c, j) => c === null || expect(c).toBe(counts[j]));
        if (row.total !== null) expect(row.total).toBe(sum(counts));
      }),
      RUNS,
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(overallArb, (counts) => {
        expect(publishOverall(counts)).toEqual(publishOverall(counts));
      }),
      RUNS,
    );
  });
});

describe('publishResults', () => {
  const groups = (...rows: number[][]): GroupCounts[] =>
    rows.map((counts, i) => ({ key: `g${i}`, counts }));
  const breakdown = (...rows: number[][]) => publishResults(groups(...rows)).groups;

  it('suppresses a second group when one group is too small, so the grand total gives nothing away', () => {
    expect(breakdown([30, 40], [5, 3], [25, 50])).toEqual([
      { key: 'g0', suppressed: true, total: null, counts: [null, null] },
      { key: 'g1', suppressed: true, total: null, counts: [null, null] },
      { key: 'g2', suppressed: false, total: 75, counts: [25, 50] },
    ]);
  });

  it(`suppresses a group where ${DOMINANCE * 100}% or more gave the same answer`, () => {
    const [dominated, , other] = breakdown([96, 4], [50, 50], [40, 60]);
    expect(dominated!.suppressed).toBe(true);
    // 94% stays: the threshold is not "any large majority".
    expect(breakdown([94, 6], [50, 50])[0]!.suppressed).toBe(false);
    // Exactly 95% is suppressed; guards the boundary against floating point.
    expect(breakdown([19, 1], [50, 50], [40, 60])[0]!.suppressed).toBe(true);
    expect(other!.suppressed).toBe(false);
  });

  it('publishes zero cells', () => {
    expect(publishResults(groups([0, 30, 40], [0, 25, 35]))).toEqual({
      overall: { total: 130, counts: [0, 55, 75] },
      groups: [
        { key: 'g0', suppressed: false, total: 70, counts: [0, 30, 40] },
        { key: 'g1', suppressed: false, total: 60, counts: [0, 25, 35] },
      ],
    });
  });

  it('hides a cell in another group when a column would give a small cell away', () => {
    expect(breakdown([5, 30, 40], [20, 30, 40], [15, 30, 40])).toEqual([
      { key: 'g0', suppressed: false, total: 75, counts: [null, null, 40] },
      { key: 'g1', suppressed: false, total: 90, counts: [20, 30, 40] },
      { key: 'g2', suppressed: false, total: 85, counts: [null, null, 40] },
    ]);
  });

  it('protects a cell joining two blocks that the row and column rules leave solvable', () => {
    const published = publishResults(
      groups([3, 4, 2, 20, 30], [6, 7, 20, 20, 30], [20, 20, 5, 8, 30], [20, 20, 6, 9, 30]),
    );
    expect(solvableInResults(published)).toEqual([]);
    expect(published.groups.map((g) => g.counts)).toEqual([
      [null, null, null, null, 30],
      [null, null, 20, 20, 30],
      [20, 20, null, null, 30],
      [20, 20, null, null, 30],
    ]);
  });

  it('hides in every group the overall cell hidden as a complement (58 would give 8 away)', () => {
    const published = publishResults([
      { key: 'female', counts: [0, 54, 3, 58] },
      { key: 'male', counts: [0, 12, 5, 0] },
    ]);
    expect(published).toEqual({
      overall: { total: 132, counts: [0, 66, null, null] },
      groups: [
        { key: 'female', suppressed: false, total: 115, counts: [0, 54, null, null] },
        { key: 'male', suppressed: false, total: 17, counts: [0, 12, null, null] },
      ],
    });
    expect(solvableInResults(published)).toEqual([]);
  });

  it('hides in every group the overall cells hidden, not only where groups hid them (3 leaked)', () => {
    const published = publishResults(groups([0, 2, 33], [40, 0, 30], [23, 1, 1]));
    expect(published.overall).toEqual({ total: 130, counts: [null, null, 64] });
    for (const g of published.groups) expect(g.counts.slice(0, 2)).toEqual([null, null]);
    expect(solvableInResults(published)).toEqual([]);
  });

  it('suppresses every group when the overall total is hidden', () => {
    const overall = publishOverall([4, 3]);
    expect(overall.total).toBeNull();
    expect(publishBreakdown(groups([4, 0], [0, 3]), overall).every((g) => g.suppressed)).toBe(true);
  });

  it('refuses an overall row other than publishOverall of the column sums', () => {
    const table = groups([0, 54, 3, 58], [0, 12, 5, 0]);
    // The full overall counts: hiding the 8 alone would not say which columns to protect.
    expect(() => publishBreakdown(table, { total: 132, counts: [0, 66, 8, 58] })).toThrow(
      RangeError,
    );
    expect(() => publishBreakdown(table, publishOverall([0, 66, 8, 59]))).toThrow(RangeError);
    expect(() => publishBreakdown(table, publishOverall([0, 66, 8]))).toThrow(RangeError);
    expect(publishBreakdown([], publishOverall([0, 0]))).toEqual([]);
  });

  it('reveals no more of a single group than the overall row does', () => {
    // With one group the cells are the overall counts: there is nothing to hide behind, so the
    // overall row's protection is the limit.
    fc.assert(
      fc.property(overallArb, (counts) => {
        const { overall, groups: published } = publishResults([{ key: 'all', counts }]);
        expect(overall).toEqual(publishOverall(counts));
        const [group] = published;
        if (!group!.suppressed) {
          expect({ total: group!.total, counts: group!.counts }).toEqual(overall);
        }
      }),
      RUNS,
    );
  });

  it('never publishes a count or total of 1 to 9', () => {
    fc.assert(
      fc.property(tableArb(1), (table) => {
        const { overall, groups: published } = publishResults(table);
        for (const row of [overall, ...published]) {
          expect(row.counts.filter(isSmall)).toEqual([]);
          expect(isSmall(row.total)).toBe(false);
        }
      }),
      RUNS,
    );
  });

  it(`publishes no group where one answer has ${DOMINANCE * 100}% or more`, () => {
    fc.assert(
      fc.property(tableArb(1), (table) => {
        publishResults(table).groups.forEach((g, i) => {
          if (g.suppressed) return;
          const counts = table[i]!.counts;
          // Integer arithmetic, independent of how the module compares.
          expect(counts.filter((c) => c * 100 >= 95 * sum(counts))).toEqual([]);
        });
      }),
      RUNS,
    );
  });

  it('leaves no suppressed value solvable even with every column total and the grand total known', () => {
    // The breakdown's own guarantee, stricter than the attacker needs (below).
    fc.assert(
      fc.property(tableArb(2), (table) => {
        expect(solvableInBreakdown(publishResults(table).groups)).toEqual([]);
      }),
      // About 1 random table in 120 needs the bridge rule; enough runs to meet several.
      { numRuns: 1000 },
    );
  });

  it('leaves no hidden group cell, group total or overall value solvable from the whole response', () => {
    fc.assert(
      fc.property(tableArb(2), (table) => {
        expect(solvableInResults(publishResults(table))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('publishes the true numbers only, in input order', () => {
    fc.assert(
      fc.property(tableArb(1), (table) => {
        const { overall, groups: published } = publishResults(table);
        const columns = table[0]!.counts.map((_, j) => sum(table.map((g) => g.counts[j]!)));
        expect(overall.counts).toHaveLength(columns.length);
        overall.counts.forEach((c, j) => c === null || expect(c).toBe(columns[j]));
        if (overall.total !== null) expect(overall.total).toBe(sum(columns));
        expect(published.map((g) => g.key)).toEqual(table.map((g) => g.key));
        published.forEach((g, i) => {
          const counts = table[i]!.counts;
          expect(g.counts).toHaveLength(counts.length);
          g.counts.forEach((c, j) => c === null || expect(c).toBe(counts[j]));
          if (g.suppressed) expect([g.total, ...g.counts].every((v) => v === null)).toBe(true);
          else expect(g.total).toBe(sum(counts));
        });
      }),
      RUNS,
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(tableArb(1), (table) => {
        expect(publishResults(table)).toEqual(publishResults(table));
      }),
      RUNS,
    );
  });
});
