import {
  PasskeyListSchema,
  PasskeyRegisterRequestSchema,
  PasskeyRegistrationOptionsSchema,
  PasskeySchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BadRequestSchema,
  PasskeyIdParamsSchema,
  errorResponses,
} from '../../lib/route-schemas.js';
import type { SecondFactorService } from './second-factor.service.js';

const tags = ['staff'];
const errors = errorResponses(401, 403);

/**
 * A staff member's own passkeys (decision 024), in the staff scope (moderators and admins, a
 * session opened with the second factor): list, add (options, then the new credential), remove.
 */
export const passkeysRoutes: FastifyPluginAsyncZod<{ service: SecondFactorService }> = async (
  app,
  { service },
) => {
  app.get(
    '/passkeys/',
    {
      schema: {
        tags,
        summary: 'Your passkeys (the second factor of your staff login)',
        response: { 200: PasskeyListSchema, ...errors },
      },
    },
    async (request) => service.listPasskeys(request.user!),
  );

  app.post(
    '/passkeys/options/',
    {
      schema: {
        tags,
        summary: 'Adding a passkey: what navigator.credentials.create is asked with',
        response: { 200: PasskeyRegistrationOptionsSchema, ...errors, ...errorResponses(409) },
      },
    },
    async (request) => service.passkeyRegistrationOptions(request.user!),
  );

  app.post(
    '/passkeys/',
    {
      schema: {
        tags,
        summary: 'Add a passkey: the new credential, answering the options just asked for',
        body: PasskeyRegisterRequestSchema,
        response: {
          201: PasskeySchema,
          400: BadRequestSchema,
          ...errors,
          ...errorResponses(409),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.addPasskey(request.user!, request.body)),
  );

  app.delete(
    '/passkeys/:id/',
    {
      schema: {
        tags,
        summary: 'Remove one of your passkeys (one second factor always stays)',
        params: PasskeyIdParamsSchema,
        response: { 204: z.null(), ...errors, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await service.removePasskey(request.user!, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
