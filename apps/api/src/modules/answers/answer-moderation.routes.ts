import { PageQuerySchema, PendingAnswerListSchema } from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicOrigin } from '../../lib/origin.js';
import { errorResponses } from '../../lib/route-schemas.js';
import type { AnswersService } from './answers.service.js';

const ListQuerySchema = PageQuerySchema.extend({
  status: z
    .enum(['pending', 'approved', 'hidden'], { error: 'Choose pending, approved or hidden.' })
    .default('pending'),
});
// Any id that names no written answer is a 404 from the service, not a field error.
const IdParamsSchema = z.object({
  id: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 53),
});
const tags = ['moderation'];
const errors = errorResponses(400, 401, 403, 404);

/** The open-answer moderation queue. Registered inside the moderator-only /v1/admin scope. */
export const answerModerationRoutes: FastifyPluginAsyncZod<{ service: AnswersService }> = async (
  app,
  { service },
) => {
  app.get(
    '/answers/',
    {
      schema: {
        tags,
        summary: 'Written answers by moderation status (pending first in line), oldest first',
        querystring: ListQuerySchema,
        response: { 200: PendingAnswerListSchema, ...errors },
      },
    },
    async (request) => {
      const { status, ...page } = request.query;
      const url = new URL(`${publicOrigin(request)}/api/v1/admin/answers/`);
      url.searchParams.set('status', status);
      return service.listForModeration(status, page, url.toString());
    },
  );

  app.post(
    '/answers/:id/approve/',
    {
      schema: {
        tags,
        summary: 'Approve: the answer may be shown as a sample answer',
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.moderate(request.params.id, 'approve', request.user!);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/answers/:id/hide/',
    {
      schema: {
        tags,
        summary: 'Hide: the answer is never shown (it still counts as written)',
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.moderate(request.params.id, 'hide', request.user!);
      return reply.status(204).send(null);
    },
  );
};
