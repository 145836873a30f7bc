import { Redis } from 'ioredis';

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
  /** Forgets the key (a successful login clears its number's failures). */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

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

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    if (++this.hits % 1000 === 0) this.sweep();
    let entry = this.live(key);
    if (!entry) {
      entry = { count: 0, endsAt: this.now() + windowMs };
      this.windows.set(key, entry);
    }
    entry.count += 1;
    return { count: entry.count, resetInMs: entry.endsAt - this.now() };
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

/** Counters shared by every API process through Redis (REDIS_URL). */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
    onError: (err: Error) => void = () => {},
  ) {
    // Fail fast instead of queueing requests while Redis is away: the request errors rather
    // than hanging. Connection errors go to `onError` (the app's log), never to the console.
    this.redis = new Redis(url, { maxRetriesPerRequest: 2 });
    this.redis.on('error', onError);
    this.redis.defineCommand('candorHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, ttl] = (await (
      this.redis as unknown as {
        candorHit(key: string, windowMs: number): Promise<[number, number]>;
      }
    ).candorHit(this.prefix + key, Math.max(1, Math.round(windowMs)))) as [number, number];
    return { count, resetInMs: ttl };
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
