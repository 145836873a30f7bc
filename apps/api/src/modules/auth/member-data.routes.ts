import { DeleteAccountRequestSchema, MyDataSchema, UserSchema } from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequestSchema, errorResponses } from '../../lib/route-schemas.js';
import type { MemberDataService } from './member-data.service.js';

const tags = ['accounts'];

/** The logged-in member's own record, export and erasure under /api/v1/user/. */
export const memberDataRoutes: FastifyPluginAsyncZod<{ service: MemberDataService }> = async (
  app,
  { service },
) => {
  app.get(
    '/v1/user/detail/',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: 'The logged-in user',
        security: [{ bearerAuth: [] }],
        response: { 200: UserSchema, ...errorResponses(401) },
      },
    },
    async (request) => service.me(request.user!.uuid),
  );

  app.get(
    '/v1/user/export/',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: 'Everything stored about the logged-in member, as JSON',
        security: [{ bearerAuth: [] }],
        response: { 200: MyDataSchema, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      reply.header('content-disposition', 'attachment; filename="candor-my-data.json"');
      return service.exportMine(request.user!.uuid);
    },
  );

  app.post(
    '/v1/user/delete/',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: 'Erase the account, its sessions and its answers (they leave all future results)',
        security: [{ bearerAuth: [] }],
        body: DeleteAccountRequestSchema,
        response: {
          204: z.null(),
          400: BadRequestSchema,
          ...errorResponses(401, 429),
        },
      },
    },
    async (request, reply) => {
      await service.eraseMine(request.user!.uuid, request.body.password);
      return reply.status(204).send(null);
    },
  );
};
