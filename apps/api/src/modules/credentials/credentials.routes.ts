import {
  CredentialKeySchema,
  CredentialRequestSchema,
  CredentialResponseSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import type { CredentialsService } from './credentials.service.js';

const tags = ['credentials'];

/** Survey keys and the issuance of anonymous answer credentials (decision 020). */
export const credentialsRoutes: FastifyPluginAsyncZod<{ service: CredentialsService }> = async (
  app,
  { service },
) => {
  app.get(
    '/v1/surveys/:gid/credential-key/',
    {
      schema: {
        tags,
        summary:
          "The survey's blind-signature public key (RFC 9474), the same for everyone: devices " +
          'fetch it without a session and blind their credential request to it',
        params: GidParamsSchema,
        response: { 200: CredentialKeySchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => service.publicKey(request.params.gid),
  );

  app.post(
    '/v1/credentials/',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary:
          'Blind-sign one answer credential per open survey for a counting member, once per ' +
          'survey for good (the same blinded message again gets the same signature)',
        security: [{ bearerAuth: [] }],
        body: CredentialRequestSchema,
        response: { 200: CredentialResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => service.issue(request.user!.uuid, request.body),
  );
};
