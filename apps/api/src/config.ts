import os from 'node:os';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

// proxy-addr's named ranges, which Fastify's trustProxy accepts in a list.
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4 or IPv6 address, optionally with a /prefix (CIDR) or an IPv4 /netmask. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/**
 * Which proxies may say who the client is: `false` (none: the socket's address is the client),
 * a hop count (`1`: the last X-Forwarded-For entry, the one the load balancer added), or the
 * proxies' addresses. `true` (believe any X-Forwarded-For) is refused: a client would choose
 * its own address and walk past every per-IP limit.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): false | number | string[] => {
    if (['false', '0', 'no'].includes(v)) return false;
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 16) return hops;
    }
    const list = v
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    if (list.length && list.every(isProxyAddress)) return list;
    ctx.addIssue({
      code: 'custom',
      message: ['true', 'yes'].includes(v)
        ? 'true would believe any X-Forwarded-For (a client could pick its own address); use ' +
          'the number of proxies in front of Candor (1 behind one load balancer) or their ' +
          'addresses (10.0.0.0/8,127.0.0.1)'
        : 'must be false, a hop count (0-16) or comma-separated proxy addresses/CIDRs',
    });
    return z.NEVER;
  });

const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .url()
      .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    DATABASE_STARTUP_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    EMBEDDED_DATABASE: z.enum(['auto', 'postgres', 'pglite']).default('auto'),
    BACKUP_DIR: z.string().min(1).optional(),
    IDENTITY_KEYS_DIR: z.string().min(1).optional(),
    BACKUP_INTERVAL_HOURS: z.coerce.number().min(0.01).max(8760).default(24),
    BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
    BACKUP_ARCHIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(900),
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
    PUBLIC_URL: z.url().optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    SEED_SAMPLE_CONTENT: bool.default(true),
    SEED_SAMPLE_ANSWERS: bool.default(false),
    CONTENT_CACHE_SECONDS: z.coerce.number().min(0).max(3600).default(5),
    VISITOR_FREE_QUESTIONS: z.coerce.number().int().min(0).max(1000).default(3),
    RESULTS_REFRESH_SECONDS: z.coerce.number().min(0).max(3600).default(2),
    DB_MAINTENANCE_SECONDS: z.coerce.number().min(0).max(86_400).default(60),
    MIN_FREE_DISK_MB: z.coerce.number().min(0).max(10_000_000).default(64),
    MIX_MIN_PEOPLE: z.coerce.number().int().min(1).max(10_000).default(10),
    WEBHOOK_INTERVAL_SECONDS: z.coerce.number().min(0).max(3600).default(10),
    WEBHOOK_ALLOWED_PRIVATE: z
      .string()
      .trim()
      .default('')
      .transform((v, ctx): string[] => {
        const list = v
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean);
        if (list.every((a) => a.includes('/') && isProxyAddress(a))) return list;
        ctx.addIssue({
          code: 'custom',
          message: 'must be comma-separated address ranges (CIDR), such as 10.20.0.0/16',
        });
        return z.NEVER;
      }),
    MIX_MAX_WAIT_SECONDS: z.coerce.number().min(0).max(86_400).default(600),
    ANALYTICS: z.enum(['on', 'off']).default('on'),
    SMS_PROVIDER: z.enum(['file', 'twilio']).default('file'),
    TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
    TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
    TWILIO_FROM: z.string().min(1).optional(),
    TWILIO_API_URL: z.url().default('https://api.twilio.com'),
    SMS_ALLOWED_COUNTRIES: z
      .string()
      .default('*')
      .transform((v) => v.split(',').map((c) => c.trim().toUpperCase()))
      .refine(
        (list) => list.every((c) => c === '*' || /^[A-Z]{2}$/.test(c)),
        'must be * or comma-separated two-letter country codes (GB,US)',
      ),
    SMS_PER_NUMBER_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(3),
    SMS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
    LOGIN_FAILURES_PER_NUMBER: z.coerce.number().int().min(1).max(1000).default(5),
    LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).max(100_000).default(30),
    LOGIN_THROTTLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
    DEFAULT_PHONE_REGION: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, 'must be a two-letter country code')
      .default('US'),
    ACCESS_TOKEN_TTL: z.coerce.number().int().min(1).max(86_400).default(600),
    REFRESH_TOKEN_TTL: z.coerce.number().int().min(60).max(31_536_000).default(2_592_000),
    SESSION_MAX_AGE: z.coerce.number().int().min(60).max(31_536_000).default(7_776_000),
    REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
    REVIEW_ALL_SIGNUPS: bool.default(false),
    REDIS_URL: z
      .url()
      .refine((u) => /^rediss?:\/\//.test(u), 'must be a redis:// or rediss:// URL')
      .optional(),
    REDIS_KEY_PREFIX: z.string().default('candor:'),
    DEMO_ADMIN: bool.default(false),
    TRUST_PROXY: trustProxy.default(false),
    HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(72_000),
    MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(4096),
    MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(256),
    REDIS_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
    ANSWER_BATCHES_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(2),
    ANSWER_BATCH_ROWS: z.coerce.number().int().min(1).max(1000).default(200),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    PSEUDONYM_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    WEB_DIST_DIR: z.string().optional(),
    WEBAUTHN_RP_ID: z
      .string()
      .trim()
      .toLowerCase()
      .regex(
        /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/,
        'must be a domain',
      )
      .optional(),
    WEBAUTHN_ORIGINS: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((o) => o.trim().replace(/\/+$/, ''))
          .filter(Boolean),
      )
      .refine(
        (list) => list.length > 0 && list.every((o) => URL.canParse(o) && new URL(o).origin === o),
        'must be comma-separated origins (https://candor.example)',
      )
      .optional(),
  })
  .superRefine((env, ctx) => {
    // A passkey answers for its RP id only where the page's host is it or under it.
    const { rpId, origins } = webauthnOf(env);
    for (const origin of origins) {
      const host = new URL(origin).hostname;
      if (host !== rpId && !host.endsWith(`.${rpId}`)) {
        ctx.addIssue({
          code: 'custom',
          path: ['WEBAUTHN_ORIGINS'],
          message: `${origin} is not on ${rpId} (WEBAUTHN_RP_ID): set both to the address people use`,
        });
      }
    }
    // Node refuses a headers timeout longer than the whole request's.
    if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HEADERS_TIMEOUT_MS'],
        message: 'must not be longer than REQUEST_TIMEOUT_MS',
      });
    }
    // Several API processes share one PostgreSQL: they must share their secrets too.
    if (env.DATABASE_URL) {
      for (const key of ['JWT_SECRET', 'PSEUDONYM_SECRET'] as const) {
        if (!env[key]) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'is required when DATABASE_URL is set (generate one: openssl rand -base64 48)',
          });
        }
      }
    }
    // Backups here are the embedded PostgreSQL's; another server's are its operator's.
    if (env.BACKUP_DIR && (env.DATABASE_URL || env.EMBEDDED_DATABASE === 'pglite')) {
      ctx.addIssue({
        code: 'custom',
        path: ['BACKUP_DIR'],
        message: env.DATABASE_URL
          ? "is for the embedded database; with DATABASE_URL use your PostgreSQL's own " +
            'point-in-time recovery (README, Backups on PostgreSQL)'
          : 'needs the embedded PostgreSQL, not EMBEDDED_DATABASE=pglite',
      });
    }
    if (env.BACKUP_DIR) {
      const pgDir = path.resolve(env.DATA_DIR, 'postgres');
      const rel = path.relative(pgDir, path.resolve(env.BACKUP_DIR));
      if (!rel.startsWith('..') && !path.isAbsolute(rel)) {
        ctx.addIssue({
          code: 'custom',
          path: ['BACKUP_DIR'],
          message: `must not be inside the database's own folder (${pgDir})`,
        });
      }
    }
    // The embedded database's folder is locked to one process.
    if (!env.DATABASE_URL && (env.WEB_CONCURRENCY ?? 1) > 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEB_CONCURRENCY'],
        message: 'above 1 needs DATABASE_URL (the embedded database serves one process)',
      });
    }
    if (env.SMS_PROVIDER === 'twilio') {
      for (const key of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const) {
        if (!env[key]) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'is required when SMS_PROVIDER=twilio',
          });
        }
      }
    }
  });

/** The embedded PostgreSQL's backups (decision 025). */
export interface BackupConfig {
  /** BACKUP_DIR: base/ (base backups) and wal/ (the archived write-ahead log). */
  dir: string;
  /** A base backup is taken when the newest is older than this. */
  intervalHours: number;
  /** Base backups kept; the archived log older than the oldest of them is deleted. */
  keep: number;
  /** archive_timeout: a segment holding any write is archived at least this often (0: when full). */
  archiveTimeoutSeconds: number;
}

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  from: string;
  apiUrl: string;
}

export interface AuthConfig {
  /** Region assumed for national-form numbers when the request names no country. */
  defaultPhoneRegion: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** A member's session ends this long after its login, however often it is refreshed. */
  sessionMaxAgeSeconds: number;
  /** A refresh token presented again this soon after its first use gets the same new pair. */
  refreshReuseGraceSeconds: number;
  reviewAllSignups: boolean;
  loginFailuresPerNumber: number;
  loginFailuresPerIp: number;
  loginThrottleMinutes: number;
}

export interface SmsConfig {
  provider: 'file' | 'twilio';
  twilio: TwilioConfig | null;
  /** ISO country codes whose numbers may get texts; ['*'] allows every country. */
  allowedCountries: string[];
  perNumberPerHour: number;
  perIpPerHour: number;
}

export interface HttpConfig {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Connections past this are closed as they are accepted (per process; a cluster's in all). */
  maxConnections: number;
  /**
   * A client's (an IPv4 address, an IPv6 /64) connections past this are closed as they are
   * accepted; null behind a proxy (TRUST_PROXY), whose own address every connection has.
   */
  maxConnectionsPerClient: number | null;
}

export interface Config {
  port: number;
  /**
   * Group commit of redeemed answers (credentials.repository.ts): most answers per batch, and
   * batches written at once. `maxRows` 1: one statement and one commit per answer.
   */
  answerBatching: { maxRows: number; inFlight: number };
  host: string;
  dataDir: string;
  /** Unset: the embedded PGlite database in `dataDir`. */
  databaseUrl: string | undefined;
  /**
   * IDENTITY_KEYS_DIR: the folder of accounts' identity keys (modules/auth/identity.ts). Unset:
   * `dataDir/identity-keys` with the embedded database, the table `identity_keys` with
   * DATABASE_URL.
   */
  identityKeysDir: string | null;
  databasePoolSize: number;
  /** How long start-up waits for a database that is not answering yet; 0: one try. */
  databaseStartupTimeoutMs: number;
  /** Without DATABASE_URL: the embedded PostgreSQL (`auto`: unless the folder holds PGlite's). */
  embeddedDatabase: 'auto' | 'postgres' | 'pglite';
  /**
   * The embedded PostgreSQL's WAL archive and base backups (decision 025); null (BACKUP_DIR
   * unset): none.
   */
  backup: BackupConfig | null;
  /**
   * API processes (cluster mode): with PostgreSQL one per core unless set; the embedded
   * database has one process (its folder is locked to it).
   */
  webConcurrency: number;
  publicUrl: string | undefined;
  logLevel: string;
  seedSampleContent: boolean;
  /** Made-up answers to the sample surveys (demos, end-to-end tests); never with real data. */
  seedSampleAnswers: boolean;
  /** How long published survey content is served from memory before it is read again. */
  contentCacheSeconds: number;
  /** Questions of a survey a visitor may answer (in the browser) before signing up. */
  visitorFreeQuestions: number;
  /** How often answers are folded and snapshots published; how long a snapshot is kept in memory. 0: never in the background (tests). */
  resultsRefreshSeconds: number;
  /** How often to vacuum and analyze when the database does not (PGlite; autovacuum off). 0: never. */
  dbMaintenanceSeconds: number;
  /** Below this much free space on `dataDir`'s disk, health and readiness say 503. 0: not checked. */
  minFreeDiskMb: number;
  /**
   * Answers redeemed with credentials wait, sealed, until they hold this many credentials' answers
   * or the oldest waited `maxWaitSeconds`; then they are written in a shuffled order (decision 020).
   */
  mixing: { minPeople: number; maxWaitSeconds: number };
  /** First-party page views are stored; false answers 204 and stores nothing. */
  analytics: boolean;
  /**
   * Webhooks (decision 032): how often events are looked for and deliveries sent (0: never in
   * the background, tests), and the private ranges a webhook may reach (none by default).
   */
  webhooks: { intervalSeconds: number; allowedPrivate: string[] };
  sms: SmsConfig;
  auth: AuthConfig;
  /** Shared rate-limit state; unset keeps it in this process's memory. */
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  /** Create a demo admin (+15555550100) on start and print its password once: development only. */
  demoAdmin: boolean;
  /** Fastify's trustProxy: false, a hop count, or the trusted proxies' addresses/CIDRs. */
  trustProxy: false | number | string[];
  /** Slow clients: how long headers / a whole request may take to arrive, and an idle keep-alive. */
  http: HttpConfig;
  /** Connect and command timeout of the Redis client: past it, 503 rather than a wait. */
  redisTimeoutMs: number;
  /** Secrets from the environment; missing ones are generated into `dataDir` in embedded mode. */
  secrets: { jwtSecret: string | undefined; pseudonymSecret: string | undefined };
  /** The built web app served on `/`; null serves the API only. */
  webDistDir: string | null;
  webauthn: WebauthnConfig;
}

/** Passkeys' relying party (decision 024): the domain they belong to, the origins they are used on. */
export interface WebauthnConfig {
  rpId: string;
  origins: string[];
}

/**
 * WEBAUTHN_RP_ID / WEBAUTHN_ORIGINS, else PUBLIC_URL's host and origin, else localhost on PORT
 * (development: browsers take `localhost`, never an IP address, as an RP id). Never the
 * request's Host header: a client would choose it.
 */
function webauthnOf(env: {
  PORT: number;
  PUBLIC_URL?: string | undefined;
  WEBAUTHN_RP_ID?: string | undefined;
  WEBAUTHN_ORIGINS?: string[] | undefined;
}): WebauthnConfig {
  const publicUrl = env.PUBLIC_URL ? new URL(env.PUBLIC_URL) : undefined;
  const rpId = env.WEBAUTHN_RP_ID ?? publicUrl?.hostname ?? 'localhost';
  const origins =
    env.WEBAUTHN_ORIGINS ?? (publicUrl ? [publicUrl.origin] : [`http://localhost:${env.PORT}`]);
  return { rpId, origins };
}

/** Thrown with every problem of the environment listed, so one start shows them all. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Reads and validates the environment once at boot; the only reader of process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    identityKeysDir: e.IDENTITY_KEYS_DIR ? path.resolve(e.IDENTITY_KEYS_DIR) : null,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseStartupTimeoutMs: e.DATABASE_STARTUP_TIMEOUT_MS,
    embeddedDatabase: e.EMBEDDED_DATABASE,
    backup: e.BACKUP_DIR
      ? {
          dir: path.resolve(e.BACKUP_DIR),
          intervalHours: e.BACKUP_INTERVAL_HOURS,
          keep: e.BACKUP_KEEP,
          archiveTimeoutSeconds: e.BACKUP_ARCHIVE_TIMEOUT_SECONDS,
        }
      : null,
    webConcurrency: e.DATABASE_URL ? (e.WEB_CONCURRENCY ?? os.availableParallelism()) : 1,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    seedSampleContent: e.SEED_SAMPLE_CONTENT,
    seedSampleAnswers: e.SEED_SAMPLE_ANSWERS,
    contentCacheSeconds: e.CONTENT_CACHE_SECONDS,
    visitorFreeQuestions: e.VISITOR_FREE_QUESTIONS,
    resultsRefreshSeconds: e.RESULTS_REFRESH_SECONDS,
    dbMaintenanceSeconds: e.DB_MAINTENANCE_SECONDS,
    minFreeDiskMb: e.MIN_FREE_DISK_MB,
    mixing: { minPeople: e.MIX_MIN_PEOPLE, maxWaitSeconds: e.MIX_MAX_WAIT_SECONDS },
    analytics: e.ANALYTICS === 'on',
    webhooks: {
      intervalSeconds: e.WEBHOOK_INTERVAL_SECONDS,
      allowedPrivate: e.WEBHOOK_ALLOWED_PRIVATE,
    },
    sms: {
      provider: e.SMS_PROVIDER,
      twilio:
        e.SMS_PROVIDER === 'twilio'
          ? {
              accountSid: e.TWILIO_ACCOUNT_SID!,
              authToken: e.TWILIO_AUTH_TOKEN!,
              from: e.TWILIO_FROM!,
              apiUrl: e.TWILIO_API_URL.replace(/\/+$/, ''),
            }
          : null,
      allowedCountries: e.SMS_ALLOWED_COUNTRIES,
      perNumberPerHour: e.SMS_PER_NUMBER_PER_HOUR,
      perIpPerHour: e.SMS_PER_IP_PER_HOUR,
    },
    auth: {
      defaultPhoneRegion: e.DEFAULT_PHONE_REGION,
      accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL,
      refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL,
      sessionMaxAgeSeconds: e.SESSION_MAX_AGE,
      refreshReuseGraceSeconds: e.REFRESH_REUSE_GRACE_SECONDS,
      reviewAllSignups: e.REVIEW_ALL_SIGNUPS,
      loginFailuresPerNumber: e.LOGIN_FAILURES_PER_NUMBER,
      loginFailuresPerIp: e.LOGIN_FAILURES_PER_IP,
      loginThrottleMinutes: e.LOGIN_THROTTLE_MINUTES,
    },
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    demoAdmin: e.DEMO_ADMIN,
    trustProxy: e.TRUST_PROXY,
    http: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.MAX_CONNECTIONS,
      maxConnectionsPerClient: e.TRUST_PROXY === false ? e.MAX_CONNECTIONS_PER_CLIENT : null,
    },
    redisTimeoutMs: e.REDIS_TIMEOUT_MS,
    answerBatching: { maxRows: e.ANSWER_BATCH_ROWS, inFlight: e.ANSWER_BATCHES_IN_FLIGHT },
    secrets: { jwtSecret: e.JWT_SECRET, pseudonymSecret: e.PSEUDONYM_SECRET },
    webDistDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : defaultWebDist,
    webauthn: webauthnOf(e),
  };
}
