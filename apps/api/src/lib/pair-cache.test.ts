import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPairCache } from './pair-cache.js';

const id = fc.integer({ min: 1, max: 0x7fffffff });

describe('pair cache', () => {
  it('never claims a pair it was not given, and always holds the last one added', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(id, id), { maxLength: 300 }),
        fc.tuple(id, id),
        (added, probe) => {
          const cache = createPairCache(4); // 16 slots: most pairs share a slot with others
          for (const [a, b] of added) {
            cache.add(a, b);
            expect(cache.has(a, b)).toBe(true);
          }
          const given = added.some(([a, b]) => a === probe[0] && b === probe[1]);
          if (!given) expect(cache.has(...probe)).toBe(false);
        },
      ),
    );
  });

  it('never claims a pair it was not given, even when every slot is contested', () => {
    // 64 possible pairs in 2 or 4 slots: a slot compared by half a pair, or by hash, is caught.
    const small = fc.integer({ min: 1, max: 8 });
    fc.assert(
      fc.property(fc.constantFrom(1, 2), fc.array(fc.tuple(small, small)), (bits, added) => {
        const cache = createPairCache(bits);
        const given = new Set<string>();
        for (const [a, b] of added) {
          cache.add(a, b);
          given.add(`${a}:${b}`);
        }
        for (let a = 1; a <= 8; a++) {
          for (let b = 1; b <= 8; b++) {
            if (cache.has(a, b)) expect(given.has(`${a}:${b}`), `${a}:${b}`).toBe(true);
          }
        }
      }),
    );
  });

  it('does not confuse a pair with its mirror or its neighbours', () => {
    const cache = createPairCache(18);
    cache.add(17, 42);
    expect(cache.has(17, 42)).toBe(true);
    expect(cache.has(42, 17)).toBe(false);
    expect(cache.has(17, 43)).toBe(false);
    expect(cache.has(18, 42)).toBe(false);
  });

  it('keeps most of a working set that fits its size', () => {
    // 100,000 members' answers to one question in 2^18 slots: collisions lose about 15% (for
    // random pairs, 1 - (1 - e^(-n/m)) m/n: 17%); a miss costs one indexed query.
    const cache = createPairCache(18);
    const n = 100_000;
    for (let r = 1; r <= n; r++) cache.add(r, 7);
    let kept = 0;
    for (let r = 1; r <= n; r++) if (cache.has(r, 7)) kept++;
    expect(kept / n).toBeGreaterThan(0.8);
  });

  it('refuses ids that would not fit', () => {
    const cache = createPairCache(8);
    for (const [a, b] of [
      [0, 1],
      [1, 0],
      [-1, 1],
      [1.5, 1],
      [2 ** 31, 1],
      [1, Number.NaN],
    ] as const) {
      expect(() => cache.add(a, b), `${a}, ${b}`).toThrow(RangeError);
      expect(() => cache.has(a, b), `${a}, ${b}`).toThrow(RangeError);
    }
    expect(() => createPairCache(0)).toThrow(RangeError);
  });
});
