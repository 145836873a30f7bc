import { QuestionResultsSchema, ResultsQuerySchema, SurveyResultsSchema } from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GidParamsSchema, QidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import type { ResultsService } from './results.service.js';

/**
 * Published results of one question, the same for every reader and read without the session
 * (the web app's "after answering" rule is the browser's), rate-limited per address.
 */
export const resultsRoutes: FastifyPluginAsyncZod<{
  service: ResultsService;
  /** Throws 429 past the visitors' per-address limit. */
  visitorReads: (ip: string) => Promise<void>;
}> = async (app, { service, visitorReads }) => {
  app.get(
    '/v1/questions/:qid/results/',
    {
      preHandler: async (request) => visitorReads(request.ip),
      schema: {
        tags: ['results'],
        summary: "Everyone's answers to one question (verified members, privacy rules applied)",
        params: QidParamsSchema,
        querystring: ResultsQuerySchema,
        response: { 200: QuestionResultsSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => service.forQid(request.params.qid, request.query.breakdown),
  );

  app.get(
    '/v1/surveys/:gid/results/',
    {
      // One read of the visitors' per-address limit, whoever asks: members read without the
      // session too, as they read each question's.
      preHandler: async (request) => visitorReads(request.ip),
      schema: {
        tags: ['results'],
        summary:
          "Everyone's answers to every question of a survey, in one read (privacy rules applied)",
        params: GidParamsSchema,
        response: { 200: SurveyResultsSchema, ...errorResponses(404, 429) },
      },
    },
    async (request) => service.forSurvey(request.params.gid),
  );
};
