import {
  AdminGenreListSchema,
  AdminGenreSchema,
  AdminSurveyListSchema,
  AdminSurveySchema,
  DeleteSurveyRequestSchema,
  GenreInputSchema,
  QuestionInputSchema,
  QuestionOrderSchema,
  SurveyDetailSchema,
  SURVEY_FILE_MAX_BYTES,
  SurveyFileSchema,
  SurveyInputSchema,
  SurveyOrderSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicOrigin } from '../../lib/origin.js';
import { GidParamsSchema, QidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import type { SurveysService } from '../surveys/surveys.service.js';
import type { AuthoringService } from './authoring.service.js';

const tags = ['admin'];
const errors = errorResponses(400, 401, 403, 404, 409);

/** Survey authoring and genres for admins. Registered inside the admin-only part of /v1/admin. */
export const authoringRoutes: FastifyPluginAsyncZod<{
  service: AuthoringService;
  surveys: SurveysService;
}> = async (app, { service, surveys }) => {
  app.get(
    '/surveys/',
    {
      schema: {
        tags,
        summary: 'Every survey (drafts, scheduled, open, closed) in home-page order',
        response: { 200: AdminSurveyListSchema, ...errors },
      },
    },
    async () => service.list(),
  );

  app.post(
    '/surveys/',
    {
      schema: {
        tags,
        summary: 'Create a survey as a draft (listed only once published and released)',
        body: SurveyInputSchema,
        response: { 201: AdminSurveySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.create(request.body, request.user!, publicOrigin(request))),
  );

  app.get(
    '/surveys/:gid/',
    {
      schema: {
        tags,
        summary: 'One survey as admins edit it, with its questions and which choices have answers',
        params: GidParamsSchema,
        response: { 200: AdminSurveySchema, ...errors },
      },
    },
    async (request) => service.get(request.params.gid, publicOrigin(request)),
  );

  app.put(
    '/surveys/:gid/',
    {
      schema: {
        tags,
        summary: "Edit a survey's fields and genres",
        params: GidParamsSchema,
        body: SurveyInputSchema,
        response: { 200: AdminSurveySchema, ...errors },
      },
    },
    async (request) =>
      service.update(request.params.gid, request.body, request.user!, publicOrigin(request)),
  );

  app.post(
    '/surveys/:gid/publish/',
    {
      schema: {
        tags,
        summary: 'Publish a draft: listed from its release date (needs a question)',
        params: GidParamsSchema,
        response: { 200: AdminSurveySchema, ...errors },
      },
    },
    async (request) => service.publish(request.params.gid, request.user!, publicOrigin(request)),
  );

  app.post(
    '/surveys/:gid/close/',
    {
      schema: {
        tags,
        summary: 'Close: no more answers (sets closed_at); results visible to everyone',
        params: GidParamsSchema,
        response: { 200: AdminSurveySchema, ...errors },
      },
    },
    async (request) => service.close(request.params.gid, request.user!, publicOrigin(request)),
  );

  app.post(
    '/surveys/:gid/duplicate/',
    {
      schema: {
        tags,
        summary: "Copy a survey's content (never its answers) into a new draft",
        params: GidParamsSchema,
        response: { 201: AdminSurveySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.duplicate(request.params.gid, request.user!, publicOrigin(request))),
  );

  app.post(
    '/surveys/:gid/reopen/',
    {
      schema: {
        tags,
        summary: 'Reopen a closed survey: it takes answers again',
        params: GidParamsSchema,
        response: { 200: AdminSurveySchema, ...errors },
      },
    },
    async (request) => service.reopen(request.params.gid, request.user!, publicOrigin(request)),
  );

  app.get(
    '/surveys/:gid/content/',
    {
      schema: {
        tags,
        summary: "The survey's content as a file (candor.survey/1): never its answers",
        params: GidParamsSchema,
        response: { 200: SurveyFileSchema, ...errors },
      },
    },
    async (request) => service.exportFile(request.params.gid, publicOrigin(request)),
  );

  app.post(
    '/surveys/import/',
    {
      // A long survey's file is bigger than the API's usual 64 KiB limit.
      bodyLimit: SURVEY_FILE_MAX_BYTES,
      schema: {
        tags,
        summary: 'A new draft from a survey file (genres matched by name)',
        body: SurveyFileSchema,
        response: { 201: AdminSurveySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.importFile(request.body, request.user!, publicOrigin(request))),
  );

  app.post(
    '/sample-surveys/archive/',
    {
      schema: {
        tags,
        summary: 'Close and archive every sample survey (their sample answers stay, unseen)',
        response: { 200: AdminSurveyListSchema, ...errors },
      },
    },
    async (request) => service.archiveSamples(request.user!),
  );

  app.post(
    '/surveys/:gid/archive/',
    {
      schema: {
        tags,
        summary: 'Archive a closed survey: off the home page; its page and results stay',
        params: GidParamsSchema,
        response: { 200: AdminSurveySchema, ...errors },
      },
    },
    async (request) => service.archive(request.params.gid, request.user!, publicOrigin(request)),
  );

  app.post(
    '/surveys/:gid/unarchive/',
    {
      schema: {
        tags,
        summary: 'Take a survey out of the archive (it stays closed)',
        params: GidParamsSchema,
        response: { 200: AdminSurveySchema, ...errors },
      },
    },
    async (request) => service.unarchive(request.params.gid, request.user!, publicOrigin(request)),
  );

  app.delete(
    '/surveys/:gid/',
    {
      schema: {
        tags,
        summary:
          'Delete a draft and its questions (a closed survey needs POST …/delete/ with its name)',
        params: GidParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteSurvey(
        request.params.gid,
        undefined,
        request.user!,
        publicOrigin(request),
      );
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/surveys/:gid/delete/',
    {
      schema: {
        tags,
        summary:
          'Delete a closed survey with its answers and releases, or a draft; its exact name confirms it (409 INVALID_STATE while open)',
        params: GidParamsSchema,
        body: DeleteSurveyRequestSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteSurvey(
        request.params.gid,
        request.body.name,
        request.user!,
        publicOrigin(request),
      );
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/surveys/:gid/preview/',
    {
      schema: {
        tags,
        summary: 'A survey exactly as respondents will get it, whatever its state',
        params: GidParamsSchema,
        response: { 200: SurveyDetailSchema, ...errors },
      },
    },
    async (request) => surveys.preview(request.params.gid, publicOrigin(request)),
  );

  app.put(
    '/survey-order/',
    {
      schema: {
        tags,
        summary: "Order the home page's bricks: slots become 1, 2, 3... in the order given",
        body: SurveyOrderSchema,
        response: { 200: AdminSurveyListSchema, ...errors },
      },
    },
    async (request) => service.orderSurveys(request.body.gids, request.user!),
  );

  app.post(
    '/surveys/:gid/questions/',
    {
      schema: {
        tags,
        summary: 'Add a question at the end (closed ones get the leave-blank choice)',
        params: GidParamsSchema,
        body: QuestionInputSchema,
        response: { 201: AdminSurveySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await service.addQuestion(
            request.params.gid,
            request.body,
            request.user!,
            publicOrigin(request),
          ),
        ),
  );

  app.put(
    '/surveys/:gid/question-order/',
    {
      schema: {
        tags,
        summary: "Reorder a survey's questions (every qid, in the new order)",
        params: GidParamsSchema,
        body: QuestionOrderSchema,
        response: { 200: AdminSurveySchema, ...errors },
      },
    },
    async (request) =>
      service.orderQuestions(
        request.params.gid,
        request.body.qids,
        request.user!,
        publicOrigin(request),
      ),
  );

  app.put(
    '/questions/:qid/',
    {
      schema: {
        tags,
        summary:
          'Edit a question; refused (409 ANSWERS_EXIST) if it removes or renames an answered choice or changes an answered question’s type',
        params: QidParamsSchema,
        body: QuestionInputSchema,
        response: { 200: AdminSurveySchema, ...errors },
      },
    },
    async (request) =>
      service.updateQuestion(
        request.params.qid,
        request.body,
        request.user!,
        publicOrigin(request),
      ),
  );

  app.delete(
    '/questions/:qid/',
    {
      schema: {
        tags,
        summary: 'Delete a question nobody has answered (409 ANSWERS_EXIST otherwise)',
        params: QidParamsSchema,
        response: { 200: AdminSurveySchema, ...errors },
      },
    },
    async (request) =>
      service.deleteQuestion(request.params.qid, request.user!, publicOrigin(request)),
  );

  app.get(
    '/genres/',
    {
      schema: {
        tags,
        summary: 'Every genre, with how many surveys have it',
        response: { 200: AdminGenreListSchema, ...errors },
      },
    },
    async () => service.listGenres(),
  );

  app.post(
    '/genres/',
    {
      schema: {
        tags,
        summary: 'Add a genre',
        body: GenreInputSchema,
        response: { 201: AdminGenreSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.createGenre(request.body, request.user!)),
  );

  app.put(
    '/genres/:gid/',
    {
      schema: {
        tags,
        summary: 'Rename a genre',
        params: GidParamsSchema,
        body: GenreInputSchema,
        response: { 200: AdminGenreSchema, ...errors },
      },
    },
    async (request) => service.renameGenre(request.params.gid, request.body, request.user!),
  );

  app.delete(
    '/genres/:gid/',
    {
      schema: {
        tags,
        summary: 'Delete a genre (surveys that had it lose it)',
        params: GidParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteGenre(request.params.gid, request.user!);
      return reply.status(204).send(null);
    },
  );
};
