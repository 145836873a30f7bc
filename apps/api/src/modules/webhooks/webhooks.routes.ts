import {
  CreatedWebhookSchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookInputSchema,
  WebhookListSchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import type { WebhooksService } from './webhooks.service.js';

const IdParamsSchema = z.object({ id: z.string() });
const DeliveryParamsSchema = z.object({ id: z.string(), delivery: z.string() });

/** Admins' webhooks and their delivery log. Registered inside the admin-only part. */
export const webhookRoutes: FastifyPluginAsyncZod<{ service: WebhooksService }> = async (
  app,
  { service },
) => {
  const tags = ['admin'];
  app.get(
    '/webhooks/',
    {
      schema: {
        tags,
        summary: 'Webhooks, newest first, each with its latest delivery (never their secrets)',
        response: { 200: WebhookListSchema, ...errorResponses(401, 403) },
      },
    },
    async () => service.list(),
  );

  app.post(
    '/webhooks/',
    {
      schema: {
        tags,
        summary:
          'Add a webhook: a public address told of survey events, signed with a secret shown once. Audited',
        body: WebhookInputSchema,
        response: { 201: CreatedWebhookSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.body, request.user!)),
  );

  app.delete(
    '/webhooks/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a webhook and its delivery log: nothing more is sent. Audited',
        params: IdParamsSchema,
        response: { 204: z.null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.remove(request.params.id, request.user!);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/webhooks/:id/deliveries/',
    {
      schema: {
        tags,
        summary: "A webhook's latest 50 deliveries, newest first, with what each sent",
        params: IdParamsSchema,
        response: { 200: WebhookDeliveryListSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.deliveries(request.params.id),
  );

  app.post(
    '/webhooks/:id/ping/',
    {
      schema: {
        tags,
        summary: 'Send a signed test event now and log it. Audited',
        params: IdParamsSchema,
        response: { 200: WebhookDeliverySchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.ping(request.params.id, request.user!),
  );

  app.post(
    '/webhooks/:id/deliveries/:delivery/redeliver/',
    {
      schema: {
        tags,
        summary: 'Send a logged delivery again now, its retries starting over. Audited',
        params: DeliveryParamsSchema,
        response: { 200: WebhookDeliverySchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => service.redeliver(request.params.id, request.params.delivery, request.user!),
  );
};
