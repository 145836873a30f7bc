import {
  CREDENTIAL_HEADER,
  CredentialHeaderSchema,
  PanelCodeCheckRequestSchema,
  PanelCodeCheckSchema,
  PanelCompletionCountsSchema,
  PanelCompletionRequestSchema,
  PanelCompletionSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendCsv } from '../../lib/attachment.js';
import { GidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import { credentialOnly } from '../../lib/credential-only.js';
import type { PanelsService } from './panels.service.js';

/** The respondent's completion code for a research panel, under the survey's answers. */
export const panelCompletionRoutes: FastifyPluginAsyncZod<{ service: PanelsService }> = async (
  app,
  { service },
) => {
  app.post(
    '/v1/surveys/:gid/answers/panel-completion/',
    {
      onRequest: credentialOnly,
      schema: {
        tags: ['answers'],
        summary:
          'Complete the survey for a research panel: a signed completion code, issued once every ' +
          'question is answered (again for the same participant replays it): with the ' +
          "survey's answer credential in `Candor-Credential` and no session",
        security: [],
        params: GidParamsSchema,
        headers: z.looseObject({ [CREDENTIAL_HEADER]: CredentialHeaderSchema }),
        body: PanelCompletionRequestSchema,
        response: {
          200: PanelCompletionSchema,
          201: PanelCompletionSchema,
          ...errorResponses(400, 401, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const { status, body } = await service.complete(
        request.headers[CREDENTIAL_HEADER],
        request.params.gid,
        request.body,
      );
      return reply.status(status).send(body);
    },
  );
};

/** Completions per panel, their CSV and the check of a reported code: admins, under /v1/admin. */
export const panelAdminRoutes: FastifyPluginAsyncZod<{ service: PanelsService }> = async (
  app,
  { service },
) => {
  const tags = ['admin'];
  const errors = errorResponses(401, 403, 404);

  app.get(
    '/surveys/:gid/panel-completions/',
    {
      schema: {
        tags,
        summary: "A survey's completions per research panel",
        params: GidParamsSchema,
        response: { 200: PanelCompletionCountsSchema, ...errors },
      },
    },
    async (request) => service.counts(request.params.gid),
  );

  app.get(
    '/surveys/:gid/panel-completions.csv',
    {
      schema: {
        tags,
        summary:
          "A survey's panel completions as CSV: panel, completion code and time (no answers, no " +
          'participant ids). Audited',
        params: GidParamsSchema,
        response: { 200: z.string().describe('text/csv; charset=utf-8'), ...errors },
      },
    },
    async (request, reply) => {
      return sendCsv(reply, await service.exportCsv(request.params.gid, request.user!));
    },
  );

  app.post(
    '/surveys/:gid/panel-completions/check/',
    {
      schema: {
        tags,
        summary:
          'Check a completion code a panel reports: valid only if Candor issued it to that ' +
          'participant of that panel for this survey',
        params: GidParamsSchema,
        body: PanelCodeCheckRequestSchema,
        response: { 200: PanelCodeCheckSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.check(request.params.gid, request.body),
  );
};
