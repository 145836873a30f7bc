import {
  CreatedResearchTokenSchema,
  ResearchSurveyListSchema,
  ResearchTokenInputSchema,
  ResearchTokenListSchema,
  ResearchTokenSchema,
  SurveyCodebookSchema,
  SurveyExportSchema,
  SurveyReachSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { asAttachment, sendCsv } from '../../lib/attachment.js';
import { GidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import type { UsableToken } from './research.repository.js';
import type { ResearchService } from './research.service.js';

const IdParamsSchema = z.object({ id: z.string() });

/** Admins make, list and revoke researchers' tokens. Registered inside the admin-only part. */
export const researchTokenRoutes: FastifyPluginAsyncZod<{ service: ResearchService }> = async (
  app,
  { service },
) => {
  const tags = ['admin'];
  app.get(
    '/research-tokens/',
    {
      schema: {
        tags,
        summary: "Researchers' API tokens, newest first (never the tokens themselves)",
        response: { 200: ResearchTokenListSchema, ...errorResponses(401, 403) },
      },
    },
    async () => service.list(),
  );

  app.post(
    '/research-tokens/',
    {
      schema: {
        tags,
        summary:
          'Make a read-only token for published results and exports (shown once, kept hashed). Audited',
        body: ResearchTokenInputSchema,
        response: { 201: CreatedResearchTokenSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.body, request.user!)),
  );

  app.post(
    '/research-tokens/:id/revoke/',
    {
      schema: {
        tags,
        summary: 'Revoke a token: its next request is refused. Audited',
        params: IdParamsSchema,
        response: { 200: ResearchTokenSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => service.revoke(request.params.id, request.user!),
  );
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The researcher token of a /v1/research request (set by its hook). */
    researchToken: UsableToken | null;
  }
}

/**
 * What a researcher's token reads, under /v1/research: the published surveys in its scope and
 * their exports. Read-only; every request is checked against the token's row (a revocation
 * refuses the very next one) and audited.
 */
export const researchRoutes: FastifyPluginAsyncZod<{
  service: ResearchService;
  /** Per client address, before the token is looked up (429 past it). */
  perIp: (ip: string) => Promise<void>;
  /** Per token, once it is known (a busy script cannot flood the database or the audit log). */
  perToken: (tokenGid: string) => Promise<void>;
}> = async (app, { service, perIp, perToken }) => {
  const tags = ['research'];
  const errors = errorResponses(401, 404, 429);
  const security = [{ researchToken: [] }];
  app.decorateRequest('researchToken', null);
  app.addHook('onRequest', async (request) => {
    await perIp(request.ip);
    request.researchToken = await service.authenticate(request.headers.authorization);
    await perToken(request.researchToken.gid);
  });

  app.get(
    '/surveys/:gid/codebook.json',
    {
      schema: {
        tags,
        security,
        summary:
          "What a survey's exports mean: questions, choice codes, the privacy parameters, how each interval is made, every CSV column. Audited",
        params: GidParamsSchema,
        response: { 200: SurveyCodebookSchema, ...errors },
      },
    },
    async (request, reply) => {
      return asAttachment(
        reply,
        await service.codebook(request.researchToken!, request.params.gid),
      );
    },
  );

  app.get(
    '/surveys/:gid/reach/',
    {
      schema: {
        tags,
        security,
        summary:
          'How far people got through a survey: about how many answered each question, as a share of the first, from the published numbers. Audited',
        params: GidParamsSchema,
        response: { 200: SurveyReachSchema, ...errors },
      },
    },
    async (request) => service.reach(request.researchToken!, request.params.gid),
  );

  app.get(
    '/surveys/',
    {
      schema: {
        tags,
        security,
        summary: 'The published surveys this token may read. Audited',
        response: { 200: ResearchSurveyListSchema, ...errors },
      },
    },
    async (request) => service.surveys(request.researchToken!),
  );

  app.get(
    '/surveys/:gid/export.json',
    {
      schema: {
        tags,
        security,
        summary:
          "A survey's published results as JSON (as staff export them: suppressed numbers stay hidden). Audited",
        params: GidParamsSchema,
        response: { 200: SurveyExportSchema, ...errors },
      },
    },
    async (request, reply) => {
      return asAttachment(
        reply,
        await service.exportJson(request.researchToken!, request.params.gid),
      );
    },
  );

  app.get(
    '/surveys/:gid/export.csv',
    {
      schema: {
        tags,
        security,
        summary: "A survey's published results as CSV (as staff export them). Audited",
        params: GidParamsSchema,
        response: { 200: z.string().describe('text/csv; charset=utf-8'), ...errors },
      },
    },
    async (request, reply) => {
      return sendCsv(reply, await service.exportCsv(request.researchToken!, request.params.gid));
    },
  );
};
