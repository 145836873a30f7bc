import {
  CodeSentSchema,
  DeleteAccountRequestSchema,
  ForgotPasswordRequestSchema,
  LoginRequestSchema,
  LogoutRequestSchema,
  MyDataSchema,
  RefreshRequestSchema,
  ResendOtpRequestSchema,
  SetPasswordRequestSchema,
  SignupRequestSchema,
  TokenPairSchema,
  UserSchema,
  VerifyRequestSchema,
  VerifyResponseSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequestSchema, errorResponses } from '../../lib/route-schemas.js';
import type { AccountsService } from './accounts.service.js';

const codeSentResponses = {
  202: CodeSentSchema,
  400: BadRequestSchema,
  ...errorResponses(429),
};
const tags = ['accounts'];

/** Signup, verification, passwords and sessions under /api (paths as the spec has them). */
export const accountsRoutes: FastifyPluginAsyncZod<{ service: AccountsService }> = async (
  app,
  { service },
) => {
  app.post(
    '/v1/user/create/',
    {
      schema: {
        tags,
        summary: 'Start a signup: sends a 6-digit code (same answer for a number with an account)',
        body: SignupRequestSchema,
        response: codeSentResponses,
      },
    },
    async (request, reply) =>
      reply.status(202).send(await service.signup(request.body, request.ip)),
  );

  app.post(
    '/v1/user/resend-otp/',
    {
      schema: {
        tags,
        summary: 'A new code for the same challenge (wrong tries still count)',
        body: ResendOtpRequestSchema,
        response: codeSentResponses,
      },
    },
    async (request, reply) =>
      reply.status(202).send(await service.resend(request.body, request.ip)),
  );

  app.post(
    '/v1/user/forgot-password/',
    {
      schema: {
        tags,
        summary: 'Send a password reset code to a verified account (same answer for any number)',
        body: ForgotPasswordRequestSchema,
        response: codeSentResponses,
      },
    },
    async (request, reply) =>
      reply.status(202).send(await service.forgotPassword(request.body, request.ip)),
  );

  app.post(
    '/v1/user/verify/',
    {
      schema: {
        tags,
        summary: 'Check a code: logs in, or returns a token to choose a password with',
        body: VerifyRequestSchema,
        response: { 200: VerifyResponseSchema, 400: BadRequestSchema },
      },
    },
    async (request) => service.verify(request.body, request.ip),
  );

  app.post(
    '/v1/user/set-password/',
    {
      schema: {
        tags,
        summary: 'Choose a password (after verify, or with a reset code); ends other sessions',
        body: SetPasswordRequestSchema,
        response: { 200: TokenPairSchema, 400: BadRequestSchema },
      },
    },
    async (request) => service.setPassword(request.body),
  );

  app.post(
    '/token/',
    {
      schema: {
        tags,
        summary: 'Log in with phone number and password',
        body: LoginRequestSchema,
        response: { 200: TokenPairSchema, 400: BadRequestSchema, ...errorResponses(429) },
      },
    },
    async (request) => service.login(request.body, request.ip),
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
