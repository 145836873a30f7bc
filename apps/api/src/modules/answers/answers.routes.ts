import {
  type AnswerResponse,
  CREDENTIAL_HEADER,
  CredentialHeaderSchema,
  AnswerRequestSchema,
  AnswerResponseSchema,
  AttemptedQuestionListSchema,
  IdempotencyKeySchema,
  MirrorSchema,
  PageQuerySchema,
  QuestionResultsSchema,
  RatingRequestSchema,
  RatingResponseSchema,
  TimingIdSchema,
  TimingStartRequestSchema,
} from '@candor/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicOrigin } from '../../lib/origin.js';
import { QidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import { sendJson, serializeOnce } from '../../lib/serialize.js';
import { credentialOnly } from '../../lib/credential-only.js';
import type { CredentialsService } from '../credentials/credentials.service.js';
import type { AnswersService } from './answers.service.js';

// A timing id that names nothing is a 404 from the service, never a field error.
const TimingParamsSchema = z.object({ id: z.string() });
// Loose: the other headers (accept-encoding) stay on the request.
const AnswerHeadersSchema = z.looseObject({
  'idempotency-key': IdempotencyKeySchema.optional(),
  [CREDENTIAL_HEADER]: CredentialHeaderSchema,
});
const tags = ['answers'];
const security = [{ bearerAuth: [] }];
const errors = errorResponses(400, 401, 404, 409);
const AnswerHeadSchema = AnswerResponseSchema.omit({ results: true });

/**
 * An answer's reply as the contract's serializer would write it, with its `results` (the
 * question's published results, one object per snapshot, shared by every reply until the next)
 * checked and stringified once per snapshot instead of once per answer; the rest per reply.
 */
export function answerJson(body: AnswerResponse): string {
  const head = JSON.stringify(AnswerHeadSchema.parse(body));
  const results =
    body.results === null ? 'null' : serializeOnce(QuestionResultsSchema, body.results);
  return `${head.slice(0, -1)},"results":${results}}`;
}

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
      if (body.trim() === '') {
        done(null, {});
        return;
      }
      // In its callback form the parser answers through `done`: nothing to await.
      void json(request, body, done);
    },
  );
}

/** Answering, ratings, timings and the member's own answers under /api (paths as the spec). */
export const answersRoutes: FastifyPluginAsyncZod<{
  service: AnswersService;
  credentials: CredentialsService;
}> = async (app, { service, credentials }) => {
  app.post(
    '/v1/questions/:qid/answer/',
    {
      onRequest: credentialOnly,
      schema: {
        tags,
        summary:
          'Answer a question once (a retry with the same answer or key replays it): with the ' +
          "survey's anonymous credential in `Candor-Credential` and no session",
        security: [],
        params: QidParamsSchema,
        headers: AnswerHeadersSchema,
        body: AnswerRequestSchema,
        response: { 200: AnswerResponseSchema, 201: AnswerResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { status, body } = await credentials.redeem(
        request.params.qid,
        request.headers[CREDENTIAL_HEADER],
        request.body,
        request.headers['idempotency-key'],
      );
      return sendJson(reply.status(status), answerJson(body));
    },
  );

  app.get(
    '/v1/questions/my-attempted-questions/',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary:
          "The logged-in member's answers: always empty, the server holds none beside the " +
          'account (answers are anonymous; the device keeps its own list)',
        security,
        querystring: PageQuerySchema,
        response: { 200: AttemptedQuestionListSchema, ...errorResponses(400) },
      },
    },
    async (request) =>
      service.listAttempted(
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
        summary:
          "The mirror: always empty, the server holds none of the member's answers (the " +
          "device's own answers make the mirror)",
        security,
        response: { 200: MirrorSchema, ...errorResponses(401) },
      },
    },
    async () => service.mirror(),
  );

  app.post(
    '/v1/questions/:qid/rating/',
    {
      onRequest: credentialOnly,
      schema: {
        tags,
        summary:
          'Rate how interesting an answered question was, 0 to 10 (again to change it): with ' +
          'the credential that answered it and no session',
        security: [],
        params: QidParamsSchema,
        headers: z.looseObject({ [CREDENTIAL_HEADER]: CredentialHeaderSchema }),
        body: RatingRequestSchema,
        response: { 200: RatingResponseSchema, ...errors },
      },
    },
    async (request) =>
      credentials.rate(request.params.qid, request.headers[CREDENTIAL_HEADER], request.body.score),
  );

  await app.register(async (scope) => {
    acceptEmptyJson(scope);
    const timing = scope.withTypeProvider<ZodTypeProvider>();
    timing.post(
      '/v1/questions/answer-time-start/',
      {
        onRequest: timing.requireUser,
        schema: {
          tags,
          summary: 'Start timing an answer: an opaque id',
          security,
          body: TimingStartRequestSchema,
          response: { 201: TimingIdSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await service.startTiming(request.user!.uuid, 'answer', request.body.qid)),
    );

    timing.put(
      '/v1/questions/answer-time-end/:id',
      {
        onRequest: timing.requireUser,
        schema: {
          tags,
          summary:
            'End the timing: the id is checked, nothing is stored (an answer time goes with its credential)',
          security,
          params: TimingParamsSchema,
          response: { 200: TimingIdSchema, ...errors },
        },
      },
      async (request) => service.endTiming(request.user!.uuid, 'answer', request.params.id),
    );

    timing.post(
      '/v1/questions/graph-time-start/',
      {
        onRequest: timing.requireUser,
        schema: {
          tags,
          summary: 'Start timing a graph view: an opaque id',
          security,
          body: TimingStartRequestSchema,
          response: { 201: TimingIdSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await service.startTiming(request.user!.uuid, 'graph', request.body.qid)),
    );

    timing.put(
      '/v1/questions/graph-time-end/:id',
      {
        onRequest: timing.requireUser,
        schema: {
          tags,
          summary:
            'End the timing: the id is checked, nothing is stored (an answer time goes with its credential)',
          security,
          params: TimingParamsSchema,
          response: { 200: TimingIdSchema, ...errors },
        },
      },
      async (request) => service.endTiming(request.user!.uuid, 'graph', request.params.id),
    );
  });
};
