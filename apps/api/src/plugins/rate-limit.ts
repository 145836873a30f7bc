import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type RateLimitStore, createRateLimitStore } from '../lib/rate-limit.js';

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimitStore;
  }
}

/** Shared rate-limit state: Redis when REDIS_URL is set, else this process's memory. */
async function rateLimit(app: FastifyInstance, opts: { store?: RateLimitStore }) {
  const store =
    opts.store ??
    createRateLimitStore({
      redisUrl: app.config.redisUrl,
      prefix: app.config.redisKeyPrefix,
      onError: (err) => app.log.warn({ err }, 'rate-limit store (Redis) error'),
    });
  app.decorate('rateLimits', store);
  app.addHook('onClose', () => store.close());
}

export default fp(rateLimit, { name: 'rate-limit' });
