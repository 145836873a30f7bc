// How soon noise alone ends the update periods of a question nobody answers. The trigger
// (privacy.ts `periodIsOver`) is tested every RESULTS_REFRESH_SECONDS for every question, with
// fresh Lap(8) noise each time against a threshold of 20 * 2^k plus the period's own Lap(8): the
// more often it is tested, the sooner a test passes with no answers behind it.
// Usage: npx tsx bench/quiet-periods.ts [refreshSeconds...]   (default 2 30 60)
//
// Each period's threshold noise is drawn with the production sampler; the number of tests until
// one passes is then geometric, since each test's noise is a fresh discrete Laplace L with
// P(L >= m) = p^m / (1 + p) for m >= 1 (p = e^(-1/scale)), and 1 - P(L >= 1 - m) for m <= 0.
// `--check` also runs the tests one by one (slow) to confirm the shortcut.
import {
  TRIGGER_SCALE,
  newThresholdNoise,
  periodIsOver,
  thresholdOf,
} from '../apps/api/src/modules/results/privacy';
import { cryptoNoise } from '../apps/api/src/modules/results/results.service';

const RUNS = 2_000;
const PERIODS = 5;
const WEEK_S = 7 * 86_400;
const p = Math.exp(-1 / TRIGGER_SCALE);
const atLeast = (m: number) => (m >= 1 ? p ** m / (1 + p) : 1 - p ** (1 - m) / (1 + p));

/** Tests until one passes with no events, for period k with threshold noise t (Infinity: never). */
function testsUntilOver(k: number, t: number): number {
  const q = atLeast(thresholdOf(k) + t);
  if (q >= 1) return 1;
  if (q <= 0) return Infinity;
  return Math.ceil(Math.log(1 - Math.random()) / Math.log1p(-q));
}

function byTests(k: number, t: number, limit: number): number {
  for (let i = 1; i <= limit; i++) if (periodIsOver(0, k, t, cryptoNoise)) return i;
  return Infinity;
}

const args = process.argv.slice(2);
const check = args.includes('--check');
const refreshes = args.filter((a) => a !== '--check').map(Number);
const minutes = (s: number) =>
  s < 3600
    ? `${(s / 60).toFixed(1)} min`
    : s < 172_800
      ? `${(s / 3600).toFixed(1)} h`
      : `${(s / 86_400).toFixed(1)} d`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

for (const refresh of refreshes.length ? refreshes : [2, 30, 60]) {
  const limit = Math.floor(WEEK_S / refresh);
  console.log(`\nRESULTS_REFRESH_SECONDS=${refresh}: ${RUNS} quiet questions, one week`);
  console.log(
    '| period | threshold | ended by noise within a week | median time since the question opened |',
  );
  console.log('|---|---|---|---|');
  // Each question goes through its periods in turn: period k starts when k - 1 ended.
  const start = new Array<number>(RUNS).fill(0);
  for (let k = 0; k < PERIODS; k++) {
    const ends: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      if (start[r]! >= limit) continue;
      const tests = testsUntilOver(k, newThresholdNoise(cryptoNoise));
      start[r] = start[r]! + tests;
      if (start[r]! <= limit) ends.push(start[r]! * refresh);
    }
    const share = `${ends.length} of ${RUNS} (${((100 * ends.length) / RUNS).toFixed(0)}%)`;
    console.log(
      `| ${k} | ${thresholdOf(k)} | ${share} | ${ends.length ? minutes(median(ends)) : '-'} |`,
    );
  }
  if (check) {
    // Periods 0 and 1 from their own start, test by test, against the shortcut.
    for (const k of [0, 1]) {
      const n = 300;
      const cap = 20_000;
      const slow: number[] = [];
      const fast: number[] = [];
      for (let r = 0; r < n; r++) {
        slow.push(byTests(k, newThresholdNoise(cryptoNoise), cap));
        fast.push(testsUntilOver(k, newThresholdNoise(cryptoNoise)));
      }
      console.log(
        `check period ${k}: median tests one by one ${median(slow)}, by the shortcut ${median(fast)} (${n} each)`,
      );
    }
  }
}
