// Statistical disclosure control for published answer counts. Pure: no database, no I/O.
//
// What an attacker sees: the overall row of a question and, in the same response, one breakdown
// of it (groups x outcomes) whose columns sum to the overall row. Callers publish both through
// `publishResults`, which ties the two together: the breakdown has to keep hidden whatever the
// overall row hid, or the published group cells of a column would add up to the hidden overall
// cell and the overall total would give its complement away.
//
// Why the breakdown needs more than "two nulls per row and per column": the attacker knows every
// row equation (cells sum to the group total), every column equation (the group cells sum to the
// overall cell), the overall row (its cells sum to the overall total) and that the group totals
// sum to the overall total. Draw a bipartite graph with a node per group plus one for the overall
// row, a node per outcome column plus one for the column of totals, and an edge per suppressed
// value. A suppressed value can be solved for exactly when its edge is a bridge (lies on no
// cycle): the null space of that system is the graph's cycle space. Two nulls per node rule out
// the obvious bridges, not all of them, so the fixed point below ends with a general bridge check.
//
// The fixed point itself works on the breakdown alone and treats every column total and the grand
// total as known (conservative). Hiding, before it runs, every group cell of each column the
// overall row hid keeps the full graph free of bridges too: the breakdown's part of it is then
// bridgeless on its own, and each hidden overall cell closes a cycle with another one (the
// overall row hides none or at least two) through any group, which hides both columns.

import { MIN_PUBLISHED_COUNT } from '@candor/contracts';

export const MIN_CELL = MIN_PUBLISHED_COUNT;
export const DOMINANCE = 0.95;

/** What may be published of one row of counts: null marks a suppressed number. */
export interface PublishedRow {
  total: number | null;
  counts: (number | null)[];
}

export interface GroupCounts {
  key: string;
  counts: readonly number[];
}

export interface PublishedGroup extends PublishedRow {
  key: string;
  suppressed: boolean;
}

/** True for a count that describes at least one person but fewer than MIN_CELL. */
const isSmall = (n: number) => n >= 1 && n < MIN_CELL;

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

function assertCounts(counts: readonly number[]): void {
  for (const n of counts) {
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new RangeError(`counts must be non-negative integers, got ${n}`);
    }
  }
}

/** A cell that could be hidden to protect another one, with the count it would hide. */
interface Candidate<T> {
  at: T;
  value: number;
}

/**
 * The complement that hides the fewest real people while still hiding someone: the smallest
 * positive count, else a zero. Ties keep the first candidate, so callers control determinism by
 * the order they list candidates in.
 */
function cheapest<T>(candidates: readonly Candidate<T>[]): T | undefined {
  let best: Candidate<T> | undefined;
  for (const c of candidates) {
    if (c.value > 0 && (best === undefined || c.value < best.value)) best = c;
  }
  return (best ?? candidates.find((c) => c.value === 0))?.at;
}

/** Index of the cell to hide so a row with one hidden cell no longer gives it away, if any. */
function rowComplement(counts: readonly number[], hidden: readonly boolean[]): number | undefined {
  if (hidden.filter(Boolean).length !== 1) return undefined;
  return cheapest(counts.flatMap((value, at) => (hidden[at] ? [] : [{ at, value }])));
}

/**
 * The overall results of a question: counts per outcome (each choice, the leave-blank one
 * included), total = their sum. If total < MIN_CELL everything is null (total too).
 * Else cells 1..9 are null, and if exactly one cell is null, the smallest other positive cell
 * (else a zero cell) is nulled too, so no null cell equals total minus the published ones.
 * Dominance does NOT apply to the overall row.
 */
export function publishOverall(counts: readonly number[]): PublishedRow {
  assertCounts(counts);
  const total = sum(counts);
  if (total < MIN_CELL) return { total: null, counts: counts.map(() => null) };
  const hidden = counts.map(isSmall);
  const extra = rowComplement(counts, hidden);
  if (extra !== undefined) hidden[extra] = true;
  return { total, counts: counts.map((n, j) => (hidden[j] ? null : n)) };
}

/** The working state of one breakdown while suppression grows to its fixed point. */
interface Table {
  counts: readonly (readonly number[])[];
  totals: readonly number[];
  /** hidden[i][j]: cell j of group i is not published (always true in a suppressed group). */
  hidden: boolean[][];
  suppressed: boolean[];
  outcomes: number;
}

function suppressGroup(t: Table, i: number): void {
  t.suppressed[i] = true;
  t.hidden[i]!.fill(true);
}

const isDominated = (counts: readonly number[], total: number) =>
  total > 0 && Math.max(...counts) / total >= DOMINANCE;

/** The counts of every group, checked: non-negative integers, the same outcomes everywhere. */
function countsOf(
  groups: readonly GroupCounts[],
  outcomes: number,
): readonly (readonly number[])[] {
  const counts = groups.map((g) => g.counts);
  for (const row of counts) {
    assertCounts(row);
    if (row.length !== outcomes) throw new RangeError('every group needs the same outcomes');
  }
  return counts;
}

/** Per outcome, the sum over the groups: the breakdown's overall counts. */
const columnSums = (counts: readonly (readonly number[])[], outcomes: number) =>
  Array.from({ length: outcomes }, (_, j) => sum(counts.map((row) => row[j]!)));

/**
 * The overall row must be the one published next to the breakdown: what `publishOverall` makes of
 * the column sums. Any other row would protect the wrong cells.
 */
function assertOverall(overall: PublishedRow, expected: PublishedRow): void {
  const same =
    overall.total === expected.total &&
    overall.counts.length === expected.counts.length &&
    overall.counts.every((n, j) => n === expected.counts[j]);
  if (!same) {
    throw new RangeError('overall must be publishOverall of the column sums of the groups');
  }
}

/**
 * Rules 1 and 3: too-small groups and cells, and groups where nearly everyone agrees; and the
 * columns the published overall row hid, hidden in every group (all of them if it hid its total).
 */
function primaryTable(
  counts: readonly (readonly number[])[],
  outcomes: number,
  overall: PublishedRow,
): Table {
  const totals = counts.map(sum);
  const t: Table = {
    counts,
    totals,
    hidden: counts.map((row) => row.map((n, j) => isSmall(n) || overall.counts[j] === null)),
    suppressed: counts.map(() => false),
    outcomes,
  };
  totals.forEach((total, i) => {
    if (overall.total === null || total < MIN_CELL || isDominated(counts[i]!, total)) {
      suppressGroup(t, i);
    }
  });
  return t;
}

/** Published groups, in input order, optionally skipping one. */
function publishedGroups(t: Table, except?: number): number[] {
  return t.totals.flatMap((_, i) => (t.suppressed[i] || i === except ? [] : [i]));
}

/** A published group with a single hidden cell would give it away through its total. */
function hideRowComplements(t: Table): boolean {
  let changed = false;
  for (const i of publishedGroups(t)) {
    const j = rowComplement(t.counts[i]!, t.hidden[i]!);
    if (j !== undefined) {
      t.hidden[i]![j] = true;
      changed = true;
    }
  }
  return changed;
}

/** A column with a single hidden cell would give it away through the known column total. */
function hideColumnComplements(t: Table): boolean {
  for (let j = 0; j < t.outcomes; j++) {
    const hiddenIn = t.hidden.flatMap((row, i) => (row[j] ? [i] : []));
    if (hiddenIn.length !== 1) continue;
    const others = publishedGroups(t, hiddenIn[0]);
    const i = cheapest(others.map((at) => ({ at, value: t.counts[at]![j]! })));
    // With a single group there is nobody to hide behind; the caller's overall row is the limit.
    if (i === undefined) continue;
    t.hidden[i]![j] = true;
    return true;
  }
  return false;
}

/** A single suppressed group would give its total away through the known grand total. */
function suppressSecondGroup(t: Table): boolean {
  if (t.suppressed.filter(Boolean).length !== 1) return false;
  const others = publishedGroups(t);
  if (others.length === 0) return false;
  const smallest = others.reduce((a, b) => (t.totals[b]! < t.totals[a]! ? b : a));
  suppressGroup(t, smallest);
  return true;
}

/** One hidden value as an edge between a group node and a column node. */
interface Edge {
  group: number;
  /** Node id of the column: outcome j is groups + j; the group-totals column comes last. */
  column: number;
}

function hiddenEdges(t: Table): Edge[] {
  const g = t.totals.length;
  const edges: Edge[] = [];
  t.hidden.forEach((row, i) =>
    row.forEach((h, j) => {
      if (h) edges.push({ group: i, column: g + j });
    }),
  );
  t.suppressed.forEach((s, i) => {
    if (s) edges.push({ group: i, column: g + t.outcomes });
  });
  return edges;
}

/** Nodes reachable from `start` over the edges, not crossing `skip`. */
function reachable(start: number, edges: readonly Edge[], skip: Edge): Set<number> {
  const seen = new Set([start]);
  const queue = [start];
  for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
    for (const e of edges) {
      if (e === skip) continue;
      const next = e.group === node ? e.column : e.column === node ? e.group : undefined;
      if (next !== undefined && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

/**
 * The general rule the row, column and group rules are special cases of: a hidden value on no
 * cycle is solvable. Hiding one published cell (u, v), u a group on the bridge's group side and v
 * an outcome on its column side, closes a cycle through it.
 */
function breakBridges(t: Table): boolean {
  const g = t.totals.length;
  // One group's cells are the known column totals themselves: nothing can hide them.
  if (g < 2) return false;
  const edges = hiddenEdges(t);
  for (const bridge of edges) {
    const groupSide = reachable(bridge.group, edges, bridge);
    if (groupSide.has(bridge.column)) continue;
    const columnSide = reachable(bridge.column, edges, bridge);
    const candidates: Candidate<[number, number]>[] = [];
    for (const i of publishedGroups(t)) {
      if (!groupSide.has(i)) continue;
      for (let j = 0; j < t.outcomes; j++) {
        // The bridge itself is the only hidden cell between the two sides.
        if (columnSide.has(g + j) && !t.hidden[i]![j])
          candidates.push({ at: [i, j], value: t.counts[i]![j]! });
      }
    }
    const cell = cheapest(candidates);
    if (cell) t.hidden[cell[0]]![cell[1]] = true;
    // Whole-group suppression never leaves a bridge once two groups are suppressed.
    else suppressGroup(t, bridge.group);
    return true;
  }
  return false;
}

/**
 * Each rule returns true when it hid something, and any change restarts from the first. The
 * second whole group comes first: it is unavoidable once one group is suppressed, and it covers
 * every column at once, where a column complement chosen before it would hide a cell for nothing.
 */
const complementRules: readonly ((t: Table) => boolean)[] = [
  suppressSecondGroup,
  hideRowComplements,
  hideColumnComplements,
  breakBridges,
];

/**
 * One breakdown (by gender, age band or country): groups x outcomes. `groups[i].counts[j]` is the
 * number of people of group i who gave outcome j. `overall` is the overall row published in the
 * same response, which must be `publishOverall` of the column sums (checked: a RangeError
 * otherwise): every column it hid is hidden in every group, and if it hid its total (fewer than
 * MIN_CELL people) every group is suppressed. Beyond that the column totals and the grand total
 * are treated as KNOWN to an attacker (conservative: assume them published).
 * Returns the groups in the input order. A suppressed group has total null, every count null,
 * suppressed true. A published group has its total, and counts with nulls where suppressed.
 * Prefer `publishResults`, which makes the overall row and the breakdown together.
 */
export function publishBreakdown(
  groups: readonly GroupCounts[],
  overall: PublishedRow,
): PublishedGroup[] {
  // Without groups the width is the overall row's: it must then describe nobody.
  const outcomes = groups[0]?.counts.length ?? overall.counts.length;
  const counts = countsOf(groups, outcomes);
  assertOverall(overall, publishOverall(columnSums(counts, outcomes)));
  const t = primaryTable(counts, outcomes, overall);
  // Terminates: every rule that reports a change hides at least one more value.
  while (complementRules.some((rule) => rule(t))) {
    /* until a fixed point */
  }
  return groups.map(({ key }, i) => ({
    key,
    suppressed: t.suppressed[i]!,
    total: t.suppressed[i] ? null : t.totals[i]!,
    counts: t.counts[i]!.map((n, j) => (t.hidden[i]![j] ? null : n)),
  }));
}

/** The overall row and one breakdown of it, as published together in one response. */
export interface PublishedResults {
  overall: PublishedRow;
  groups: PublishedGroup[];
}

/**
 * What callers should use to publish a breakdown: the overall row (`publishOverall` of the column
 * sums of the groups) and the groups protected against it (`publishBreakdown`). Publish this
 * overall row, not one computed from other counts, next to these groups: the protection of each
 * holds only together with the other.
 */
export function publishResults(groups: readonly GroupCounts[]): PublishedResults {
  const outcomes = groups[0]?.counts.length ?? 0;
  const overall = publishOverall(columnSums(countsOf(groups, outcomes), outcomes));
  return { overall, groups: publishBreakdown(groups, overall) };
}
