import {
  CodeSentSchema,
  ForgotPasswordRequestSchema,
  ResendOtpRequestSchema,
  SetPasswordRequestSchema,
  SignupRequestSchema,
  LoginResponseSchema,
  VerifyRequestSchema,
  VerifyResponseSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BadRequestSchema, errorResponses } from '../../lib/route-schemas.js';
import { DEVICE_HEADER } from './device-tokens.js';
import type { SignupService } from './signup.service.js';

const codeSentResponses = {
  202: CodeSentSchema,
  400: BadRequestSchema,
  ...errorResponses(429),
};
const tags = ['accounts'];

/** Signup, verification and passwords under /api (paths as the spec has them). */
export const signupRoutes: FastifyPluginAsyncZod<{ service: SignupService }> = async (
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
      reply
        .status(202)
        .send(await service.signup(request.body, request.ip, request.headers[DEVICE_HEADER])),
  );

  app.post(
    '/v1/user/resend-otp/',
    {
      schema: {
        tags,
        summary: 'A new code for the number (its wrong tries start again)',
        body: ResendOtpRequestSchema,
        response: codeSentResponses,
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(await service.resend(request.body, request.ip, request.headers[DEVICE_HEADER])),
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
      reply
        .status(202)
        .send(
          await service.forgotPassword(request.body, request.ip, request.headers[DEVICE_HEADER]),
        ),
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
    async (request) => service.verify(request.body, request.ip, request.headers[DEVICE_HEADER]),
  );

  app.post(
    '/v1/user/set-password/',
    {
      schema: {
        tags,
        summary:
          'Choose a password (after verify, or with a reset code); ends other sessions; staff go on to their second factor',
        body: SetPasswordRequestSchema,
        response: { 200: LoginResponseSchema, 400: BadRequestSchema },
      },
    },
    async (request) =>
      service.setPassword(request.body, request.ip, request.headers[DEVICE_HEADER]),
  );
};
