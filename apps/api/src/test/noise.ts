import { discreteGaussianOf, discreteLaplaceOf } from '../modules/results/noise.js';
import type { Noise } from '../modules/results/privacy.js';

/** No noise at all: for tests of the plumbing (what is counted, when a period ends). */
export const zeroNoise: Noise = { gaussian: () => 0, laplace: () => 0 };

/**
 * A seeded source of whole numbers in [0, max) (xorshift128+): the same draws on every run, for
 * simulations (a population and its devices' draws) and the seeded samplers below.
 */
export function seededInts(seed: number): (maxExclusive: number) => number {
  let s0 = BigInt(seed) | 1n;
  let s1 = 0x9e3779b97f4a7c15n ^ BigInt(seed);
  const mask = (1n << 64n) - 1n;
  const next = () => {
    let x = s0;
    const y = s1;
    s0 = y;
    x = (x ^ (x << 23n)) & mask;
    s1 = x ^ y ^ (x >> 17n) ^ (y >> 26n);
    return (s1 + y) & mask;
  };
  return (maxExclusive: number) => Number(next() % BigInt(maxExclusive));
}

/**
 * The production samplers over a seeded source (`seededInts`): the real distributions, the
 * same draws on every run. Tests of privacy use the crypto default instead.
 */
export function seededNoise(seed: number): Noise {
  const rng = seededInts(seed);
  return {
    gaussian: (sigma2) => discreteGaussianOf(sigma2, rng),
    laplace: (scale) => discreteLaplaceOf(scale, rng),
  };
}
