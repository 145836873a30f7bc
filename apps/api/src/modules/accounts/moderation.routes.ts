import {
  ErrorBodySchema,
  PageQuerySchema,
  ReviewAccountListSchema,
  ReviewAccountSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicOrigin } from '../../lib/origin.js';
import type { AccountsService } from './accounts.service.js';

// Any uuid text that names no account under review is a 404 from the service, not a field error.
const UuidParamsSchema = z.object({ uuid: z.string() });
const tags = ['moderation'];
const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** Signups the risk checks held back. Registered inside the moderator-only /v1/admin scope. */
export const moderationRoutes: FastifyPluginAsyncZod<{ service: AccountsService }> = async (
  app,
  { service },
) => {
  app.get(
    '/signups/',
    {
      schema: {
        tags,
        summary: 'Accounts under review, oldest first',
        querystring: PageQuerySchema,
        response: { 200: ReviewAccountListSchema, ...errors },
      },
    },
    async (request) =>
      service.listUnderReview(request.query, `${publicOrigin(request)}/api/v1/admin/signups/`),
  );

  for (const decision of ['approve', 'reject'] as const) {
    app.post(
      `/signups/:uuid/${decision}/`,
      {
        schema: {
          tags,
          summary:
            decision === 'approve'
              ? 'Approve: the account becomes active and its answers count'
              : 'Reject: the account can no longer log in; its sessions end',
          params: UuidParamsSchema,
          response: { 200: ReviewAccountSchema, ...errors },
        },
      },
      async (request) => service.review(request.params.uuid, decision, request.user!),
    );
  }
};
