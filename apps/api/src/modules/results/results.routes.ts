import { ErrorBodySchema, QuestionResultsSchema, ResultsQuerySchema } from '@candor/contracts';
import { ValidationErrorBodySchema } from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ResultsService } from './results.service.js';

// Any qid that names no answerable question is a 404 from the service, never a field error.
const QidParamsSchema = z.object({ qid: z.string() });

/** Published results of one question: after answering it, or for anyone once it closed. */
export const resultsRoutes: FastifyPluginAsyncZod<{ service: ResultsService }> = async (
  app,
  { service },
) => {
  app.get(
    '/v1/questions/:qid/results/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['results'],
        summary: "Everyone's answers to one question (verified members, privacy rules applied)",
        security: [{ bearerAuth: [] }],
        params: QidParamsSchema,
        querystring: ResultsQuerySchema,
        response: {
          200: QuestionResultsSchema,
          400: ValidationErrorBodySchema,
          401: ErrorBodySchema,
          403: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (request) =>
      service.forQid(request.params.qid, request.user?.uuid ?? null, request.query.breakdown),
  );
};
