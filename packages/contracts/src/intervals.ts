/**
 * How sure a published share is (decision 027): shared by the API's margins, the operators'
 * exports and randomized response's estimates.
 */

/**
 * The variance of a share of n people as a Jeffreys posterior, Beta(x + 1/2, n - x + 1/2)
 * (decision 027: AAPOR's credibility interval for an opt-in sample). Never 0.
 */
export function samplingVariance(share: number, n: number): number {
  const a = share * n + 0.5;
  const b = (1 - share) * n + 0.5;
  return (a * b) / ((a + b) ** 2 * (a + b + 1));
}

/** The half-width of a 95% interval, in points, of a share (0..1) with this variance. */
export const marginPoints = (variance: number) => 1.959964 * Math.sqrt(variance) * 100;
