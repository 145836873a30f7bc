import fc from 'fast-check';
import { randomInt } from 'node:crypto';
import type * as NodeCrypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  bernoulliExp,
  cryptoRandomInt,
  discreteGaussian,
  discreteGaussianOf,
  discreteGaussianPmf,
  discreteGaussianVariance,
  discreteLaplace,
  discreteLaplaceOf,
  discreteLaplacePmf,
  type RandomInt,
} from './noise.js';

// Wrap the real randomInt so a test can see that the default source goes through it.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof NodeCrypto>();
  return { ...actual, randomInt: vi.fn(actual.randomInt) };
});

// ---------------------------------------------------------------------------------------------
// A seeded source: xoshiro128** seeded by splitmix32, so every statistical test below is
// deterministic (no flakes) while still being a fair test of the sampler's distribution.

function seeded(seed: number): RandomInt {
  let state = seed >>> 0;
  const splitmix32 = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let s0 = splitmix32();
  let s1 = splitmix32();
  let s2 = splitmix32();
  let s3 = splitmix32();
  const rotl = (x: number, k: number) => (x << k) | (x >>> (32 - k));
  const next32 = () => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return result;
  };
  return (max) => {
    // The contract the samplers promise: fail loudly if they ever break it.
    if (!Number.isInteger(max) || max < 1 || max > 2 ** 48 - 1) {
      throw new RangeError(`source asked for [0, ${max})`);
    }
    if (max <= 2 ** 32) {
      const limit = 2 ** 32 - (2 ** 32 % max);
      let u: number;
      do u = next32();
      while (u >= limit);
      return u % max;
    }
    const highBits = (max - 1).toString(2).length - 32;
    let u: number;
    do u = (next32() >>> (32 - highBits)) * 2 ** 32 + next32();
    while (u >= max);
    return u;
  };
}

function draw(n: number, sample: () => number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = sample();
  return out;
}

// ---------------------------------------------------------------------------------------------
// Statistics.

// Upper tail of the standard normal, via erfc (Numerical Recipes' erfcc, relative error < 1.2e-7).
function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886187 +
                            t *
                              (-1.13520398 +
                                t * (1.48851526 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

interface Fit {
  statistic: number;
  df: number;
  pValue: number;
}

// Pearson's chi-square goodness of fit of integer samples against a pmf symmetric about 0 and
// falling away from it. Bins are single integers where the expected count is at least 5; the
// tails are pooled left to right until theirs is. The p-value uses the Wilson-Hilferty normal
// approximation of the chi-square distribution.
function chiSquare(samples: Int32Array, pmf: (x: number) => number): Fit {
  const n = samples.length;
  let w = 0;
  while (n * pmf(w) > 1e-9) w++;
  const observed = new Float64Array(2 * w + 1);
  for (const x of samples) observed[Math.min(Math.max(x, -w), w) + w]! += 1;
  const expected = new Float64Array(2 * w + 1);
  let covered = 0;
  for (let x = -w; x <= w; x++) {
    expected[x + w] = n * pmf(x);
    covered += pmf(x);
  }
  const tail = (n * Math.max(0, 1 - covered)) / 2;
  expected[0]! += tail;
  expected[2 * w]! += tail;

  const bins: Array<{ e: number; o: number }> = [];
  let e = 0;
  let o = 0;
  for (let i = 0; i <= 2 * w; i++) {
    e += expected[i]!;
    o += observed[i]!;
    if (e >= 5) {
      bins.push({ e, o });
      e = 0;
      o = 0;
    }
  }
  bins[bins.length - 1]!.e += e;
  bins[bins.length - 1]!.o += o;

  const statistic = bins.reduce((sum, b) => sum + (b.o - b.e) ** 2 / b.e, 0);
  const df = bins.length - 1;
  const z = (Math.cbrt(statistic / df) - (1 - 2 / (9 * df))) / Math.sqrt(2 / (9 * df));
  return { statistic, df, pValue: normalUpperTail(z) };
}

const P_MIN = 1e-4;

// Exact moments of a symmetric pmf, summed where it is not negligible.
function moments(pmf: (x: number) => number): { variance: number; fourth: number } {
  let variance = 0;
  let fourth = 0;
  for (let x = 1; pmf(x) > 0; x++) {
    variance += 2 * x * x * pmf(x);
    fourth += 2 * x ** 4 * pmf(x);
  }
  return { variance, fourth };
}

// Mean within 5 standard errors of 0 and variance within 5 standard errors of the exact one.
function expectMoments(samples: Int32Array, pmf: (x: number) => number): void {
  const n = samples.length;
  let sum = 0;
  let squares = 0;
  for (const x of samples) {
    sum += x;
    squares += x * x;
  }
  const mean = sum / n;
  const variance = squares / n - mean * mean;
  const exact = moments(pmf);
  expect(Math.abs(mean)).toBeLessThan(5 * Math.sqrt(exact.variance / n));
  const varianceError = Math.sqrt((exact.fourth - exact.variance ** 2) / n);
  expect(Math.abs(variance - exact.variance)).toBeLessThan(5 * varianceError);
}

function expectFits(samples: Int32Array, pmf: (x: number) => number): void {
  const fit = chiSquare(samples, pmf);
  expect(fit.df).toBeGreaterThan(0);
  expect(fit.pValue, `chi2 = ${fit.statistic.toFixed(1)} on ${fit.df} df`).toBeGreaterThan(P_MIN);
  expectMoments(samples, pmf);
}

const N = 200_000;

// ---------------------------------------------------------------------------------------------

describe('bernoulliExp', () => {
  const frequency = (num: bigint, den: bigint, n: number, seed: number) => {
    const rng = seeded(seed);
    let hits = 0;
    for (let i = 0; i < n; i++) if (bernoulliExp(num, den, rng)) hits++;
    return hits / n;
  };
  const expectRate = (rate: number, p: number, n: number) =>
    expect(Math.abs(rate - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / n) + 1e-12);

  it.each([
    [0n, 1n],
    [1n, 3n],
    [1n, 1n],
    [5n, 2n],
    [7n, 1n],
  ])('succeeds with probability exp(-%s/%s)', (num, den) => {
    const rate = frequency(num, den, 200_000, Number(num * 31n + den));
    expectRate(rate, Math.exp(-Number(num) / Number(den)), 200_000);
  });

  it('is exact with numerators and denominators beyond 2^53 (the BigInt path)', () => {
    const huge = 10n ** 20n;
    expectRate(frequency(huge, 3n * huge, 50_000, 1), Math.exp(-1 / 3), 50_000);
    expectRate(frequency(5n * 2n ** 59n, 2n ** 60n, 50_000, 2), Math.exp(-5 / 2), 50_000);
    expectRate(frequency(7n * huge + 1n, huge, 50_000, 3), Math.exp(-7), 50_000);
  });

  it('always succeeds for gamma = 0 and refuses a negative gamma or a non-positive denominator', () => {
    const rng = seeded(4);
    for (let i = 0; i < 1000; i++) expect(bernoulliExp(0n, 7n, rng)).toBe(true);
    expect(() => bernoulliExp(-1n, 2n)).toThrow(RangeError);
    expect(() => bernoulliExp(1n, 0n)).toThrow(RangeError);
  });
});

describe('discreteGaussian', () => {
  it.each([
    [1n, 2n],
    [12n, 1n],
    [48n, 1n],
  ])('matches the exact pmf for sigma^2 = %s/%s', (num, den) => {
    const sigma2 = Number(num) / Number(den);
    const rng = seeded(Number(num) * 1009 + Number(den));
    const samples = draw(N, () => discreteGaussian(num, den, rng));
    expectFits(samples, (x) => discreteGaussianPmf(sigma2, x));
  });

  it('matches the pmf through the BigInt path (sigma^2 with a denominator of 10^18)', () => {
    const rng = seeded(5);
    const e18 = 10n ** 18n;
    const samples = draw(40_000, () => discreteGaussian(12n * e18 + 1n, e18, rng));
    expectFits(samples, (x) => discreteGaussianPmf(12, x));
  });

  it('keeps its scale when sigma is beyond one source call (sigma = 10^15)', () => {
    const rng = seeded(10);
    const sigma = 1e15;
    const samples = Array.from({ length: 2000 }, () => discreteGaussian(10n ** 30n, 1n, rng));
    expect(samples.every((x) => Number.isSafeInteger(x))).toBe(true);
    const ratio = samples.reduce((sum, x) => sum + (x / sigma) ** 2, 0) / samples.length;
    // The sample variance over sigma^2 has standard error sqrt(2/2000) ~ 0.032.
    expect(Math.abs(ratio - 1)).toBeLessThan(0.16);
  });

  it('discreteGaussianOf draws exactly what the rational sampler draws', () => {
    for (const [sigma2, num, den] of [
      [0.5, 1n, 2n],
      [12, 12n, 1n],
      [12.345678, 6172839n, 500000n],
    ] as const) {
      const a = seeded(6);
      const b = seeded(6);
      for (let i = 0; i < 2000; i++) {
        expect(discreteGaussianOf(sigma2, a)).toBe(discreteGaussian(num, den, b));
      }
    }
  });

  it('matches the pmf for a sigma^2 with six decimals', () => {
    const rng = seeded(7);
    const samples = draw(50_000, () => discreteGaussianOf(12.345678, rng));
    expectFits(samples, (x) => discreteGaussianPmf(12.345678, x));
  });

  it('refuses a non-positive or non-finite sigma^2', () => {
    expect(() => discreteGaussian(0n, 1n)).toThrow(RangeError);
    expect(() => discreteGaussian(1n, -1n)).toThrow(RangeError);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => discreteGaussianOf(bad)).toThrow(RangeError);
    }
  });
});

describe('discreteLaplace', () => {
  it.each([
    [1n, 1n],
    [8n, 1n],
    [5n, 2n],
  ])('matches the exact pmf for scale %s/%s', (num, den) => {
    const scale = Number(num) / Number(den);
    const rng = seeded(Number(num) * 7919 + Number(den));
    const samples = draw(N, () => discreteLaplace(num, den, rng));
    expectFits(samples, (x) => discreteLaplacePmf(scale, x));
  });

  it('matches the pmf through the BigInt path (scale numerator beyond 2^48)', () => {
    const rng = seeded(8);
    const e20 = 10n ** 20n;
    const samples = draw(40_000, () => discreteLaplace(8n * e20 + 1n, e20, rng));
    expectFits(samples, (x) => discreteLaplacePmf(8, x));
  });

  it('discreteLaplaceOf draws exactly what the rational sampler draws, rounding up', () => {
    for (const [scale, num, den] of [
      [8, 8n, 1n],
      [0.5, 1n, 2n],
      // Seven decimals: rounded up to the next millionth, never down.
      [2.0000001, 2000001n, 1000000n],
    ] as const) {
      const a = seeded(9);
      const b = seeded(9);
      for (let i = 0; i < 2000; i++) {
        expect(discreteLaplaceOf(scale, a)).toBe(discreteLaplace(num, den, b));
      }
    }
  });

  it('refuses a non-positive scale', () => {
    expect(() => discreteLaplace(0n, 1n)).toThrow(RangeError);
    expect(() => discreteLaplace(1n, 0n)).toThrow(RangeError);
    expect(() => discreteLaplaceOf(-2)).toThrow(RangeError);
  });
});

describe('distributions', () => {
  // Brute force: the pmf's own formula summed over a wide window.
  const bruteForce = (sigma2: number) => {
    let mass = 0;
    let second = 0;
    for (let x = -2000; x <= 2000; x++) {
      const w = Math.exp((-x * x) / (2 * sigma2));
      mass += w;
      second += x * x * w;
    }
    return { mass, variance: second / mass };
  };

  it.each([0.05, 0.5, 0.99, 1, 2, 12, 48, 1000])(
    'discrete Gaussian pmf and variance agree with a direct sum (sigma^2 = %d)',
    (sigma2) => {
      const direct = bruteForce(sigma2);
      expect(discreteGaussianVariance(sigma2)).toBeCloseTo(direct.variance, 10);
      for (const x of [0, 1, 3, 10]) {
        const expected = Math.exp((-x * x) / (2 * sigma2)) / direct.mass;
        expect(discreteGaussianPmf(sigma2, x)).toBeCloseTo(expected, 13);
      }
    },
  );

  it('the discrete Gaussian variance is a little below sigma^2, and equal to it for large sigma', () => {
    expect(discreteGaussianVariance(0.5)).toBeLessThan(0.5);
    expect(discreteGaussianVariance(0.5)).toBeCloseTo(0.49898, 5);
    expect(discreteGaussianVariance(1)).toBeLessThan(1);
    expect(discreteGaussianVariance(12)).toBeCloseTo(12, 12);
  });

  it('the Laplace pmf sums to 1 and has the closed-form variance', () => {
    for (const scale of [0.3, 1, 8]) {
      let mass = 0;
      let second = 0;
      for (let x = -3000; x <= 3000; x++) {
        mass += discreteLaplacePmf(scale, x);
        second += x * x * discreteLaplacePmf(scale, x);
      }
      const r = Math.exp(-1 / scale);
      expect(mass).toBeCloseTo(1, 12);
      expect(second).toBeCloseTo((2 * r) / (1 - r) ** 2, 8);
    }
    expect(discreteLaplacePmf(1, 0.5)).toBe(0);
    expect(discreteGaussianPmf(1, 0.5)).toBe(0);
  });
});

describe('randomness', () => {
  it('the default source is node:crypto randomInt', () => {
    const calls = vi.mocked(randomInt).mock.calls;
    const before = calls.length;
    const values = draw(200, () => discreteGaussian(12n, 1n));
    expect(calls.length).toBeGreaterThan(before + 200);
    expect(values.every((x) => Number.isSafeInteger(x))).toBe(true);
    // 200 draws with sigma^2 = 12 are not all the same value.
    expect(new Set(values).size).toBeGreaterThan(3);
    for (let i = 0; i < 1000; i++) {
      const x = cryptoRandomInt(6);
      expect(Number.isInteger(x) && x >= 0 && x < 6).toBe(true);
    }
    expect(Number.isSafeInteger(discreteLaplaceOf(8))).toBe(true);
    expect(typeof bernoulliExp(1n, 2n)).toBe('boolean');
  });

  it('an injected source decides the output', () => {
    // Always the largest value: U = t - 1 = 3 is kept, V = 0, the sign is negative, and
    // gamma = (3 * 4 - 12)^2 / ... = 0 accepts it.
    // A budget, so that a broken sampler that loops on a constant source fails instead of hanging.
    let budget = 10_000;
    const highest: RandomInt = (max) => {
      if (--budget < 0) throw new Error('the sampler kept rejecting a constant source');
      return max - 1;
    };
    for (let i = 0; i < 10; i++) expect(discreteGaussian(12n, 1n, highest)).toBe(-3);
    const run = (seed: number) =>
      Array.from(draw(50, () => discreteGaussian(48n, 1n, seeded(seed))));
    expect(run(11)).toEqual(run(11));
    expect(run(11)).not.toEqual(run(12));
  });
});

describe('the goodness-of-fit check can fail', () => {
  // Box-Muller on the seeded source: the classic floating-point sampler, rounded.
  const continuous = (rng: RandomInt) => () => {
    const u1 = (rng(2 ** 32) + 1) / (2 ** 32 + 1);
    const u2 = rng(2 ** 32) / 2 ** 32;
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  };

  it('rejects a discrete Gaussian whose sigma^2 is 30% too large', () => {
    const rng = seeded(13);
    const wrong = draw(N, () => discreteGaussian(156n, 10n, rng));
    const fit = chiSquare(wrong, (x) => discreteGaussianPmf(12, x));
    expect(fit.pValue).toBeLessThan(1e-10);
  });

  it('rejects a rounded continuous Gaussian with biased rounding', () => {
    const z = continuous(seeded(14));
    const sigma = Math.sqrt(12);
    const wrong = draw(N, () => Math.floor(sigma * z() + 0.6));
    const fit = chiSquare(wrong, (x) => discreteGaussianPmf(12, x));
    expect(fit.pValue).toBeLessThan(1e-10);
  });

  it('rejects a discrete Laplace of the wrong scale', () => {
    const rng = seeded(15);
    const wrong = draw(N, () => discreteLaplace(9n, 1n, rng));
    expect(chiSquare(wrong, (x) => discreteLaplacePmf(8, x)).pValue).toBeLessThan(1e-10);
  });

  it('accepts what it should: the right sampler, seeded differently', () => {
    const rng = seeded(16);
    const right = draw(N, () => discreteGaussian(12n, 1n, rng));
    expect(chiSquare(right, (x) => discreteGaussianPmf(12, x)).pValue).toBeGreaterThan(P_MIN);
  });
});

describe('properties', () => {
  const rational = (max: bigint) =>
    fc.tuple(fc.bigInt({ min: 1n, max }), fc.bigInt({ min: 1n, max }));

  it('discreteGaussian returns safe integers and keeps to the source contract', () => {
    fc.assert(
      fc.property(
        fc.oneof(rational(10n ** 6n), rational(10n ** 24n)),
        fc.integer(),
        ([num, den], seed) => {
          const x = discreteGaussian(num, den, seeded(seed));
          expect(Number.isSafeInteger(x)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('discreteLaplace returns safe integers and keeps to the source contract', () => {
    fc.assert(
      fc.property(
        fc.oneof(rational(10n ** 6n), rational(10n ** 24n)),
        fc.integer(),
        ([num, den], seed) => {
          fc.pre(num <= den * 10n ** 12n);
          const x = discreteLaplace(num, den, seeded(seed));
          expect(Number.isSafeInteger(x)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('bernoulliExp returns a boolean for any gamma and keeps to the source contract', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.integer(),
        (num, den, seed) => {
          expect(typeof bernoulliExp(num, den, seeded(seed))).toBe('boolean');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the decimal samplers accept any finite positive parameter up to 10^9', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-9, max: 1e9, noNaN: true }), fc.integer(), (value, seed) => {
        expect(Number.isSafeInteger(discreteGaussianOf(value, seeded(seed)))).toBe(true);
        expect(Number.isSafeInteger(discreteLaplaceOf(value, seeded(seed)))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
