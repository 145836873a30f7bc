import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import { deriveKeys } from './lib/keys.js';
import type { RateLimitStore } from './lib/rate-limit.js';
import type { Secrets } from './lib/secrets.js';
import { createTokenService } from './lib/tokens.js';
import { createAccountsRepository } from './modules/accounts/accounts.repository.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { createAccountsService } from './modules/accounts/accounts.service.js';
import { moderationRoutes } from './modules/accounts/moderation.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { surveysRoutes } from './modules/surveys/surveys.routes.js';
import auth from './plugins/auth.js';
import errorHandler, { jsonNotFound, routerError } from './plugins/error-handler.js';
import rateLimit from './plugins/rate-limit.js';
import sms, { type SmsSender } from './plugins/sms.js';
import web from './plugins/web.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  /** From resolveSecrets(): the JWT secret and the keys derived from it. */
  secrets: Secrets;
  /** A pino logger (the server's); tests leave it out and log nothing. */
  logger?: FastifyBaseLogger;
  /** Tests move time (code and token expiry); defaults to the wall clock. */
  clock?: () => Date;
  /** Tests may capture texts or rate-limit state themselves. */
  smsSender?: SmsSender;
  rateLimitStore?: RateLimitStore;
}

/** Secrets and personal data that must never reach a log line. */
export const logRedactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  // Request bodies are not logged; these catch a body or a value logged by hand.
  'req.body.phone_number',
  'req.body.password',
  'req.body.otp',
  'req.body.refresh',
  'req.body.password_token',
  '*.phone_number',
  '*.password',
  '*.otp',
  '*.refresh',
  '*.access',
  '*.password_token',
  '*.to',
];

/** Builds the fully registered app without listening; tests call this and use `inject`. */
export async function buildApp({
  config,
  database,
  secrets,
  logger,
  clock = () => new Date(),
  smsSender,
  rateLimitStore,
}: AppDeps) {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    frameworkErrors: routerError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('db', database.db);
  await app.register(errorHandler);

  const keys = deriveKeys(secrets);
  await app.register(auth, {
    tokens: createTokenService(keys, {
      accessTtlSeconds: config.auth.accessTokenTtlSeconds,
      clock,
    }),
  });
  await app.register(rateLimit, rateLimitStore ? { store: rateLimitStore } : {});
  await app.register(sms, { ...(smsSender ? { sender: smsSender } : {}), clock });
  const accounts = createAccountsService(createAccountsRepository(database.db), {
    tokens: app.tokens,
    keys,
    sms: app.sms,
    limits: app.rateLimits,
    auth: config.auth,
    smsConfig: config.sms,
    clock,
  });

  await app.register(swagger, {
    openapi: {
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      info: {
        title: 'Candor API',
        version: '1',
        description:
          'Tough questions, honest answers. Errors: `{detail, code}` or `{field: [messages]}`.',
      },
    },
    transform: jsonSchemaTransform,
  });

  await app.register(
    async (api) => {
      // JSON answers: gzip above 1 KB (the survey list shrinks ~5x). Static files are precompressed.
      await api.register(compress, { encodings: ['gzip'], threshold: 1024 });
      api.addHook('onSend', async (_request, reply) => {
        // API answers are personal or change in steps: never stored by a shared cache.
        if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
      });
      await api.register(swaggerUi, { routePrefix: '/docs' });
      await api.register(healthRoutes);
      await api.register(surveysRoutes);
      await api.register(accountsRoutes, { service: accounts });
      // Everything under /api/v1/admin is for moderators and admins: guarded once, here.
      await api.register(
        async (admin) => {
          admin.addHook('onRequest', admin.requireRole('moderator', 'admin'));
          await admin.register(moderationRoutes, { service: accounts });
        },
        { prefix: '/v1/admin' },
      );
      api.setNotFoundHandler(jsonNotFound);
    },
    { prefix: '/api' },
  );

  await app.register(web, { root: config.webDistDir });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
