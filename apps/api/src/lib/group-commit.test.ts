import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.js';

const turn = () => new Promise((r) => setImmediate(r));

/** A writer whose batches finish when the test says so, recording what it was given. */
function controlledWriter() {
  const batches: number[][] = [];
  const open: Array<() => void> = [];
  let writing = 0;
  let mostAtOnce = 0;
  const write = (batch: readonly number[]) => {
    batches.push([...batch]);
    writing += 1;
    mostAtOnce = Math.max(mostAtOnce, writing);
    return new Promise<Array<number | Error>>((resolve) => {
      open.push(() => {
        writing -= 1;
        resolve(batch.map((v) => (v < 0 ? new Error(`bad ${v}`) : v * 10)));
      });
    });
  };
  return { write, batches, open, mostAtOnce: () => mostAtOnce };
}

describe('groupCommit', () => {
  it('writes values that arrive together in one batch, at once when idle', async () => {
    const w = controlledWriter();
    const submit = groupCommit(w.write, { maxRows: 100, inFlight: 1 });
    const results = [1, 2, 3].map((v) => submit(v));
    await turn();
    expect(w.batches).toEqual([[1, 2, 3]]);
    w.open.shift()!();
    await expect(Promise.all(results)).resolves.toEqual([10, 20, 30]);
  });

  it('gathers what arrives while the writer is busy into its next batch', async () => {
    const w = controlledWriter();
    const submit = groupCommit(w.write, { maxRows: 100, inFlight: 1 });
    const first = submit(1);
    await turn();
    const later = [2, 3, 4].map((v) => submit(v));
    await turn();
    await turn();
    // Still one batch being written: the others wait for it, with no timer.
    expect(w.batches).toEqual([[1]]);
    w.open.shift()!();
    await expect(first).resolves.toBe(10);
    await turn();
    expect(w.batches).toEqual([[1], [2, 3, 4]]);
    w.open.shift()!();
    await expect(Promise.all(later)).resolves.toEqual([20, 30, 40]);
  });

  it('fails only the value its writer says is bad, and a thrown batch only its own values', async () => {
    let calls = 0;
    const submit = groupCommit(
      (batch: readonly number[]) => {
        calls += 1;
        if (calls === 2) return Promise.reject(new Error('connection lost'));
        return Promise.resolve(batch.map((v) => (v < 0 ? new Error(`bad ${v}`) : v)));
      },
      { maxRows: 100, inFlight: 1 },
    );
    const a = [submit(1), submit(-2), submit(3)];
    await expect(Promise.allSettled(a)).resolves.toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new Error('bad -2') },
      { status: 'fulfilled', value: 3 },
    ]);
    await expect(submit(4)).rejects.toThrow('connection lost');
    await expect(submit(5)).resolves.toBe(5);
  });

  it('keeps every value in order, within maxRows and inFlight, each answered once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 3 }),
        // Per step: how many values arrive, and how many open batches finish.
        fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 3 })), {
          maxLength: 12,
        }),
        async (maxRows, inFlight, steps) => {
          const w = controlledWriter();
          const submit = groupCommit(w.write, { maxRows, inFlight });
          const sent: number[] = [];
          const answered = new Map<number, unknown>();
          let next = 0;
          const submitted: Array<Promise<void>> = [];
          for (const [arrive, finish] of steps) {
            for (let i = 0; i < arrive; i++) {
              const v = next % 5 === 4 ? -next : next;
              next += 1;
              sent.push(v);
              submitted.push(
                submit(v).then(
                  (r) => void answered.set(v, r),
                  (e: unknown) => void answered.set(v, e),
                ),
              );
            }
            await turn();
            for (let i = 0; i < finish && w.open.length > 0; i++) w.open.shift()!();
            await turn();
          }
          while (w.open.length > 0 || w.batches.flat().length < sent.length) {
            w.open.shift()?.();
            await turn();
          }
          await Promise.all(submitted);
          expect(w.batches.flat()).toEqual(sent);
          for (const b of w.batches) expect(b.length).toBeLessThanOrEqual(maxRows);
          expect(w.mostAtOnce()).toBeLessThanOrEqual(inFlight);
          for (const v of sent) {
            expect(answered.get(v)).toEqual(v < 0 ? new Error(`bad ${v}`) : v * 10);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
