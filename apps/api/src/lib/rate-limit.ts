import type { Redis } from 'ioredis';
import { createRedisClient } from './redis.js';

/** A fixed-window counter: how many hits the key has had, and when its window ends. */
export interface WindowCount {
  count: number;
  /** Milliseconds until the window (and its count) ends. */
  resetInMs: number;
}

/** Rate-limit state: in memory for one process, in Redis when several processes share it. */
export interface RateLimitStore {
  /** Adds one hit to `key`, starting a window of `windowMs` when none is open. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** The current count without adding to it (0 when no window is open). */
  peek(key: string): Promise<WindowCount>;
  /**
   * Takes one slot in every window at once, or none when any of them is full (count >= limit).
   * Taken before the work it guards (a password hash, a code check), so a burst of concurrent
   * requests gets exactly `limit` slots instead of all reading the count before any adds to it.
   */
  reserve(slots: readonly Slot[]): Promise<Reservation>;
  /** Gives one slot of `key` back (a reserved attempt that succeeded); never below zero. */
  release(key: string): Promise<void>;
  /** Forgets the key (a successful login clears its number's failures). */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

/** One window a reservation needs a slot in. */
export interface Slot {
  key: string;
  limit: number;
  windowMs: number;
}

/** A reservation: taken, or refused with the time until the first full window ends. */
export type Reservation = { ok: true } | { ok: false; resetInMs: number };

/** One process's counters. Expired windows are dropped as they are met and swept now and then. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private hits = 0;

  constructor(private readonly now: () => number = Date.now) {}

  private live(key: string) {
    const entry = this.windows.get(key);
    if (entry && entry.endsAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep() {
    const now = this.now();
    for (const [key, entry] of this.windows) if (entry.endsAt <= now) this.windows.delete(key);
  }

  private add(key: string, windowMs: number): WindowCount {
    if (++this.hits % 1000 === 0) this.sweep();
    let entry = this.live(key);
    if (!entry) {
      entry = { count: 0, endsAt: this.now() + windowMs };
      this.windows.set(key, entry);
    }
    entry.count += 1;
    return { count: entry.count, resetInMs: entry.endsAt - this.now() };
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    return this.add(key, windowMs);
  }

  async reserve(slots: readonly Slot[]): Promise<Reservation> {
    // No await from the check to the last increment: no other request runs in between.
    for (const slot of slots) {
      const entry = this.live(slot.key);
      if (entry && entry.count >= slot.limit) {
        return { ok: false, resetInMs: entry.endsAt - this.now() };
      }
    }
    for (const slot of slots) this.add(slot.key, slot.windowMs);
    return { ok: true };
  }

  async release(key: string): Promise<void> {
    const entry = this.live(key);
    if (entry && entry.count > 0) entry.count -= 1;
  }

  async peek(key: string): Promise<WindowCount> {
    const entry = this.live(key);
    return entry ? { count: entry.count, resetInMs: entry.endsAt - this.now() } : empty;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

const empty: WindowCount = { count: 0, resetInMs: 0 };

// INCR and the window's expiry in one atomic step, so concurrent processes never lose a hit.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

// Every window checked, then every one incremented, in one atomic step: concurrent requests on
// any number of processes never get more slots than the limit. ARGV: limit, window per key.
const RESERVE_SCRIPT = `
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count >= tonumber(ARGV[2 * i - 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then ttl = tonumber(ARGV[2 * i]) end
    return {0, ttl}
  end
end
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 or redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[2 * i]) end
end
return {1, 0}
`;

// DECR keeps the key's expiry; a key that is gone or at zero stays as it is.
const RELEASE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

interface CandorCommands {
  candorHit(key: string, windowMs: number): Promise<[number, number]>;
  candorReserve(...args: Array<string | number>): Promise<[number, number]>;
  candorRelease(key: string): Promise<number>;
}

/** Counters shared by every API process through Redis (REDIS_URL). */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(
    url: string | Redis,
    private readonly prefix: string,
    onError: (err: Error) => void = () => {
      // Dropped: with no listener at all, ioredis would print each one to the console.
    },
  ) {
    // A client that fails fast while Redis is away (lib/redis.ts): the request errors (503)
    // rather than hanging. Connection errors go to `onError` (the app's log), never the console.
    this.redis = typeof url === 'string' ? createRedisClient(url) : url;
    this.redis.on('error', onError);
    this.redis.defineCommand('candorHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    // No fixed key count: the first argument of each call says how many keys follow.
    this.redis.defineCommand('candorReserve', { lua: RESERVE_SCRIPT });
    this.redis.defineCommand('candorRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  }

  private get commands(): CandorCommands {
    return this.redis as unknown as CandorCommands;
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, ttl] = await this.commands.candorHit(
      this.prefix + key,
      Math.max(1, Math.round(windowMs)),
    );
    return { count, resetInMs: ttl };
  }

  async reserve(slots: readonly Slot[]): Promise<Reservation> {
    const [ok, ttl] = await this.commands.candorReserve(
      slots.length,
      ...slots.map((s) => this.prefix + s.key),
      ...slots.flatMap((s) => [s.limit, Math.max(1, Math.round(s.windowMs))]),
    );
    return ok === 1 ? { ok: true } : { ok: false, resetInMs: ttl };
  }

  async release(key: string): Promise<void> {
    await this.commands.candorRelease(this.prefix + key);
  }

  async peek(key: string): Promise<WindowCount> {
    const [[, count], [, ttl]] = (await this.redis
      .multi()
      .get(this.prefix + key)
      .pttl(this.prefix + key)
      .exec()) as [[unknown, string | null], [unknown, number]];
    if (count === null || ttl <= 0) return empty;
    return { count: Number(count), resetInMs: ttl };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Redis when a URL is given, else memory. */
export function createRateLimitStore(
  opts: {
    redisUrl?: string | undefined;
    prefix?: string;
    now?: () => number;
    onError?: (err: Error) => void;
  } = {},
): RateLimitStore {
  return opts.redisUrl
    ? new RedisRateLimitStore(opts.redisUrl, `${opts.prefix ?? 'candor:'}rl:`, opts.onError)
    : new MemoryRateLimitStore(opts.now);
}
