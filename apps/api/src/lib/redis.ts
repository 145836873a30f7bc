import { Redis } from 'ioredis';

export interface RedisClientOptions {
  /** Connect and command timeout: past it the command fails instead of waiting. */
  timeoutMs?: number;
  /** Called once when the connection is lost (not at every reconnect attempt). */
  onDown?: (err: Error) => void;
  /** Called when the connection is back after being lost. */
  onUp?: () => void;
}

/** Reconnect delay: 100 ms, doubling, never more than 2 s apart, forever. */
export function reconnectDelay(attempt: number): number {
  return Math.min(100 * 2 ** Math.min(attempt - 1, 5), 2000);
}

/**
 * A Redis client that fails fast while Redis is away: with no connection a command fails at once
 * (no offline queue), a command Redis does not answer fails after `timeoutMs`, and a command in
 * flight when the connection drops fails instead of waiting for a reconnect. The client keeps
 * reconnecting in the background, so requests succeed again as soon as Redis is back.
 */
export function createRedisClient(url: string, opts: RedisClientOptions = {}): Redis {
  const timeoutMs = opts.timeoutMs ?? 1000;
  const redis = new Redis(url, {
    // Only commands sent while the very first connection is being made wait for it (at most
    // the connect timeout: a failed attempt flushes them, maxRetriesPerRequest 0); from the
    // first success or failure on, a command with no connection fails at once.
    enableOfflineQueue: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: reconnectDelay,
  });
  const noQueue = () => {
    redis.options.enableOfflineQueue = false;
  };
  redis.once('ready', noQueue);
  redis.once('close', noQueue);
  let down = false;
  // Without a listener ioredis prints every failed attempt to the console.
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    opts.onDown?.(err);
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    opts.onUp?.();
  });
  return redis;
}

/** Whether Redis answers a PING now (false at once while disconnected; bounded by the timeout). */
export async function pingRedis(redis: Redis): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  try {
    await redis.ping(); // resolves 'PONG' or rejects
    return true;
  } catch {
    return false;
  }
}
