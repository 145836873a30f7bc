import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError, ServiceUnavailableError } from '../lib/app-error.js';
import {
  type RateLimitStore,
  RedisRateLimitStore,
  createRateLimitStore,
} from '../lib/rate-limit.js';
import { createRedisClient } from '../lib/redis.js';

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimitStore;
    /** The rate limits' Redis client, for the readiness check; null when REDIS_URL is unset. */
    redis: Redis | null;
  }
}

/** What a client is told to wait: about the longest pause between two reconnect attempts. */
const RETRY_AFTER_SECONDS = 2;

/**
 * The store with every failure that is not already an AppError (Redis away, or too slow to
 * answer) turned into 503 SERVICE_UNAVAILABLE with Retry-After, through the one error handler.
 * A Proxy rather than a class, so any method the store gains is covered too.
 */
export function unavailableOnFailure<T extends object>(store: T): T {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'close') return value;
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (err) {
          if (err instanceof AppError) throw err;
          throw new ServiceUnavailableError(RETRY_AFTER_SECONDS, err);
        }
      };
    },
  });
}

/** Shared rate-limit state: Redis when REDIS_URL is set, else this process's memory. */
async function rateLimit(app: FastifyInstance, opts: { store?: RateLimitStore }) {
  const { redisUrl, redisKeyPrefix, redisTimeoutMs } = app.config;
  let redis: Redis | null = null;
  let store: RateLimitStore;
  if (opts.store) {
    store = opts.store;
  } else if (redisUrl) {
    redis = createRedisClient(redisUrl, {
      timeoutMs: redisTimeoutMs,
      onDown: (err) =>
        app.log.warn(
          { err },
          'Redis unreachable: rate-limited requests answer 503 until it is back',
        ),
      onUp: () => app.log.info('Redis reachable again'),
    });
    store = new RedisRateLimitStore(redis, `${redisKeyPrefix}rl:`);
  } else {
    store = createRateLimitStore();
    // Texts, codes and logins count in the database (decision 022); what stays here would be
    // multiplied by the workers, and an operator should know.
    if (app.config.webConcurrency > 1) {
      app.log.warn(
        { workers: app.config.webConcurrency },
        'REDIS_URL is not set: page-view and public-read limits are per worker (texts, codes ' +
          'and logins are limited in the database for all of them)',
      );
    }
  }
  app.decorate('rateLimits', unavailableOnFailure(store));
  app.decorate('redis', redis);
  app.addHook('onClose', () => store.close());
}

export default fp(rateLimit, { name: 'rate-limit' });
