import {
  LoginRequestSchema,
  LoginResponseSchema,
  LogoutRequestSchema,
  RefreshRequestSchema,
  TokenPairSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequestSchema, errorResponses } from '../../lib/route-schemas.js';
import { DEVICE_HEADER } from './device-tokens.js';
import type { SessionsService } from './sessions.service.js';

const tags = ['accounts'];

/** Login, token refresh and logout under /api (paths as the spec has them). */
export const sessionsRoutes: FastifyPluginAsyncZod<{ service: SessionsService }> = async (
  app,
  { service },
) => {
  app.post(
    '/token/',
    {
      schema: {
        tags,
        summary: "Log in with phone number and password: a member's tokens, or staff's second step",
        body: LoginRequestSchema,
        response: { 200: LoginResponseSchema, 400: BadRequestSchema, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const { device, ...signedIn } = await service.login(
        request.body,
        request.ip,
        request.headers[DEVICE_HEADER],
      );
      // A header, not a body field: the pair's schema is the contract's, shared by every route
      // that logs in; the web app keeps it and sends it back on login and recovery.
      void reply.header(DEVICE_HEADER, device);
      return signedIn;
    },
  );

  app.post(
    '/token/refresh/',
    {
      schema: {
        tags,
        summary: 'Exchange a refresh token for a new pair (rotated on every use)',
        body: RefreshRequestSchema,
        response: { 200: TokenPairSchema, ...errorResponses(401) },
      },
    },
    async (request) => service.refresh(request.body.refresh),
  );

  app.post(
    '/v1/user/logout/',
    {
      schema: {
        tags,
        summary: 'End the session of this refresh token (idempotent)',
        body: LogoutRequestSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.logout(request.body.refresh);
      return reply.status(204).send(null);
    },
  );
};
