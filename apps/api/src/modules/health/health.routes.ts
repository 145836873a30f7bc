import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pingDatabase } from '../../db/client.js';
import { ServiceUnavailableError } from '../../lib/app-error.js';
import { pingRedis } from '../../lib/redis.js';

const Ok = z.object({ status: z.literal('ok') });

/**
 * Three checks, as load balancers and orchestrators expect them:
 * - `/health`: the process answers and the database too (503 while the database is down), as
 *   it always has; start scripts and tests wait on it.
 * - `/health/live`: the process answers, nothing else. Restarting a process whose database or
 *   Redis is away would not bring them back, so a liveness probe asks no dependency.
 * - `/health/ready`: every dependency a request may need answers: the database and, when
 *   REDIS_URL is set, Redis (503 naming the one that is down). A balancer sends traffic only
 *   to a ready process.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness and database reachability (503 while the database is down)',
        response: { 200: Ok },
      },
    },
    async () => {
      await pingDatabase(app.db);
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/health/live',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness: the process answers (no dependency is asked)',
        response: { 200: Ok },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['operations'],
        summary:
          'Readiness: the database and Redis (when REDIS_URL is set) answer; 503 with ' +
          'Retry-After naming the one that does not',
        response: {
          200: Ok.extend({ database: z.literal('ok'), redis: z.enum(['ok', 'not_configured']) }),
        },
      },
    },
    async () => {
      await pingDatabase(app.db);
      if (app.redis && !(await pingRedis(app.redis))) {
        throw new ServiceUnavailableError(
          2,
          undefined,
          'Not ready: Redis (shared rate limits) is unreachable.',
        );
      }
      return {
        status: 'ok' as const,
        database: 'ok' as const,
        redis: app.redis ? ('ok' as const) : ('not_configured' as const),
      };
    },
  );
};
