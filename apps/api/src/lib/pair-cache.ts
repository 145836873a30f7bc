/**
 * A set of (a, b) pairs of positive 32-bit ids that remembers a bounded number of them in
 * memory allocated once, up front: `2^bits` slots of two Int32s (2 MiB at 18 bits). Each pair has
 * one slot, picked by a hash of the pair, and a newer pair whose slot it is takes it over: the
 * cache forgets, but it never claims a pair it was not given (each slot holds the whole pair).
 *
 * Why not a Set of strings: that grows by about 100 bytes of heap per pair until its cap, which
 * on a busy server takes tens of minutes, and every one of those strings is traced by the garbage
 * collector (the soak's memory, docs/reliability.md).
 */
export function createPairCache(bits: number) {
  if (!Number.isInteger(bits) || bits < 1 || bits > 26) throw new RangeError('bits: 1 to 26');
  const slots = new Int32Array(2 ** bits * 2); // [a, b] per slot; a = 0: empty
  const shift = 32 - bits;
  const slotOf = (a: number, b: number) =>
    // Multiplicative hashing of each half (odd constants from the golden ratio and murmur3),
    // top bits kept: neighbouring ids spread over the whole table.
    ((Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) >>> shift) * 2;
  const isId = (n: number) => Number.isInteger(n) && n > 0 && n <= 0x7fffffff;
  const check = (a: number, b: number) => {
    if (!isId(a) || !isId(b)) throw new RangeError('pair ids must be positive 32-bit integers');
  };
  return {
    add(a: number, b: number): void {
      check(a, b);
      const i = slotOf(a, b);
      slots[i] = a;
      slots[i + 1] = b;
    },
    has(a: number, b: number): boolean {
      check(a, b);
      const i = slotOf(a, b);
      return slots[i] === a && slots[i + 1] === b;
    },
  };
}
