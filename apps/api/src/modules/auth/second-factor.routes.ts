import {
  PasskeyLoginOptionsSchema,
  PasskeyLoginRequestSchema,
  PasskeyOptionsRequestSchema,
  TokenPairSchema,
  TotpEnrolRequestSchema,
  TotpEnrolmentSchema,
  TotpLoginRequestSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BadRequestSchema, errorResponses } from '../../lib/route-schemas.js';
import type { SecondFactorService } from './second-factor.service.js';

const tags = ['accounts'];

/**
 * The second step of a staff login (decision 024), under /api beside /token/: each call takes
 * the challenge a right password answered with, never a bearer token.
 */
export const secondFactorRoutes: FastifyPluginAsyncZod<{ service: SecondFactorService }> = async (
  app,
  { service },
) => {
  app.post(
    '/token/totp/enrol/',
    {
      schema: {
        tags,
        summary: "First staff login: a new TOTP secret for the account's authenticator app",
        body: TotpEnrolRequestSchema,
        response: { 200: TotpEnrolmentSchema, ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => service.enrolTotp(request.body),
  );

  app.post(
    '/token/totp/',
    {
      schema: {
        tags,
        summary: "Staff login's second step: a code from the authenticator app (each code once)",
        body: TotpLoginRequestSchema,
        response: { 200: TokenPairSchema, 400: BadRequestSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => service.loginWithTotp(request.body),
  );

  app.post(
    '/token/passkey/options/',
    {
      schema: {
        tags,
        summary:
          "Staff login's second step with a passkey: what navigator.credentials.get is asked with",
        body: PasskeyOptionsRequestSchema,
        response: { 200: PasskeyLoginOptionsSchema, ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => service.passkeyLoginOptions(request.body),
  );

  app.post(
    '/token/passkey/',
    {
      schema: {
        tags,
        summary:
          "Staff login's second step: a passkey's answer to its challenge (each challenge once)",
        body: PasskeyLoginRequestSchema,
        response: { 200: TokenPairSchema, 400: BadRequestSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => service.loginWithPasskey(request.body),
  );
};
