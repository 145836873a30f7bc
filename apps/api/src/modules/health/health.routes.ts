import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pingDatabase } from '../../db/client.js';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness and database reachability (503 while the database is down)',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => {
      await pingDatabase(app.db);
      return { status: 'ok' as const };
    },
  );
};
