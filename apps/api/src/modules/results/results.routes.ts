import { ErrorBodySchema, QuestionResultsSchema } from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ResultsService } from './results.service.js';

// Any qid that names no answerable question is a 404 from the service, never a field error.
const QidParamsSchema = z.object({ qid: z.string() });

/**
 * Results of one question for members. Issue 5 adds suppression and stepped snapshots; until
 * then this serves the counts as folded, at most RESULTS_REFRESH_SECONDS old.
 */
export const resultsRoutes: FastifyPluginAsyncZod<{ service: ResultsService }> = async (
  app,
  { service },
) => {
  app.get(
    '/v1/questions/:qid/results/',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['results'],
        summary: "Everyone's answers to one question (verified members only)",
        security: [{ bearerAuth: [] }],
        params: QidParamsSchema,
        response: { 200: QuestionResultsSchema, 401: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (request) => service.forQid(request.params.qid),
  );
};
