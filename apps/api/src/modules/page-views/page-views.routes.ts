import {
  ErrorBodySchema,
  PageViewRequestSchema,
  ValidationErrorBodySchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
        response: { 204: z.null(), 400: ValidationErrorBodySchema, 429: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      await service.record(request.body, request.ip);
      return reply.status(204).send(null);
    },
  );
};
