import { PageQuerySchema, SurveyDetailSchema, SurveyListSchema } from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicOrigin } from '../../lib/origin.js';
import { GidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import { sendJsonOnce } from '../../lib/serialize.js';
import type { SurveysService } from './surveys.service.js';

export const surveysRoutes: FastifyPluginAsyncZod<{ service: SurveysService }> = async (
  app,
  { service },
) => {
  app.get(
    '/v1/surveys/open-closed-random-video-surveys',
    {
      schema: {
        tags: ['surveys'],
        summary: 'Listed surveys in slot order, each with its questions',
        querystring: PageQuerySchema,
        response: { 200: SurveyListSchema },
      },
    },
    async (request, reply) => {
      const url = `${publicOrigin(request)}/api/v1/surveys/open-closed-random-video-surveys`;
      const list = await service.list(request.query, url);
      return sendJsonOnce(reply, SurveyListSchema, list);
    },
  );

  app.get(
    '/v1/surveys/:gid/video-survey',
    {
      schema: {
        tags: ['surveys'],
        summary: 'One survey with its questions',
        params: GidParamsSchema,
        response: { 200: SurveyDetailSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const survey = await service.getByGid(request.params.gid, publicOrigin(request));
      return sendJsonOnce(reply, SurveyDetailSchema, survey);
    },
  );
};
