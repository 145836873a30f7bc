/**
 * mulberry32: a seeded source of whole numbers in [0, max) for the contracts' simulations, so a
 * simulated population and its devices' draws are the same on every run. Tests only: Candor's
 * own draws come from crypto.getRandomValues.
 */
export function seededInts(seed: number): (maxExclusive: number) => number {
  let state = seed;
  return (maxExclusive: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * maxExclusive);
  };
}
