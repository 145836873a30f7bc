import {
  PageViewRequestSchema,
  PageViewStatsQuerySchema,
  PageViewStatsSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import type { PageViewsService } from './page-views.service.js';

/** First-party page views; no authentication (an Authorization header is ignored). */
export const pageViewsRoutes: FastifyPluginAsyncZod<{ service: PageViewsService }> = async (
  app,
  { service },
) => {
  app.post(
    '/v1/page-views/',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Count one page view: route pattern and referring host (no IP, user or cookie)',
        body: PageViewRequestSchema,
        response: { 204: z.null(), ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      await service.record(request.body, request.ip);
      return reply.status(204).send(null);
    },
  );
};

/** Page views over time, for admins. Registered inside the admin-only part of /v1/admin. */
export const pageViewStatsRoutes: FastifyPluginAsyncZod<{ service: PageViewsService }> = async (
  app,
  { service },
) => {
  app.get(
    '/page-views/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Page views per day, route pattern and referring host over the last days',
        querystring: PageViewStatsQuerySchema,
        response: { 200: PageViewStatsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => service.stats(request.query.days),
  );
};
