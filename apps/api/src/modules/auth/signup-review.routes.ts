import { PageQuerySchema, ReviewAccountListSchema, ReviewAccountSchema } from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicOrigin } from '../../lib/origin.js';
import { UuidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import type { SignupReviewService } from './signup-review.service.js';

const tags = ['moderation'];
const errors = errorResponses(401, 403, 404);

/** Signups the risk checks held back. Registered inside the moderator-only /v1/admin scope. */
export const signupReviewRoutes: FastifyPluginAsyncZod<{ service: SignupReviewService }> = async (
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

  app.post(
    '/signups/:uuid/approve/',
    {
      schema: {
        tags,
        summary: 'Approve: the account becomes active and its answers count',
        params: UuidParamsSchema,
        response: { 200: ReviewAccountSchema, ...errors },
      },
    },
    async (request) => service.review(request.params.uuid, 'approve', request.user!),
  );

  app.post(
    '/signups/:uuid/reject/',
    {
      schema: {
        tags,
        summary: 'Reject: the account can no longer log in; its sessions end',
        params: UuidParamsSchema,
        response: { 200: ReviewAccountSchema, ...errors },
      },
    },
    async (request) => service.review(request.params.uuid, 'reject', request.user!),
  );
};
