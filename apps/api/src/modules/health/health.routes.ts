import fs from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pingDatabase } from '../../db/client.js';
import { ServiceUnavailableError } from '../../lib/app-error.js';
import { pingRedis } from '../../lib/redis.js';

const Ok = z.object({ status: z.literal('ok') });

/**
 * Three checks, as load balancers and orchestrators expect them:
 * - `/health`: the process answers and the database too (503 while the database is down, or
 *   the data disk is nearly full); start scripts and tests wait on it.
 * - `/health/live`: the process answers, nothing else. Restarting a process whose database or
 *   Redis is away would not bring them back, so a liveness probe asks no dependency.
 * - `/health/ready`: every dependency a request may need answers: the database and, when
 *   REDIS_URL is set, Redis (503 naming the one that is down), with room on the data disk. A
 *   balancer sends traffic only
 *   to a ready process.
 */
export const healthRoutes: FastifyPluginAsyncZod<{
  /** DATA_DIR: the embedded database, uploads and the SMS outbox live on its disk. */
  dataDir: string;
  /** MIN_FREE_DISK_MB; 0: not checked. */
  minFreeDiskMb: number;
}> = async (app, { dataDir, minFreeDiskMb }) => {
  /**
   * 503 while the data directory's disk has less than the minimum free: writes (an answer, a
   * signup, the embedded database's log) are about to fail, so the process is not healthy, even
   * though it and its database still answer a read. (A PostgreSQL on another machine has its own
   * disk, which this cannot see: watch it there.)
   */
  async function diskRoom(): Promise<void> {
    if (minFreeDiskMb <= 0) return;
    const disk = await fs.promises.statfs(dataDir);
    const freeMb = Math.floor((disk.bavail * disk.bsize) / 1_048_576);
    if (freeMb < minFreeDiskMb) {
      throw new ServiceUnavailableError(
        30,
        undefined,
        `Not healthy: the data disk is nearly full (${freeMb} MB free, ${minFreeDiskMb} MB needed).`,
      );
    }
  }

  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary:
          'Liveness, database reachability and room on the data disk (503 while the database ' +
          'is down or the disk is nearly full)',
        response: { 200: Ok },
      },
    },
    async () => {
      await pingDatabase(app.db);
      await diskRoom();
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
      await diskRoom();
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
