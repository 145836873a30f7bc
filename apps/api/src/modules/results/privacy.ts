// Candor's publication mechanism: differential privacy under continual observation. Pure: no
// database, no I/O. docs/decisions/011-private-results.md states the guarantee and why these
// numbers; docs/privacy.md shows what they cost in accuracy.
//
// What is protected: one person's presence in the answers of one question (their answer, their
// interest rating and their answer time), over the question's whole life. What moves published
// numbers is an *event*: a person's answer entering the count (they answered while counting, or
// they were approved) or leaving it (suspended, rejected after approval, erased). A person has at
// most one entering and one leaving event per question and stream: once out, their answers never
// come back (respondents.standing = 'left'), so a suspend/lift loop cannot replay them.
//
// How: answers are counted into the *pending* increment of the question's current period. A
// period ends when a noisy count of its events passes a noisy threshold (the sparse vector
// technique, monotone AboveThreshold: Lyu, Su, Li 2017), and the thresholds double from period
// to period, so a question of n answers has about log2(n / 20) periods. When a period ends, every
// cell of the question's fixed domain (all, each gender, each age band, each country, times each
// outcome) gets its increment plus discrete Gaussian noise (Canonne, Kamath, Steinke 2020) and
// the sum is added to the published cumulative counts. Each event touches one period, so a
// person pays for at most two periods whatever the number of snapshots; a snapshot is stored and
// served as is (reading twice gives the same numbers, nothing to average).

import { AGE_BANDS, marginPoints, samplingVariance } from '@candor/contracts';
import { getCountries } from 'libphonenumber-js';

/** The noise the mechanism draws: exact integer samplers (noise.ts), injected in tests. */
export interface Noise {
  /** Discrete Gaussian with variance parameter sigma2 (mean 0). */
  gaussian(sigma2: number): number;
  /** Discrete Laplace with scale b: P(x) proportional to exp(-|x| / b). */
  laplace(scale: number): number;
}

export const DIMENSIONS = ['all', 'gender', 'age', 'country'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const GENDERS = ['female', 'male', 'non_binary', 'other', 'undisclosed'] as const;
/**
 * The age cells of the fixed domain: an `under-18` cell, then the contract's bands. Nobody under
 * 18 falls in it (signup asks for 18 and over); it holds the respondents whose device sent no
 * age (`undisclosed`: the year of birth lives on the member's devices only, decision 020), and
 * it is never published (PUBLISHED_AGE_BANDS). Its name stays so that each release draws the
 * same noise as before and stored snapshots keep their shape: renaming it would reshuffle every
 * seeded draw the attack tests (attacks.test.ts) were calibrated on.
 */
export const AGE_CELLS = ['under-18', ...AGE_BANDS] as const;
/** The age bands a breakdown publishes: the contract's, none under 18. */
export const PUBLISHED_AGE_BANDS: readonly string[] = AGE_BANDS;
/** Every country a phone number can have, then `other`: the domain is public and fixed. */
export const COUNTRIES: readonly string[] = [...(getCountries() as string[])]
  .sort()
  .concat('other');

/** The buckets of a dimension: fixed and public, so an empty bucket gets noise like any other. */
export const BUCKETS: Record<Dimension, readonly string[]> = {
  all: [''],
  gender: GENDERS,
  age: AGE_CELLS,
  country: COUNTRIES,
};

/** A respondent's value in each breakdown, mapped into the fixed domain. */
export function bucketsOf(profile: { gender: string; ageBand: string; country: string }) {
  const within = (list: readonly string[], v: string, fallback: string) =>
    list.includes(v) ? v : fallback;
  return {
    all: '',
    gender: within(GENDERS, profile.gender, 'other'),
    // Only the published bands, or the unpublished cell for an age not given; any other band
    // (none is made) joins its nearest end.
    age:
      profile.ageBand === 'undisclosed'
        ? 'under-18'
        : within(AGE_BANDS, profile.ageBand, profile.ageBand.startsWith('under') ? '18-24' : '65+'),
    country: within(COUNTRIES, profile.country, 'other'),
  } satisfies Record<Dimension, string>;
}

/** Interest ratings 0..10: one cell per score. */
export const RATING_CELLS = 11;
/** Answer times in doubling buckets: under 0.5 s, 0.5-1 s, 1-2 s ... 64-128 s, 128 s or more. */
export const TIMING_EDGES_MS = [500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000];
export const TIMING_CELLS = TIMING_EDGES_MS.length + 1;

/** The bucket of an answer time. */
export function timingCell(ms: number): number {
  const i = TIMING_EDGES_MS.findIndex((edge) => ms < edge);
  return i === -1 ? TIMING_EDGES_MS.length : i;
}

/**
 * The mechanism's parameters: the one place they are set. Variances are of the discrete
 * Gaussian per cell and period; the trigger's epsilon is split evenly between the threshold's
 * and the query's noise.
 */
export const PARAMETERS = {
  sigma2: { all: 12, gender: 48, age: 48, country: 48 } satisfies Record<Dimension, number>,
  ratingSigma2: 48,
  timingSigma2: 48,
  wordSigma2: 48,
  /** Words of one open answer that count (its first distinct ones): bounds its influence. */
  wordsPerAnswer: 3,
  triggerEpsilon: 0.25,
  /** Events of the first period; each later period's threshold doubles. */
  firstThreshold: 20,
  /** Entering and leaving: the most events one person has per question and stream. */
  eventsPerPerson: 2,
  /** The delta of the stated (epsilon, delta) and of the words' release rule. */
  delta: 1e-9,
} as const;

/** Scale of the trigger's Laplace noise (threshold and each query: epsilon/2 each). */
export const TRIGGER_SCALE = 2 / PARAMETERS.triggerEpsilon;

/** zCDP to (epsilon, delta)-DP: the bound of Canonne, Kamath, Steinke 2020 (Proposition 12). */
export function epsilonOf(rho: number, delta: number): number {
  if (rho <= 0) return 0;
  // inf over alpha > 1 of alpha*rho + (log(1/delta) + (alpha - 1) log(1 - 1/alpha) - log(alpha)) / (alpha - 1)
  let best = Infinity;
  for (let alpha = 1.001; alpha < 2000; alpha *= 1.001) {
    const e =
      alpha * rho +
      (Math.log(1 / delta) + (alpha - 1) * Math.log(1 - 1 / alpha) - Math.log(alpha)) / (alpha - 1);
    best = Math.min(best, e);
  }
  return best;
}

/**
 * The privacy loss one person can have per question over its whole life, in zCDP (rho) and as
 * (epsilon, delta): for closed questions, and for open ones (their words cost more).
 */
export function budget() {
  const p = PARAMETERS;
  const zcdpOfPure = (eps: number) => (eps * eps) / 2;
  // The trigger counts entering answers only (a person enters once); the counts pay for each
  // of a person's two events (in one period, entering and leaving cancel out).
  const trigger = zcdpOfPure(p.triggerEpsilon);
  const perAnswerEvent = DIMENSIONS.reduce((sum, d) => sum + 1 / (2 * p.sigma2[d]), 0);
  const perWordsEvent = p.wordsPerAnswer / (2 * p.wordSigma2);
  const perRatingEvent = 1 / (2 * p.ratingSigma2);
  const perTimingEvent = 1 / (2 * p.timingSigma2);
  const events = p.eventsPerPerson;
  const closed = trigger + events * (perAnswerEvent + perRatingEvent + perTimingEvent);
  const open = closed + events * perWordsEvent;
  return {
    rho: { closed, open },
    delta: p.delta,
    epsilon: { closed: epsilonOf(closed, p.delta), open: epsilonOf(open, p.delta) },
  };
}

/** Outcome keys of a question: `c<choiceId>` for closed, `w` (written) and `b` (blank) open. */
export type OutcomeKey = string;

/** Key of one cell of a question's domain. */
export const cellKey = (dimension: Dimension, bucket: string, outcome: OutcomeKey) =>
  `${dimension}|${bucket}|${outcome}`;

/** True counts of the open period (never published). */
export interface Pending {
  /** cellKey -> net change (entering +1, leaving -1). */
  cells: Record<string, number>;
  words: Record<string, number>;
  ratings: number[];
  timings: number[];
  /** Answers that entered the count in this period: the trigger's query (monotone, 1 per person). */
  events: number;
  /**
   * Changes staff caused (a suspension, a rejection, an erasure: answers leaving), kept apart
   * and released only by the trigger once the question is past HELD_FROM_PERIOD updates, never
   * by a close or another forced release: staff choose when they change a standing and when they
   * close, so a release they time must not carry what they changed (decision 021). Its `events`
   * stay 0: leaving never counts towards the trigger. Absent: nothing held.
   */
  held?: Pending;
}

/**
 * From how many updates by the trigger on a period may carry held changes: from the fourth
 * period (threshold 160) on, noise alone ends a quiet question's period with a chance of about
 * 0.15% a week (docs/privacy.md, "Quiet questions"), so a held change is released among about
 * 160 new answers, not alone in a period that noise ended minutes after a suspension.
 */
export const HELD_FROM_PERIOD = 3;

export const emptyPending = (): Pending => ({
  cells: {},
  words: {},
  ratings: new Array<number>(RATING_CELLS).fill(0),
  timings: new Array<number>(TIMING_CELLS).fill(0),
  events: 0,
});

/** Adds `b` into `a` (both pending increments). */
export function mergePending(a: Pending, b: Pending): Pending {
  const add = (x: Record<string, number>, y: Record<string, number>) => {
    const out = new Map(Object.entries(x));
    for (const [k, n] of Object.entries(y)) out.set(k, (out.get(k) ?? 0) + n);
    return Object.fromEntries([...out].filter(([, v]) => v !== 0));
  };
  const addArrays = (x: number[], y: number[]) => x.map((n, i) => n + (y[i] ?? 0));
  const held = a.held && b.held ? mergePending(a.held, b.held) : (a.held ?? b.held);
  return {
    cells: add(a.cells, b.cells),
    words: add(a.words, b.words),
    ratings: addArrays(a.ratings, b.ratings),
    timings: addArrays(a.timings, b.timings),
    events: a.events + b.events,
    ...(held ? { held } : {}),
  };
}

/** A change staff caused, as a pending increment that holds it apart (Pending.held). */
export const heldChange = (change: Pending): Pending => ({
  ...emptyPending(),
  held: { ...change, events: 0 },
});

/**
 * What a release publishes of an open period, and what stays pending after it: held changes
 * join only a release by the trigger past HELD_FROM_PERIOD updates; otherwise they wait.
 */
export function releasable(
  pending: Pending,
  periods: number,
  cause: ReleaseCause,
): { released: Pending; kept: Pending | null } {
  const { held, ...free } = pending;
  if (!held) return { released: free, kept: null };
  if (cause === 'trigger' && periods >= HELD_FROM_PERIOD) {
    return { released: mergePending(free, held), kept: null };
  }
  return { released: free, kept: heldChange(held) };
}

/**
 * A published snapshot: noisy cumulative counts, stored once and served as they are. `cells`
 * holds, per dimension and bucket, one count per outcome of `outcomes`; `draws` says how many
 * periods' noise each outcome's cells carry (a choice added later has fewer).
 */
export interface Snapshot {
  v: 2;
  /**
   * Updates the trigger made: each one doubles the next threshold (thresholdOf). Releases a
   * close or an erasure forced are not among them (`forced`): a staff action never raises the
   * threshold, so it can neither freeze a graph nor, with a threshold kept low, speed it up.
   */
  periods: number;
  /** Releases not made by the trigger (a survey's close, an erased sample's writer); absent: 0. */
  forced?: number;
  /**
   * The question's one release on its survey's close has happened: a later close (after a
   * reopen) releases nothing, so closing and reopening cannot cut a period around one event.
   */
  closeReleased?: boolean;
  outcomes: OutcomeKey[];
  draws: Record<OutcomeKey, number>;
  cells: Record<Dimension, Record<string, number[]>>;
  words: Record<string, number>;
  ratings: number[];
  timings: number[];
  samples: string[];
}

/** The trigger's threshold of a question with `periods` periods published. */
export const thresholdOf = (periods: number) => PARAMETERS.firstThreshold * 2 ** periods;

/**
 * The sparse vector test of the open period: its noisy event count against its noisy threshold
 * (`thresholdNoise` is drawn once per period and kept; each test draws fresh query noise).
 */
export function periodIsOver(
  events: number,
  periods: number,
  thresholdNoise: number,
  noise: Noise,
): boolean {
  return events + noise.laplace(TRIGGER_SCALE) >= thresholdOf(periods) + thresholdNoise;
}

/** The threshold noise of a new period. */
export const newThresholdNoise = (noise: Noise) => noise.laplace(TRIGGER_SCALE);

/**
 * The smallest noisy count of a word used by one person that may be published: the chance that
 * a word only one person wrote passes it is below delta (union over their words).
 */
export function wordThreshold(): number {
  const { wordSigma2, wordsPerAnswer, delta } = PARAMETERS;
  // Gaussian tail bound: P(Z >= t) <= exp(-t^2 / (2 sigma^2)) (the discrete Gaussian's tail is
  // no heavier, CKS 2020 Proposition 25).
  const t = Math.sqrt(2 * wordSigma2 * Math.log(wordsPerAnswer / delta));
  return Math.ceil(1 + t);
}

/**
 * What ended a period: the trigger (the only cause that doubles the next threshold), the one
 * release of a survey's close, or another forced release (an erased writer's sample).
 */
export type ReleaseCause = 'trigger' | 'close' | 'forced';

/** How many releases a snapshot has had, whatever ended them (each drew its own noise). */
export const releasesOf = (snapshot: Snapshot | undefined) =>
  (snapshot?.periods ?? 0) + (snapshot?.forced ?? 0);

/**
 * Ends a period: every cell of the fixed domain gets the period's true change plus noise, added
 * to the previous snapshot's counts. Words: a word's noisy change is published only above
 * wordThreshold() (releasing which words exist costs delta). Samples are passed in as chosen.
 * Only a release by the trigger advances `periods`, and so the threshold; privacy does not
 * depend on it (each event is in one released period whatever ended it). `closing`: the
 * question's survey closed since its last release (Snapshot.closeReleased).
 */
export function release(
  previous: Snapshot | undefined,
  pending: Pending,
  outcomes: OutcomeKey[],
  samples: string[],
  noise: Noise,
  cause: ReleaseCause = 'trigger',
  closing = cause === 'close',
): Snapshot {
  const p = PARAMETERS;
  const cells = {} as Snapshot['cells'];
  for (const dimension of DIMENSIONS) {
    const rows: Record<string, number[]> = {};
    for (const bucket of BUCKETS[dimension]) {
      const before = previous?.cells[dimension][bucket];
      rows[bucket] = outcomes.map((o) => {
        const i = previous ? previous.outcomes.indexOf(o) : -1;
        const prior = i >= 0 && before ? (before[i] ?? 0) : 0;
        return (
          prior +
          (pending.cells[cellKey(dimension, bucket, o)] ?? 0) +
          noise.gaussian(p.sigma2[dimension])
        );
      });
    }
    cells[dimension] = rows;
  }
  const draws: Record<OutcomeKey, number> = {};
  for (const o of outcomes) draws[o] = (previous?.draws[o] ?? 0) + 1;
  const words = { ...(previous?.words ?? {}) };
  const threshold = wordThreshold();
  for (const [word, n] of Object.entries(pending.words)) {
    const noisy = n + noise.gaussian(p.wordSigma2);
    if (noisy >= threshold) words[word] = (words[word] ?? 0) + noisy;
  }
  const noisyArray = (prior: number[] | undefined, change: number[], sigma2: number) =>
    change.map((n, i) => (prior?.[i] ?? 0) + n + noise.gaussian(sigma2));
  const forced = (previous?.forced ?? 0) + (cause === 'trigger' ? 0 : 1);
  // A release while the survey closes is its close's, whatever ended it (the trigger may pass
  // on the same tick): either way the question has had the one release a close gives.
  const closeReleased = previous?.closeReleased === true || closing;
  return {
    v: 2,
    periods: (previous?.periods ?? 0) + (cause === 'trigger' ? 1 : 0),
    ...(forced > 0 ? { forced } : {}),
    ...(closeReleased ? { closeReleased } : {}),
    outcomes,
    draws,
    cells,
    words,
    ratings: noisyArray(previous?.ratings, pending.ratings, p.ratingSigma2),
    timings: noisyArray(previous?.timings, pending.timings, p.timingSigma2),
    samples,
  };
}

// Reading a snapshot: everything below is post-processing of published values (free).

/** Published numbers are shown only when a row's noisy total reaches this. */
export const MIN_ROW_TOTAL = 10;
/** A row where one answer has this noisy share or more is not shown split (dominance). */
export const DOMINANCE = 0.95;

/** A row of noisy counts (one per outcome) and the variance of each count's noise. */
export interface NoisyRow {
  counts: number[];
  variances: number[];
}

/** The noisy counts of one bucket of a dimension, aligned to `outcomes` (missing: no data yet). */
export function rowOf(
  snapshot: Snapshot | undefined,
  dimension: Dimension,
  bucket: string,
  outcomes: OutcomeKey[],
): NoisyRow | undefined {
  if (!snapshot) return undefined;
  const stored = snapshot.cells[dimension][bucket];
  if (!stored) return undefined;
  const sigma2 = PARAMETERS.sigma2[dimension];
  return {
    counts: outcomes.map((o) => {
      const i = snapshot.outcomes.indexOf(o);
      return i >= 0 ? (stored[i] ?? 0) : 0;
    }),
    variances: outcomes.map((o) => (snapshot.draws[o] ?? 0) * sigma2),
  };
}

/**
 * About how many people a snapshot's overall row holds (post-processing of what is published,
 * so it costs no privacy): the sum of its noisy counts, rounded, never negative; 0 before any.
 */
export function approximateTotal(snapshot: Snapshot | undefined): number {
  const row = snapshot?.cells.all[''];
  return row ? Math.max(0, Math.round(row.reduce((sum, n) => sum + n, 0))) : 0;
}

/** A published row: approximate counts, shares and 95% margins, or why nothing is shown. */
export interface PublishedRow {
  /** Noisy number of people, rounded; null when under MIN_ROW_TOTAL. */
  total: number | null;
  /** Per outcome: approximate count (never negative), or null when the row is not split. */
  counts: Array<number | null>;
  /** Per outcome: share of the row's total, 0..100, one decimal; null likewise. */
  percents: Array<number | null>;
  /** Per outcome: half-width of the 95% interval of the share, in points, one decimal. */
  margins: Array<number | null>;
  /** True when one answer has DOMINANCE or more of the row: shown as a total only. */
  dominated: boolean;
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/** A share's 95% margin in points from the variance of the share (0..1 scale), one decimal. */
export const marginOfVariance = (variance: number) => oneDecimal(marginPoints(variance));

/**
 * Shapes a row of noisy counts for publication. Negative noisy counts are shown as 0; the total
 * is the sum of the noisy counts (unclamped, so empty cells' noise cancels on average). A share's
 * margin is a 95% credibility interval (decision 027): the sampling variance of its Jeffreys
 * posterior (`samplingVariance`, in the contracts) plus the variance of the privacy noise, taken
 * through count / total by the delta method. Both come from published values only.
 */
export function publishRow(row: NoisyRow | undefined): PublishedRow {
  const size = row?.counts.length ?? 0;
  const nothing = (dominated: boolean, total: number | null): PublishedRow => ({
    total,
    counts: new Array<null>(size).fill(null),
    percents: new Array<null>(size).fill(null),
    margins: new Array<null>(size).fill(null),
    dominated,
  });
  if (!row) return nothing(false, null);
  const total = row.counts.reduce((a, b) => a + b, 0);
  if (total < MIN_ROW_TOTAL) return nothing(false, null);
  const clamped = row.counts.map((n) => Math.max(0, n));
  const clampedTotal = clamped.reduce((a, b) => a + b, 0);
  const shares = clamped.map((n) => (clampedTotal > 0 ? n / clampedTotal : 0));
  if (shares.some((s) => s >= DOMINANCE)) return nothing(true, Math.round(total));
  const allVariance = row.variances.reduce((a, b) => a + b, 0);
  return {
    total: Math.round(total),
    counts: clamped.map((n) => Math.round(n)),
    percents: shares.map((s) => oneDecimal(s * 100)),
    margins: shares.map((s, i) => {
      const own = row.variances[i] ?? 0;
      // share = x / (x + rest): d/dx = rest / T^2, d/drest = -x / T^2.
      const noise = (own * (1 - s) ** 2 + (allVariance - own) * s ** 2) / total ** 2;
      return marginOfVariance(samplingVariance(s, total) + noise);
    }),
    dominated: false,
  };
}

/** Count and mean of the published ratings histogram; the mean only past MIN_ROW_TOTAL. */
export function ratingsOf(snapshot: Snapshot | undefined) {
  const cells = (snapshot?.ratings ?? []).map((n) => Math.max(0, n));
  const count = Math.round(
    Math.max(
      0,
      (snapshot?.ratings ?? []).reduce((a, b) => a + b, 0),
    ),
  );
  const weight = cells.reduce((a, b) => a + b, 0);
  const mean =
    count >= MIN_ROW_TOTAL && weight > 0
      ? oneDecimal(cells.reduce((sum, n, score) => sum + n * score, 0) / weight)
      : null;
  return { count, mean };
}

/**
 * Answer times from the published histogram: how many, the median (interpolated within its
 * bucket) and the share faster than a third of it (whole buckets below, plus a linear share).
 */
export function timingsOf(snapshot: Snapshot | undefined) {
  const cells = (snapshot?.timings ?? []).map((n) => Math.max(0, n));
  const timed = Math.round(
    Math.max(
      0,
      (snapshot?.timings ?? []).reduce((a, b) => a + b, 0),
    ),
  );
  const weight = cells.reduce((a, b) => a + b, 0);
  if (timed < MIN_ROW_TOTAL || weight <= 0) return { timed, medianMs: null, fastShare: null };
  const lower = (i: number) => (i === 0 ? 0 : TIMING_EDGES_MS[i - 1]!);
  const upper = (i: number) => TIMING_EDGES_MS[i] ?? TIMING_EDGES_MS.at(-1)! * 2;
  /** The time below which `q` of the weight lies. */
  const quantile = (q: number) => {
    let below = 0;
    for (let i = 0; i < cells.length; i++) {
      const n = cells[i]!;
      if (below + n >= q * weight && n > 0) {
        return lower(i) + ((q * weight - below) / n) * (upper(i) - lower(i));
      }
      below += n;
    }
    return upper(cells.length - 1);
  };
  const medianMs = Math.round(quantile(0.5));
  /** Weight below `ms`, linear within a bucket. */
  const weightBelow = (ms: number) =>
    cells.reduce((sum, n, i) => {
      if (ms >= upper(i)) return sum + n;
      if (ms <= lower(i)) return sum;
      return sum + (n * (ms - lower(i))) / (upper(i) - lower(i));
    }, 0);
  return { timed, medianMs, fastShare: oneDecimal((weightBelow(medianMs / 3) / weight) * 100) };
}
