import {
  OperatorQuestionResultsSchema,
  ResultsQuerySchema,
  SurveyCodebookSchema,
  SurveyExportSchema,
  SurveyReachSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { asAttachment, sendCsv } from '../../lib/attachment.js';
import { GidParamsSchema, QidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import type { OperatorResultsService } from './operator-results.service.js';

const tags = ['admin'];
const errors = errorResponses(401, 403, 404);

/** Results and exports for admins. Registered inside the admin-only part of /v1/admin. */
export const operatorResultsRoutes: FastifyPluginAsyncZod<{
  service: OperatorResultsService;
}> = async (app, { service }) => {
  app.get(
    '/questions/:qid/results/',
    {
      schema: {
        tags,
        summary:
          "A question's published results, as members see them (the privacy rules apply to " +
          'staff too: suppressed numbers stay hidden), with answer timings and ratings',
        params: QidParamsSchema,
        querystring: ResultsQuerySchema,
        response: { 200: OperatorQuestionResultsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.forQuestion(request.params.qid, request.query.breakdown),
  );

  app.get(
    '/surveys/:gid/reach/',
    {
      schema: {
        tags,
        summary:
          'How far people got through a survey: about how many answered each question (an ' +
          'honesty-gap pair is one place), as a share of the first, and a typical time for the whole survey. From the published numbers only',
        params: GidParamsSchema,
        response: { 200: SurveyReachSchema, ...errors },
      },
    },
    async (request) => service.reach(request.params.gid),
  );

  app.get(
    '/surveys/:gid/export.json',
    {
      schema: {
        tags,
        summary:
          "Export a survey's published results (every question, overall and by gender, age and " +
          'country; suppressed numbers stay hidden). Audited',
        params: GidParamsSchema,
        response: { 200: SurveyExportSchema, ...errors },
      },
    },
    async (request, reply) => {
      return asAttachment(reply, await service.exportJson(request.params.gid, request.user!));
    },
  );

  app.get(
    '/surveys/:gid/codebook.json',
    {
      schema: {
        tags,
        summary:
          "What a survey's exports mean: questions, choice codes, types, the privacy parameters, how each interval is made, every CSV column",
        params: GidParamsSchema,
        response: { 200: SurveyCodebookSchema, ...errors },
      },
    },
    async (request, reply) => {
      return asAttachment(reply, await service.codebook(request.params.gid));
    },
  );

  app.get(
    '/surveys/:gid/export.csv',
    {
      schema: {
        tags,
        summary:
          "Export a survey's published results as CSV (one row per choice and group; suppressed " +
          'cells empty; formula-like cells neutralised). Audited',
        params: GidParamsSchema,
        // Sent as text/csv: Fastify serializes only JSON content types, so the text goes as is.
        response: { 200: z.string().describe('text/csv; charset=utf-8'), ...errors },
      },
    },
    async (request, reply) => {
      return sendCsv(reply, await service.exportCsv(request.params.gid, request.user!));
    },
  );
};
