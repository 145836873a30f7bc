import { QuestionResultsSchema, ResultsQuerySchema } from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { QidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import type { ResultsService } from './results.service.js';

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
        response: { 200: QuestionResultsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      service.forQid(request.params.qid, request.user?.uuid ?? null, request.query.breakdown),
  );
};
