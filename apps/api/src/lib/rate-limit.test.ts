import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore, type RateLimitStore, RedisRateLimitStore } from './rate-limit.js';

const redisUrl = process.env.TEST_REDIS_URL;

interface Subject {
  store: RateLimitStore;
  /** Lets `ms` pass for the store. */
  advance: (ms: number) => Promise<void>;
}

function memory(): Subject {
  let now = 1_000_000;
  return {
    store: new MemoryRateLimitStore(() => now),
    advance: async (ms) => {
      now += ms;
    },
  };
}

function redis(): Subject {
  // A prefix of its own: parallel runs and other suites never share keys.
  const store = new RedisRateLimitStore(redisUrl!, `candor-test:${crypto.randomUUID()}:`);
  return { store, advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
}

const kinds: Array<[string, () => Subject]> = [['memory', memory]];
if (redisUrl) kinds.push(['redis', redis]);

describe.each(kinds)('rate-limit store: %s', (_name, make) => {
  const subjects: Subject[] = [];
  const subject = () => {
    const s = make();
    subjects.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of subjects) await s.store.close();
  });

  it('counts hits in a window and says when it ends', async () => {
    const { store } = subject();
    expect(await store.peek('k')).toEqual({ count: 0, resetInMs: 0 });
    const first = await store.hit('k', 60_000);
    expect(first.count).toBe(1);
    expect(first.resetInMs).toBeGreaterThan(59_000);
    expect(first.resetInMs).toBeLessThanOrEqual(60_000);
    expect((await store.hit('k', 60_000)).count).toBe(2);
    const third = await store.hit('k', 60_000);
    expect(third.count).toBe(3);
    // The window does not slide with each hit.
    expect(third.resetInMs).toBeLessThanOrEqual(first.resetInMs);
    expect((await store.peek('k')).count).toBe(3);
    expect((await store.peek('other')).count).toBe(0);
  });

  it('starts afresh when the window ends', async () => {
    const { store, advance } = subject();
    await store.hit('w', 300);
    await store.hit('w', 300);
    await advance(400);
    expect((await store.peek('w')).count).toBe(0);
    expect((await store.hit('w', 300)).count).toBe(1);
  });

  it('forgets a key on reset', async () => {
    const { store } = subject();
    await store.hit('r', 60_000);
    await store.reset('r');
    expect((await store.peek('r')).count).toBe(0);
    expect((await store.hit('r', 60_000)).count).toBe(1);
  });

  it('gives a burst of 150 concurrent reservations exactly the limit of slots', async () => {
    const { store } = subject();
    const slots = [
      { key: 'n', limit: 5, windowMs: 60_000 },
      { key: 'ip', limit: 30, windowMs: 60_000 },
    ];
    const results = await Promise.all(Array.from({ length: 150 }, () => store.reserve(slots)));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(145);
    for (const r of refused) expect(r.resetInMs).toBeGreaterThan(59_000);
    // A refused reservation takes no slot in the other window either.
    expect((await store.peek('n')).count).toBe(5);
    expect((await store.peek('ip')).count).toBe(5);
  });

  it('refuses a reservation when any window is full, and gives a released slot back', async () => {
    const { store } = subject();
    const slot = { key: 'x', limit: 2, windowMs: 60_000 };
    expect((await store.reserve([slot])).ok).toBe(true);
    expect((await store.reserve([slot])).ok).toBe(true);
    expect((await store.reserve([slot])).ok).toBe(false);
    await store.release('x');
    expect((await store.peek('x')).count).toBe(1);
    const again = await store.reserve([slot]);
    expect(again.ok).toBe(true);
    await store.release('nothing-here');
    expect((await store.peek('nothing-here')).count).toBe(0);
    // Releasing never goes below zero, and the window keeps its end.
    await store.release('x');
    await store.release('x');
    await store.release('x');
    expect((await store.peek('x')).count).toBe(0);
    expect((await store.reserve([slot])).ok).toBe(true);
  });

  it('never loses a hit under concurrency', async () => {
    const { store } = subject();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.hit('c', 60_000)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
  });
});

describe('memory rate-limit store housekeeping', () => {
  it('drops expired windows instead of growing without bound', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    for (let i = 0; i < 999; i++) await store.hit(`k${i}`, 10);
    now += 20;
    await store.hit('trigger', 10); // the 1000th hit sweeps
    expect((store as unknown as { windows: Map<string, unknown> }).windows.size).toBe(1);
  });
});
