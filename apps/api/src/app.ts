import path from 'node:path';
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
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import { type ErasureVacuum, createErasureVacuum } from './db/erasure-vacuum.js';
import { createMaintenance } from './db/maintenance.js';
import { deriveCredentialKeys, deriveKeys, deriveProfileKey } from './lib/keys.js';
import { sealJson } from './lib/profile-seal.js';
import { capConnectionsPerClient } from './lib/client-connections.js';
import { trackConnectionsForShutdown } from './lib/shutdown-connections.js';
import { createPublicReadLimit } from './lib/public-read-limit.js';
import { lazyChildLoggerFactory } from './lib/lazy-logger.js';
import { loggableError, loggableRequest } from './lib/loggable-error.js';
import type { RateLimitStore } from './lib/rate-limit.js';
import type { Secrets } from './lib/secrets.js';
import { createTokenService } from './lib/tokens.js';
import { answersModule } from './modules/answers/answers.module.js';
import { createCredentialsRepository } from './modules/credentials/credentials.repository.js';
import { credentialsRoutes } from './modules/credentials/credentials.routes.js';
import {
  type CredentialsService,
  createCredentialsService,
} from './modules/credentials/credentials.service.js';
import { vaultModule } from './modules/vault/vault.module.js';
import { authoringModule } from './modules/authoring/authoring.module.js';
import { createAuditRepository } from './modules/audit/audit.repository.js';
import { createAuditService } from './modules/audit/audit.service.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { type Identities, identitiesFor } from './modules/auth/identity.js';
import { createAuthLimitsRepository } from './modules/auth/auth-limits.repository.js';
import { createCodes } from './modules/auth/codes.js';
import { createDeviceTokens } from './modules/auth/device-tokens.js';
import { memberDataRoutes } from './modules/auth/member-data.routes.js';
import { createMemberDataService } from './modules/auth/member-data.service.js';
import { createPasswordLimits } from './modules/auth/password-limits.js';
import { createSecondFactorRepository } from './modules/auth/second-factor.repository.js';
import { passkeysRoutes } from './modules/auth/passkeys.routes.js';
import { secondFactorRoutes } from './modules/auth/second-factor.routes.js';
import { createSecondFactorService } from './modules/auth/second-factor.service.js';
import { SESSION_CHANNEL, createSessionChanges } from './modules/auth/session-changes.js';
import {
  SESSION_LEASE_MS,
  SESSION_PROBE_MS,
  createSessionGate,
} from './modules/auth/session-gate.js';
import { sessionsRoutes } from './modules/auth/sessions.routes.js';
import { createSessionsService } from './modules/auth/sessions.service.js';
import { signupReviewRoutes } from './modules/auth/signup-review.routes.js';
import { createSignupReviewService } from './modules/auth/signup-review.service.js';
import { signupRoutes } from './modules/auth/signup.routes.js';
import { createSignupService } from './modules/auth/signup.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { imageFiles, imageUploadRoutes } from './modules/images/images.routes.js';
import { createImagesRepository } from './modules/images/images.repository.js';
import { createImagesService } from './modules/images/images.service.js';
import { auditModule } from './modules/audit/audit.module.js';
import { operatorResultsModule } from './modules/operator-results/operator-results.module.js';
import type { AppModule, Background, Core } from './modules/module.js';
import { pageViewsModule } from './modules/page-views/page-views.module.js';
import { panelsModule } from './modules/panels/panels.module.js';
import { researchModule } from './modules/research/research.module.js';
import { shareRoutes } from './modules/share/share.routes.js';
import { createShareService } from './modules/share/share.service.js';
import { createRespondentsRepository } from './modules/respondents/respondents.repository.js';
import { createRespondentsService } from './modules/respondents/respondents.service.js';
import { createResultsRepository } from './modules/results/results.repository.js';
import { resultsRoutes } from './modules/results/results.routes.js';
import type { Noise } from './modules/results/privacy.js';
import {
  type ResultsService,
  createResultsService,
  publishedRespondents,
} from './modules/results/results.service.js';
import { createSurveysRepository } from './modules/surveys/surveys.repository.js';
import { surveyPages } from './modules/surveys/survey-pages.js';
import { surveysRoutes } from './modules/surveys/surveys.routes.js';
import { createSurveysService } from './modules/surveys/surveys.service.js';
import type { Resolve } from './modules/webhooks/webhooks.sender.js';
import { webhooksModule } from './modules/webhooks/webhooks.module.js';
import { usersModule } from './modules/users/users.module.js';
import auth from './plugins/auth.js';
import errorHandler, { jsonNotFound, routerError } from './plugins/error-handler.js';
import rateLimit from './plugins/rate-limit.js';
import securityHeaders, { DOCS_CONTENT_SECURITY_POLICY } from './plugins/security-headers.js';
import sms, { type SmsSender } from './plugins/sms.js';
import storableText from './plugins/storable-text.js';
import web from './plugins/web.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    /** Published results: tests and the CLI fold and release with `results.tick()`. */
    results: ResultsService;
    /** Anonymous answer credentials: tests mix the inbox with `credentials.mix(true)`. */
    credentials: CredentialsService;
    /** Whether this process runs the background work now (one process does at a time). */
    leading: () => boolean;
    /** Vacuums what an erasure deleted; tests wait for it with `settled()`. */
    erasureVacuum: ErasureVacuum;
    /** Accounts' sealed numbers and names, and their keys (crypto-shredding, issue 28). */
    identities: Identities;
  }
}

/** NOTIFY channel of content changes: every process drops its survey cache. */
const CONTENT_CHANNEL = 'candor_content';

/** The session advisory lock of the process that runs the background work. */
const LEADER_LOCK_KEY = 727_002;

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
  /** Tests may draw the results' noise from a seeded source; production never sets it. */
  noise?: Noise;
  /** Tests say what webhook host names resolve to; production asks the system's resolver. */
  webhookResolve?: Resolve;
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
  // A staff login's second step: its challenge, a TOTP code, a new TOTP secret and its URI
  // (not `*.code`: errors' codes are what an operator reads first).
  'req.body.challenge',
  'req.body.code',
  '*.challenge',
  '*.secret',
  '*.uri',
  // A passkey's answer or new credential (signature, attestation, client data).
  'req.body.response',
  '*.to',
  // Answers are personal: what someone chose or wrote never reaches a log line.
  'req.body.choice',
  'req.body.text',
  '*.choice',
  '*.text',
  '*.answer',
];

/**
 * The logger's options: secrets redacted, errors stripped of query parameters, requests of
 * their client's address and of every value in their path and query.
 */
export const logOptions = {
  redact: logRedactPaths,
  serializers: { err: loggableError, req: loggableRequest },
};

/**
 * Fastify's trustProxy for TRUST_PROXY. Fastify ignores a bare hop count, so `n` becomes "the
 * socket's peer and the n-1 proxies before it": the client is the address the n-th proxy saw,
 * and whatever a client wrote in front of it in X-Forwarded-For is never believed.
 */
export function trustedProxies(setting: Config['trustProxy']) {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return (_address: string, hop: number) => hop < hops;
}

/** Builds the fully registered app without listening; tests call this and use `inject`. */
export async function buildApp({
  config,
  database,
  secrets,
  logger,
  clock = () => new Date(),
  smsSender,
  webhookResolve,
  rateLimitStore,
  noise,
}: AppDeps) {
  const app = Fastify({
    // Each request's child logger is made only if the request logs (lib/lazy-logger.ts).
    ...(logger
      ? { loggerInstance: logger, childLoggerFactory: lazyChildLoggerFactory }
      : { logger: false }),
    trustProxy: trustedProxies(config.trustProxy),
    // Slow clients (a header byte every few seconds) are cut off instead of holding a socket
    // forever: Fastify's defaults (0) disable Node's request timeout.
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.http.headersTimeoutMs,
      requestTimeout: config.http.requestTimeoutMs,
      // Node checks those timeouts on this beat (30 s by default): a quarter of the shortest.
      connectionsCheckingInterval: Math.min(
        1000,
        Math.max(50, Math.floor(config.http.headersTimeoutMs / 4)),
      ),
    },
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    frameworkErrors: routerError,
  }).withTypeProvider<ZodTypeProvider>();
  // Past this, Node closes each new connection as it is accepted (no file descriptors run out).
  app.server.maxConnections = config.http.maxConnections;
  // And one client cannot take them all (lib/client-connections.ts).
  if (config.http.maxConnectionsPerClient !== null)
    capConnectionsPerClient(app.server, config.http.maxConnectionsPerClient);
  // A response sent while the server closes ends its connection. Otherwise a request in flight
  // at SIGTERM leaves an idle keep-alive connection that holds the close open for the whole
  // keep-alive timeout (72 s), past an orchestrator's grace period. And a connection with half a
  // request is not left to Node's request timeouts (lib/shutdown-connections.ts).
  let closing = false;
  const closeUnfinishedConnections = trackConnectionsForShutdown(app.server);
  app.addHook('preClose', (done) => {
    closing = true;
    closeUnfinishedConnections();
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('db', database.db);
  await app.register(errorHandler);
  await app.register(securityHeaders);
  await app.register(storableText);

  const keys = deriveKeys(secrets);
  // Every access token is checked against its account and session; what this process read is
  // cached until a change is written here (accounts or users) or announced by another process
  // (decision 005). On PostgreSQL other processes may write: the cache is trusted only under a
  // lease renewed by probes of the notification connection, and a change that takes something
  // away is answered only once every lease from before it has run out (decision 023).
  const shared = database.engine === 'postgres';
  const sessionChanges = createSessionChanges(database.db, {
    onSessionChange: (uuid) => sessionGate.invalidate(uuid),
    settleMs: shared ? SESSION_LEASE_MS : 0,
  });
  const identities = identitiesFor(config, database.db, secrets);
  app.decorate('identities', identities);
  const authRepository = createAuthRepository(database.db, identities, sessionChanges);
  const sessionGate = createSessionGate(authRepository, {
    now: () => clock().getTime(),
    ...(shared ? { lease: { ms: SESSION_LEASE_MS } } : {}),
  });
  let stopListening: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopListening = await database.listen(SESSION_CHANNEL, {
      onMessage: (uuid) => sessionGate.invalidate(uuid),
      onState: (listening) => sessionGate.setListening(listening),
      caughtUp: { everyMs: SESSION_PROBE_MS, heard: (sentAt) => sessionGate.caughtUp(sentAt) },
      onError: (err) => app.log.warn({ err }, 'session notifications: connection lost; retrying'),
    });
  });
  app.addHook('onClose', async () => {
    sessionGate.setListening(false);
    await stopListening?.().catch(() => {
      // Closing anyway: a connection that fails to stop listening is gone.
    });
  });
  await app.register(auth, {
    tokens: createTokenService(keys, {
      accessTtlSeconds: config.auth.accessTokenTtlSeconds,
      clock,
    }),
    sessions: sessionGate,
  });
  await app.register(rateLimit, rateLimitStore ? { store: rateLimitStore } : {});
  await app.register(sms, { ...(smsSender ? { sender: smsSender } : {}), clock });
  const resultsRepository = createResultsRepository(database.db);
  const surveys = createSurveysService(createSurveysRepository(database.db), {
    clock,
    cacheSeconds: config.contentCacheSeconds,
    visitorQuestions: config.visitorFreeQuestions,
    // The list says how many answered each survey: its first question's published number.
    respondentsOf: publishedRespondents(resultsRepository),
  });
  const respondentsRepository = createRespondentsRepository(database.db);
  const results = createResultsService(resultsRepository, {
    surveys,
    profileKey: deriveProfileKey(secrets),
    refreshSeconds: config.resultsRefreshSeconds,
    ...(noise ? { noise } : {}),
    clock,
    onError: (err) => app.log.warn({ err }, 'results: folding or publishing failed; will retry'),
  });
  app.decorate('results', results);
  const respondents = createRespondentsService(respondentsRepository, {
    profileKey: deriveProfileKey(secrets),
  });
  const audit = createAuditService(createAuditRepository(database.db, identities));
  const credentialKeys = deriveCredentialKeys(secrets);
  const credentials = createCredentialsService(
    createCredentialsRepository(database.db, {
      batching: config.answerBatching,
      sealInbox: (entries) => sealJson(credentialKeys.inbox, entries),
    }),
    {
      surveys,
      results,
      keys: credentialKeys,
      // Decorated below; called only once a request runs.
      vacuumAfterDelete: () => app.erasureVacuum.erased(),
      profileKey: deriveProfileKey(secrets),
      mixMinPeople: config.mixing.minPeople,
      mixMaxWaitSeconds: config.mixing.maxWaitSeconds,
      intervalSeconds: config.resultsRefreshSeconds,
      onError: (err) => app.log.warn({ err }, 'mixing answers failed; will retry'),
      clock,
    },
  );
  app.decorate('credentials', credentials);
  // Content changed (a survey published, closed, edited): this process reads it again now, and
  // every other process when the notification reaches it, not after its cache's timer.
  function contentChanged() {
    surveys.invalidate();
    database.db
      .execute(sql`select pg_notify(${CONTENT_CHANNEL}, '')`)
      .catch((err: unknown) => app.log.warn({ err }, 'content change not announced'));
  }
  let stopContentListening: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopContentListening = await database.listen(CONTENT_CHANNEL, {
      onMessage: () => surveys.invalidate(),
      // While deaf, changes elsewhere show after the cache's timer, as before.
      onError: (err) => app.log.warn({ err }, 'content notifications: connection lost; retrying'),
    });
  });
  app.addHook('onClose', async () => {
    await stopContentListening?.().catch(() => {
      // Closing anyway: a connection that fails to stop listening is gone.
    });
  });
  // Modules that wire themselves (modules/module.ts): each adds its routes by zone, and its
  // background work, below.
  const core: Core = { app, config, db: database.db, secrets, keys, audit, clock };
  const operatorResults = operatorResultsModule(core, { results, surveys });
  const modules: AppModule[] = [
    { background: results },
    { background: credentials },
    auditModule(core),
    answersModule(core, { surveys, credentials }),
    authoringModule(core, {
      surveys,
      results,
      onChange: contentChanged,
      // Decorated below; called only once a request runs.
      vacuumAfterDelete: () => app.erasureVacuum.erased(),
    }),
    usersModule(core, { identities, sessionChanges }),
    operatorResults.module,
    pageViewsModule(core),
    panelsModule(core, (gid, header) => credentials.progress(gid, header)),
    researchModule(core, operatorResults.service),
    vaultModule(core),
    webhooksModule(core, webhookResolve),
  ];
  const uploadsDir = path.join(config.dataDir, 'uploads');
  const images = createImagesService({
    repo: createImagesRepository(database.db),
    audit,
    legacyDir: uploadsDir,
  });
  // Link previews: a survey page's own head tags for crawlers, and its share image.
  const share = createShareService({ surveys, images, webRoot: config.webDistDir });
  // Accounts, by job: codes and signup, sessions, the member's own data, signup review.
  // The account limits live in the database, shared by every process with or without Redis
  // (decision 022).
  const authLimits = createAuthLimitsRepository(database.db);
  const passwordLimits = createPasswordLimits({
    repo: authLimits,
    devices: createDeviceTokens(keys.ip, clock),
    ipKey: keys.ip,
    auth: config.auth,
    clock,
  });
  // Staff give a second factor after their password (decision 024).
  const secondFactorRepository = createSecondFactorRepository(database.db);
  const sessions = createSessionsService(authRepository, {
    tokens: app.tokens,
    passwordLimits,
    auth: config.auth,
    secondFactors: secondFactorRepository,
    clock,
  });
  const secondFactor = createSecondFactorService(secondFactorRepository, {
    users: authRepository,
    sessions,
    tokens: app.tokens,
    limits: authLimits,
    ipKey: keys.ip,
    sealKey: keys.secondFactorSeal,
    auth: config.auth,
    webauthn: config.webauthn,
    audit,
    clock,
  });
  const signup = createSignupService(authRepository, {
    codes: createCodes(authRepository, {
      keys,
      sms: app.sms,
      limits: authLimits,
      smsConfig: config.sms,
      clock,
    }),
    sessions,
    passwordLimits,
    tokens: app.tokens,
    ipKey: keys.ip,
    auth: config.auth,
    smsConfig: config.sms,
    clock,
  });
  // Every process vacuums after its own erasures: the reply does not wait, and the leader may
  // be another process.
  const erasureVacuum = createErasureVacuum(database, {
    scrub: database.owned === true,
    onDone: (ms) => app.log.info({ ms }, 'vacuumed after an erasure'),
    onError: (err) => app.log.warn({ err }, 'vacuum after an erasure failed'),
  });
  app.decorate('erasureVacuum', erasureVacuum);
  app.addHook('onClose', async () => erasureVacuum.stop());
  const memberData = createMemberDataService(authRepository, {
    passwordLimits,
    vacuum: erasureVacuum,
    clock,
  });
  const signupReview = createSignupReviewService(authRepository, { audit, clock });

  await app.register(swagger, {
    openapi: {
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          researchToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'A researcher token (cdr_…) an admin made: /api/v1/research only',
          },
        },
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
      api.addHook('onSend', (_request, reply, payload, done) => {
        // API answers are personal or change in steps: never stored by a shared cache.
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
        done(null, payload);
      });
      await api.register(swaggerUi, {
        routePrefix: '/docs',
        staticCSP: DOCS_CONTENT_SECURITY_POLICY,
      });
      await api.register(healthRoutes, {
        dataDir: config.dataDir,
        minFreeDiskMb: config.minFreeDiskMb,
      });
      await api.register(surveysRoutes, { service: surveys });
      await api.register(signupRoutes, { service: signup });
      await api.register(sessionsRoutes, { service: sessions });
      await api.register(secondFactorRoutes, { service: secondFactor });
      await api.register(memberDataRoutes, { service: memberData });
      await api.register(credentialsRoutes, { service: credentials });
      await api.register(resultsRoutes, {
        service: results,
        visitorReads: createPublicReadLimit(app.rateLimits, keys.ip, 'results'),
      });
      await api.register(shareRoutes, { service: share });
      // Each module's routes in a scope of their own: a hook one adds reaches no other's.
      for (const { api: routes } of modules) if (routes) await api.register(routes);
      // Everything under /api/v1/admin is for moderators and admins: guarded once, here; the
      // admin-only part once more inside.
      await api.register(
        async (staff) => {
          staff.addHook('onRequest', staff.requireRole('moderator', 'admin'));
          await staff.register(signupReviewRoutes, { service: signupReview });
          await staff.register(passkeysRoutes, { service: secondFactor });
          for (const { staff: routes } of modules) if (routes) await staff.register(routes);
          await staff.register(async (admin) => {
            admin.addHook('onRequest', admin.requireRole('admin'));
            await admin.register(imageUploadRoutes, { service: images });
            for (const { admin: routes } of modules) if (routes) await admin.register(routes);
          });
        },
        { prefix: '/v1/admin' },
      );
      api.setNotFoundHandler(jsonNotFound);
    },
    { prefix: '/api' },
  );

  await app.register(imageFiles, { service: images });
  // The web app's pages: `/` drawn with its survey list, a survey's page with its data preloaded
  // and its own link-preview tags.
  await app.register(web, {
    root: config.webDistDir,
    pages: [surveyPages(surveys), (page) => share.pageParts(page)],
  });
  // Answers are folded and snapshots published in the background while the app serves.
  // Profiles migration 0007 left in plain text are sealed in the background (the fold opens
  // both forms): a large database must not hold the server's start.
  const sealing = new AbortController();
  let sealed: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    sealed = respondents.sealLegacyProfiles(sealing.signal).then(
      (n) => n && app.log.info({ sealed: n }, 'respondent profiles sealed'),
      (err: unknown) =>
        app.log.warn({ err }, 'sealing respondent profiles failed; the next start retries'),
    );
  });
  app.addHook('onClose', async () => {
    sealing.abort();
    await sealed;
    for (const m of modules) await m.background?.stop();
  });
  // Vacuum and analyze where the database does not (PGlite; a server with autovacuum off).
  const maintenance: Background = createMaintenance(database, {
    intervalSeconds: config.dbMaintenanceSeconds,
    onWork: (work, ms) => app.log.info({ ...work, ms }, 'database maintenance'),
    onFreeze: (ms) => app.log.info({ ms }, 'database frozen (transaction id wraparound)'),
    onAging: (databases) =>
      app.log.warn(
        { databases },
        'databases past the freeze age that this server cannot vacuum: vacuum them, or move ' +
          'to PostgreSQL with autovacuum, before about 2 billion transactions stop writes',
      ),
    onError: (err) => app.log.warn({ err }, 'database maintenance failed; will retry'),
    // Account limits past their end count as absent already; their rows go here.
    tidy: () => authLimits.sweep(clock()),
  });
  app.addHook('onClose', async () => maintenance.stop());
  const background = [...modules.flatMap((m) => (m.background ? [m.background] : [])), maintenance];
  // Background work (folding and publishing results, maintenance) runs on one process at a
  // time, the leader (db/client.ts lead()); when it dies another takes over within seconds.
  let leading = false;
  let stepDown: (() => Promise<void>) | undefined;
  app.decorate('leading', () => leading);
  app.addHook('onReady', async () => {
    stepDown = await database.lead(LEADER_LOCK_KEY, (now) => {
      leading = now;
      if (now) {
        app.log.info('this process leads the background work');
        for (const work of background) work.start();
      } else {
        app.log.warn('this process no longer leads the background work');
        for (const work of background) void work.stop();
      }
    });
  });
  app.addHook('onClose', async () => stepDown?.());
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
