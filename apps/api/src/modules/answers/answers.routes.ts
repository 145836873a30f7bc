import {
  AnswerRequestSchema,
  AnswerResponseSchema,
  AttemptedQuestionListSchema,
  ErrorBodySchema,
  IdempotencyKeySchema,
  MirrorSchema,
  PageQuerySchema,
  RatingRequestSchema,
  RatingResponseSchema,
  TimingIdSchema,
  TimingStartRequestSchema,
  ValidationErrorBodySchema,
} from '@candor/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicOrigin } from '../../lib/origin.js';
import type { AnswersService } from './answers.service.js';

// Any qid or timing id that names nothing is a 404 from the service, never a field error.
const QidParamsSchema = z.object({ qid: z.string() });
const TimingParamsSchema = z.object({ id: z.string() });
// Loose: the other headers (authorization, accept-encoding) stay on the request.
const AnswerHeadersSchema = z.looseObject({ 'idempotency-key': IdempotencyKeySchema.optional() });
const tags = ['answers'];
const security = [{ bearerAuth: [] }];
const errors = {
  400: ValidationErrorBodySchema,
  401: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};

/**
 * The end calls need no body; clients send none, `{}` or an empty JSON body. This scope reads an
 * empty JSON body as `{}` instead of refusing it.
 */
function acceptEmptyJson(app: FastifyInstance) {
  // Fastify's own parser (it refuses __proto__ and constructor.prototype keys) for the rest.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request, body: string, done) => {
      if (body.trim() === '') return done(null, {});
      json(request, body, done);
    },
  );
}

/** Answering, ratings, timings and the member's own answers under /api (paths as the spec). */
export const answersRoutes: FastifyPluginAsyncZod<{ service: AnswersService }> = async (
  app,
  { service },
) => {
  app.post(
    '/v1/questions/:qid/answer/',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: 'Answer a question once (a retry with the same answer or key replays it)',
        security,
        params: QidParamsSchema,
        headers: AnswerHeadersSchema,
        body: AnswerRequestSchema,
        response: { 200: AnswerResponseSchema, 201: AnswerResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { status, body } = await service.submit(
        request.user!.uuid,
        request.params.qid,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.status(status).send(body);
    },
  );

  app.get(
    '/v1/questions/my-attempted-questions/',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "The logged-in member's answers, newest first",
        security,
        querystring: PageQuerySchema,
        response: { 200: AttemptedQuestionListSchema, 400: ValidationErrorBodySchema },
      },
    },
    async (request) =>
      service.listAttempted(
        request.user!.uuid,
        request.query,
        `${publicOrigin(request)}/api/v1/questions/my-attempted-questions/`,
      ),
  );

  app.get(
    '/v1/user/mirror/',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "The mirror: the member's answers against everyone's, and their ratings",
        security,
        response: { 200: MirrorSchema, 401: ErrorBodySchema },
      },
    },
    async (request) => service.mirror(request.user!.uuid),
  );

  app.post(
    '/v1/questions/:qid/rating/',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: 'Rate how interesting an answered question was, 0 to 10 (again to change it)',
        security,
        params: QidParamsSchema,
        body: RatingRequestSchema,
        response: { 200: RatingResponseSchema, ...errors },
      },
    },
    async (request) => service.rate(request.user!.uuid, request.params.qid, request.body.score),
  );

  await app.register(async (scope) => {
    acceptEmptyJson(scope);
    const timing = scope.withTypeProvider<ZodTypeProvider>();
    for (const kind of ['answer', 'graph'] as const) {
      timing.post(
        `/v1/questions/${kind}-time-start/`,
        {
          onRequest: timing.requireUser,
          schema: {
            tags,
            summary: `Start timing ${kind === 'answer' ? 'an answer' : 'a graph view'}: an opaque id`,
            security,
            body: TimingStartRequestSchema,
            response: { 201: TimingIdSchema, ...errors },
          },
        },
        async (request, reply) =>
          reply
            .status(201)
            .send(await service.startTiming(request.user!.uuid, kind, request.body.qid)),
      );

      timing.put(
        `/v1/questions/${kind}-time-end/:id`,
        {
          onRequest: timing.requireUser,
          schema: {
            tags,
            summary: 'End the timing: only its duration is stored, once',
            security,
            params: TimingParamsSchema,
            response: { 200: TimingIdSchema, ...errors },
          },
        },
        async (request) => service.endTiming(request.user!.uuid, kind, request.params.id),
      );
    }
  });
};
