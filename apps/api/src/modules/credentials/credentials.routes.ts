import {
  CREDENTIAL_HEADER,
  CredentialHeaderSchema,
  CredentialKeySchema,
  CredentialRequestSchema,
  CredentialResponseSchema,
  WithdrawalSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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

  app.post(
    '/v1/surveys/:gid/answers/withdrawal/',
    {
      schema: {
        tags: ['answers'],
        summary:
          "Withdraw every answer and rating given with the survey's answer credential (in " +
          '`Candor-Credential`, no session): they leave the results and the database, those ' +
          'not mixed yet included, and the credential answers nothing more. Again: the same reply',
        security: [{}],
        params: GidParamsSchema,
        headers: z.looseObject({ [CREDENTIAL_HEADER]: CredentialHeaderSchema }),
        response: { 200: WithdrawalSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => service.withdraw(request.params.gid, request.headers[CREDENTIAL_HEADER]),
  );
};
