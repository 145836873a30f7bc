// Exact noise samplers for differential privacy: Canonne, Kamath, Steinke, "The discrete Gaussian
// for differential privacy" (2020), Algorithms 1 (Bernoulli(exp(-gamma)) for rational gamma),
// 2 (discrete Laplace) and 3 (discrete Gaussian by rejection from a discrete Laplace).
//
// Why exact: a sampler built on floating point (inverse CDF, Box-Muller, then rounding) has holes
// and uneven steps in the set of values it can return, and those depend on the secret it is added
// to, which breaks the guarantee outright (Mironov 2012). Here every accept/reject decision
// compares integers drawn uniformly from a secure source with integers computed exactly. Values
// are plain numbers while they provably stay safe integers (fast, and what the publication path
// hits), and BigInt otherwise; no decision ever depends on a rounded float. Only the pmf and
// variance helpers at the bottom use floating point: they describe the distributions, they draw
// nothing.

import { randomInt } from 'node:crypto';

/**
 * A source of uniform integers in [0, maxExclusive). The samplers only ask for safe integer
 * ranges with 1 <= maxExclusive <= 2^48 - 1 (what node:crypto's randomInt accepts); they build
 * larger uniforms out of 32-bit draws themselves.
 */
export type RandomInt = (maxExclusive: number) => number;

/** The default source: node:crypto's randomInt (a CSPRNG), never Math.random. */
export const cryptoRandomInt: RandomInt = (maxExclusive) => randomInt(maxExclusive);

// node:crypto's randomInt takes ranges below 2^48; a source is never asked for more.
const SOURCE_LIMIT = 2 ** 48 - 1;
const SOURCE_LIMIT_BIG = BigInt(SOURCE_LIMIT);
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
// The largest a with a * a <= Number.MAX_SAFE_INTEGER.
const SQRT_MAX_SAFE = 94_906_265;

/** Bernoulli(exp(-num/den)), exactly: true with probability exp(-num/den); num >= 0, den > 0. */
export function bernoulliExp(num: bigint, den: bigint, rng: RandomInt = cryptoRandomInt): boolean {
  if (num < 0n || den <= 0n) {
    throw new RangeError(`bernoulliExp needs num >= 0 and den > 0, got ${num}/${den}`);
  }
  return bernoulliExpExact(num, den, rng);
}

/** Discrete Laplace: integer X with P(X = x) proportional to exp(-|x| * scaleDen / scaleNum). */
export function discreteLaplace(
  scaleNum: bigint,
  scaleDen: bigint,
  rng: RandomInt = cryptoRandomInt,
): number {
  if (scaleNum <= 0n || scaleDen <= 0n) {
    throw new RangeError(`discreteLaplace needs a positive scale, got ${scaleNum}/${scaleDen}`);
  }
  const g = gcd(scaleNum, scaleDen);
  // Algorithm 2 samples Lap(t/s): scale t/s is scaleNum/scaleDen in lowest terms.
  const t = scaleNum / g;
  const s = scaleDen / g;
  if (t <= SOURCE_LIMIT_BIG && s <= MAX_SAFE_BIG) return laplaceNumber(Number(s), Number(t), rng);
  return toSafeNumber(laplaceBig(s, t, rng));
}

/** Discrete Gaussian: integer X with P(X = x) proportional to exp(-x^2 / (2 sigma2Num/sigma2Den)). */
export function discreteGaussian(
  sigma2Num: bigint,
  sigma2Den: bigint,
  rng: RandomInt = cryptoRandomInt,
): number {
  if (sigma2Num <= 0n || sigma2Den <= 0n) {
    throw new RangeError(`discreteGaussian needs sigma^2 > 0, got ${sigma2Num}/${sigma2Den}`);
  }
  return sampleGaussian(gaussianPlan(sigma2Num, sigma2Den), rng);
}

/** discreteGaussian for a decimal sigma^2, rounded up to a multiple of 10^-6. */
export function discreteGaussianOf(sigma2: number, rng: RandomInt = cryptoRandomInt): number {
  const [num, den] = toRational(sigma2, 'sigma2');
  return discreteGaussian(num, den, rng);
}

/** discreteLaplace for a decimal scale, rounded up to a multiple of 10^-6. */
export function discreteLaplaceOf(scale: number, rng: RandomInt = cryptoRandomInt): number {
  const [num, den] = toRational(scale, 'scale');
  return discreteLaplace(num, den, rng);
}

// ---------------------------------------------------------------------------------------------
// Algorithm 1: Bernoulli(exp(-gamma)).

// exp(-gamma) = exp(-1)^floor(gamma) * exp(-(gamma - floor(gamma))): Algorithm 1's split, done
// with integer division so the whole and fractional parts are exact.
function bernoulliExpExact(num: bigint, den: bigint, rng: RandomInt): boolean {
  if (den <= SOURCE_LIMIT_BIG && num <= MAX_SAFE_BIG) {
    return bernoulliExpNumber(Number(num), Number(den), rng);
  }
  const rem = num % den;
  for (let whole = num / den; whole > 0n; whole--) {
    if (!bernoulliExpMinusOne(rng)) return false;
  }
  if (rem === 0n) return true;
  if (den <= SOURCE_LIMIT_BIG) return bernoulliExpFraction(Number(rem), Number(den), rng);
  return bernoulliExpFractionBig(rem, den, rng);
}

// Same as bernoulliExpExact for num <= 2^53 - 1 and den <= 2^48 - 1. `%` on doubles is exact, and
// (num - rem) / den divides an exact multiple, so both parts are the true integers.
function bernoulliExpNumber(num: number, den: number, rng: RandomInt): boolean {
  const rem = num % den;
  for (let whole = (num - rem) / den; whole > 0; whole--) {
    if (!bernoulliExpMinusOne(rng)) return false;
  }
  return bernoulliExpFraction(rem, den, rng);
}

// Algorithm 1 with gamma = 1: keep going while Bernoulli(1/k) succeeds (k = 1 always does), and
// return whether it stopped at an odd k.
function bernoulliExpMinusOne(rng: RandomInt): boolean {
  let k = 2;
  while (rng(k) === 0) k++;
  return k % 2 === 1;
}

// Algorithm 1 for gamma = rem/den in [0, 1). Bernoulli(gamma/k) is drawn as Bernoulli(1/k) and
// Bernoulli(rem/den) together (independent, so the product is exact), which keeps every range
// at den or k instead of den * k.
function bernoulliExpFraction(rem: number, den: number, rng: RandomInt): boolean {
  if (rem === 0) return true;
  let k = 1;
  while ((k === 1 || rng(k) === 0) && rng(den) < rem) k++;
  return k % 2 === 1;
}

function bernoulliExpFractionBig(rem: bigint, den: bigint, rng: RandomInt): boolean {
  let k = 1;
  while ((k === 1 || rng(k) === 0) && uniformBig(den, rng) < rem) k++;
  return k % 2 === 1;
}

// Uniform in [0, n): one source call when n fits, otherwise rejection from the next power of two,
// assembled from draws of at most 32 bits (accepts more than half the time).
function uniformBig(n: bigint, rng: RandomInt): bigint {
  if (n <= SOURCE_LIMIT_BIG) return BigInt(rng(Number(n)));
  const bits = (n - 1n).toString(2).length;
  for (;;) {
    let u = 0n;
    for (let left = bits; left > 0; left -= 32) {
      const width = Math.min(32, left);
      u = (u << BigInt(width)) | BigInt(rng(2 ** width));
    }
    if (u < n) return u;
  }
}

// ---------------------------------------------------------------------------------------------
// Algorithm 2: discrete Laplace with scale t/s (P(x) proportional to exp(-|x| s/t)).

// For t <= 2^48 - 1 and s <= 2^53 - 1: every step stays a safe integer or falls back to BigInt.
function laplaceNumber(s: number, t: number, rng: RandomInt): number {
  for (;;) {
    const u = rng(t);
    if (!bernoulliExpFraction(u, t, rng)) continue;
    let v = 0;
    while (bernoulliExpMinusOne(rng)) v++;
    // A product of safe integers that comes out safe is exact (rounding is monotone).
    if (!Number.isSafeInteger(t * (v + 1))) {
      const y = (BigInt(u) + BigInt(t) * BigInt(v)) / BigInt(s);
      const negative = rng(2) === 1;
      if (negative && y === 0n) continue;
      return toSafeNumber(negative ? -y : y);
    }
    const x = u + t * v;
    const y = s === 1 ? x : (x - (x % s)) / s;
    const negative = rng(2) === 1;
    // Without this rejection 0 would be drawn as +0 and as -0: twice its share.
    if (negative && y === 0) continue;
    return negative ? -y : y;
  }
}

function laplaceBig(s: bigint, t: bigint, rng: RandomInt): bigint {
  for (;;) {
    const u = uniformBig(t, rng);
    if (!bernoulliExpExact(u, t, rng)) continue;
    let v = 0n;
    while (bernoulliExpMinusOne(rng)) v++;
    const y = (u + t * v) / s;
    const negative = rng(2) === 1;
    if (negative && y === 0n) continue;
    return negative ? -y : y;
  }
}

// ---------------------------------------------------------------------------------------------
// Algorithm 3: discrete Gaussian with sigma^2 = p/q, by rejection from Lap(t), t = floor(sigma)+1.
// Accept y with probability exp(-(|y| - sigma^2/t)^2 / (2 sigma^2)) = exp(-a^2 / (2 p q t^2)),
// where a = |y| q t - p.

interface GaussianPlan {
  p: bigint;
  q: bigint;
  t: bigint;
  qt: bigint;
  den: bigint;
  // Number copies for the fast path; tNumber is 0 when t is too large for one source call.
  tNumber: number;
  pNumber: number;
  qtNumber: number;
  // 0 when den, p or qt is not small enough for bernoulliExpNumber.
  denNumber: number;
}

// Callers draw many samples with the same sigma^2: reuse the BigInt set-up of the last one.
let lastPlan: GaussianPlan | undefined;
let lastNum = 0n;
let lastDen = 0n;

function gaussianPlan(sigma2Num: bigint, sigma2Den: bigint): GaussianPlan {
  if (lastPlan && lastNum === sigma2Num && lastDen === sigma2Den) return lastPlan;
  const g = gcd(sigma2Num, sigma2Den);
  const p = sigma2Num / g;
  const q = sigma2Den / g;
  // floor(sqrt(p/q)) = isqrt(floor(p/q)), since n^2 <= p/q iff n^2 <= floor(p/q) for integer n.
  const t = isqrt(p / q) + 1n;
  const qt = q * t;
  const den = 2n * p * qt * t;
  const fast = den <= SOURCE_LIMIT_BIG && p <= MAX_SAFE_BIG && qt <= MAX_SAFE_BIG;
  lastPlan = {
    p,
    q,
    t,
    qt,
    den,
    tNumber: t <= SOURCE_LIMIT_BIG ? Number(t) : 0,
    pNumber: fast ? Number(p) : 0,
    qtNumber: fast ? Number(qt) : 0,
    denNumber: fast ? Number(den) : 0,
  };
  lastNum = sigma2Num;
  lastDen = sigma2Den;
  return lastPlan;
}

function sampleGaussian(plan: GaussianPlan, rng: RandomInt): number {
  for (;;) {
    if (plan.tNumber === 0) {
      const y = laplaceBig(1n, plan.t, rng);
      const a = (y < 0n ? -y : y) * plan.qt - plan.p;
      if (bernoulliExpExact(a * a, plan.den, rng)) return toSafeNumber(y);
      continue;
    }
    const y = laplaceNumber(1, plan.tNumber, rng);
    const absY = Math.abs(y);
    const yqt = absY * plan.qtNumber;
    if (plan.denNumber !== 0 && Number.isSafeInteger(yqt)) {
      const a = yqt - plan.pNumber;
      if (Math.abs(a) <= SQRT_MAX_SAFE) {
        if (bernoulliExpNumber(a * a, plan.denNumber, rng)) return y;
        continue;
      }
    }
    const a = BigInt(absY) * plan.qt - plan.p;
    if (bernoulliExpExact(a * a, plan.den, rng)) return y;
  }
}

// ---------------------------------------------------------------------------------------------
// Exact helpers.

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

// Newton's method from a power of two above sqrt(n): decreases to floor(sqrt(n)).
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

// Refuses rather than rounds: only a scale near 2^53 gets here, with vanishing probability.
function toSafeNumber(x: bigint): number {
  if (x > MAX_SAFE_BIG || x < -MAX_SAFE_BIG) {
    throw new RangeError(`noise sample ${x} is not a safe integer`);
  }
  return Number(x);
}

const MICROS = 1_000_000;

// A decimal parameter as micros/10^6 in lowest terms. Rounded up when it has more than six
// decimals: more noise never weakens the privacy guarantee, less would.
function toRational(value: number, name: string): [bigint, bigint] {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a finite positive number, got ${value}`);
  }
  let micros = Math.round(value * MICROS);
  if (micros / MICROS < value) micros += 1;
  if (!Number.isSafeInteger(micros)) throw new RangeError(`${name} is too large: ${value}`);
  const num = BigInt(micros);
  const den = BigInt(MICROS);
  const g = gcd(num, den);
  return [num / g, den / g];
}

// ---------------------------------------------------------------------------------------------
// Distributions, for tests and for callers that print intervals. Floating point is fine here:
// nothing below draws or decides anything.

function checkPositive(value: number, name: string): void {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a finite positive number, got ${value}`);
  }
}

// Sum over integers x of exp(-x^2 / (2 sigma^2)) and of x^2 exp(-x^2 / (2 sigma^2)). Below
// sigma^2 = 1 the direct sum ends within 40 sigma; from 1 up the Poisson-summation (theta) form,
// sqrt(2 pi sigma^2) sum_k exp(-2 pi^2 sigma^2 k^2) and its second-moment analogue, needs a term
// or two whatever sigma is, where the direct sum would need 40 sigma.
function gaussianSums(sigma2: number): { mass: number; secondMoment: number } {
  if (sigma2 < 1) {
    let mass = 1;
    let secondMoment = 0;
    for (let x = 1; ; x++) {
      const w = Math.exp((-x * x) / (2 * sigma2));
      if (w === 0) break;
      mass += 2 * w;
      secondMoment += 2 * x * x * w;
    }
    return { mass, secondMoment };
  }
  const c = 2 * Math.PI * Math.PI * sigma2;
  let s0 = 1;
  let s2 = 1;
  for (let k = 1; ; k++) {
    const w = Math.exp(-c * k * k);
    if (w === 0) break;
    s0 += 2 * w;
    s2 += 2 * (1 - 2 * c * k * k) * w;
  }
  const root = Math.sqrt(2 * Math.PI * sigma2);
  return { mass: root * s0, secondMoment: root * sigma2 * s2 };
}

/** P(X = x) for the discrete Gaussian with parameter sigma2 (0 off the integers). */
export function discreteGaussianPmf(sigma2: number, x: number): number {
  checkPositive(sigma2, 'sigma2');
  if (!Number.isInteger(x)) return 0;
  return Math.exp((-x * x) / (2 * sigma2)) / gaussianSums(sigma2).mass;
}

/** The exact variance of the discrete Gaussian with parameter sigma2 (a little below sigma2). */
export function discreteGaussianVariance(sigma2: number): number {
  checkPositive(sigma2, 'sigma2');
  const { mass, secondMoment } = gaussianSums(sigma2);
  return secondMoment / mass;
}

/** P(X = x) for the discrete Laplace with this scale: tanh(1/(2 scale)) exp(-|x|/scale). */
export function discreteLaplacePmf(scale: number, x: number): number {
  checkPositive(scale, 'scale');
  if (!Number.isInteger(x)) return 0;
  return Math.tanh(1 / (2 * scale)) * Math.exp(-Math.abs(x) / scale);
}
