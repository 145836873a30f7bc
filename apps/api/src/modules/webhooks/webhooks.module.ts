// Webhooks as one module of the app: its repository, service and admin routes, and its sender
// on the leader (decision 032).
import type { AppModule, Core } from '../module.js';
import { createWebhooksRepository } from './webhooks.repository.js';
import { webhookRoutes } from './webhooks.routes.js';
import type { Resolve } from './webhooks.sender.js';
import { type WebhooksService, createWebhooksService } from './webhooks.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Webhooks: tests find and send events with `webhooks.tick()`. */
    webhooks: WebhooksService;
  }
}

export function webhooksModule(
  { app, config, db, keys, audit, clock }: Core,
  /** Tests say what host names resolve to; production asks the system's resolver. */
  resolve?: Resolve,
): AppModule {
  const service = createWebhooksService(createWebhooksRepository(db), {
    audit,
    sealKey: keys.webhookSeal,
    allowedPrivate: config.webhooks.allowedPrivate,
    publicUrl: config.publicUrl,
    intervalSeconds: config.webhooks.intervalSeconds,
    ...(resolve ? { resolve } : {}),
    onError: (err) =>
      app.log.warn({ err }, 'webhooks: finding or sending events failed; will retry'),
    clock,
  });
  app.decorate('webhooks', service);
  return {
    admin: async (admin) => {
      await admin.register(webhookRoutes, { service });
    },
    background: service,
  };
}
