import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('accounts configuration', () => {
  it('has safe defaults', () => {
    const config = loadConfig({});
    expect(config.auth).toEqual({
      defaultPhoneRegion: 'US',
      accessTokenTtlSeconds: 600,
      refreshTokenTtlSeconds: 30 * 24 * 3600,
      sessionMaxAgeSeconds: 90 * 24 * 3600,
      refreshReuseGraceSeconds: 30,
      reviewAllSignups: false,
      loginFailuresPerNumber: 5,
      loginFailuresPerIp: 30,
      loginThrottleMinutes: 15,
    });
    expect(config.sms).toEqual({
      provider: 'file',
      twilio: null,
      allowedCountries: ['*'],
      perNumberPerHour: 3,
      perIpPerHour: 10,
    });
    expect(config.redisUrl).toBeUndefined();
    expect(config.demoAdmin).toBe(false);
    expect(config.visitorFreeQuestions).toBe(3);
    expect(config.resultsRefreshSeconds).toBe(2);
    expect(config.analytics).toBe(true);
  });

  it('reads the answering variables and refuses bad values', () => {
    const config = loadConfig({
      VISITOR_FREE_QUESTIONS: '0',
      RESULTS_REFRESH_SECONDS: '0.5',
      ANALYTICS: 'off',
    });
    expect(config.visitorFreeQuestions).toBe(0);
    expect(config.resultsRefreshSeconds).toBe(0.5);
    expect(config.analytics).toBe(false);
    expect(() => loadConfig({ VISITOR_FREE_QUESTIONS: '-1' })).toThrow(/VISITOR_FREE_QUESTIONS/);
    expect(() => loadConfig({ VISITOR_FREE_QUESTIONS: '2.5' })).toThrow(ConfigError);
    expect(() => loadConfig({ ANALYTICS: 'maybe' })).toThrow(/ANALYTICS/);
  });

  it('reads the variables', () => {
    const config = loadConfig({
      SMS_ALLOWED_COUNTRIES: 'gb, us',
      DEFAULT_PHONE_REGION: 'gb',
      ACCESS_TOKEN_TTL: '2',
      REVIEW_ALL_SIGNUPS: 'true',
      REDIS_URL: 'redis://127.0.0.1:6379',
      DEMO_ADMIN: 'true',
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 'secret',
      TWILIO_FROM: '+15005550006',
      TWILIO_API_URL: 'http://127.0.0.1:9999/',
    });
    expect(config.sms.allowedCountries).toEqual(['GB', 'US']);
    expect(config.auth.defaultPhoneRegion).toBe('GB');
    expect(config.auth.accessTokenTtlSeconds).toBe(2);
    expect(config.auth.reviewAllSignups).toBe(true);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.demoAdmin).toBe(true);
    expect(config.sms.twilio).toEqual({
      accountSid: 'AC1',
      authToken: 'secret',
      from: '+15005550006',
      apiUrl: 'http://127.0.0.1:9999',
    });
  });

  it('requires the Twilio credentials when Twilio is chosen, naming each', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_FROM: '+15005550006' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_FROM: '+15005550006' });
    } catch (err) {
      expect((err as Error).message).toContain(
        'TWILIO_ACCOUNT_SID: is required when SMS_PROVIDER=twilio',
      );
      expect((err as Error).message).toContain(
        'TWILIO_AUTH_TOKEN: is required when SMS_PROVIDER=twilio',
      );
      expect((err as Error).message).not.toContain('TWILIO_FROM');
    }
  });

  it('refuses a malformed allowlist or region', () => {
    expect(() => loadConfig({ SMS_ALLOWED_COUNTRIES: 'GBR' })).toThrow(/SMS_ALLOWED_COUNTRIES/);
    expect(() => loadConfig({ DEFAULT_PHONE_REGION: 'Britain' })).toThrow(/DEFAULT_PHONE_REGION/);
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
  });
});

describe('proxy, timeout and Redis configuration', () => {
  it('reads TRUST_PROXY as off, a hop count or proxy addresses, and refuses true', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    for (const off of ['false', '0', 'no'])
      expect(loadConfig({ TRUST_PROXY: off }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy,
    ).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback']);
    // true would believe whatever a client writes in X-Forwarded-For: refused, saying what to use.
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: true would believe any/,
    );
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(
      /number of proxies.*1 behind one load balancer/s,
    );
    for (const bad of [
      '10.0.0.0/33',
      '10.0.0',
      'proxy.example',
      '1,2',
      '17',
      '127.0.0.1/8/8',
      ' , ',
    ]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('has finite HTTP timeouts and a connection cap by default, and reads them', () => {
    expect(loadConfig({}).http).toEqual({
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 72_000,
      maxConnections: 4096,
      maxConnectionsPerClient: 256,
    });
    expect(loadConfig({}).redisTimeoutMs).toBe(1000);
    const config = loadConfig({
      HEADERS_TIMEOUT_MS: '1000',
      REQUEST_TIMEOUT_MS: '2000',
      KEEP_ALIVE_TIMEOUT_MS: '3000',
      MAX_CONNECTIONS: '50',
      MAX_CONNECTIONS_PER_CLIENT: '5',
      REDIS_TIMEOUT_MS: '250',
    });
    expect(config.http).toEqual({
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      keepAliveTimeoutMs: 3000,
      maxConnections: 50,
      maxConnectionsPerClient: 5,
    });
    // Behind a proxy every connection comes from the proxy: it limits each client itself.
    expect(loadConfig({ TRUST_PROXY: '1' }).http.maxConnectionsPerClient).toBeNull();
    expect(config.redisTimeoutMs).toBe(250);
    // 0 would switch the timeout off again.
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ MAX_CONNECTIONS: '0' })).toThrow(/MAX_CONNECTIONS/);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_CLIENT: '0' })).toThrow(
      /MAX_CONNECTIONS_PER_CLIENT/,
    );
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '4000' })).toThrow(
      /HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS/,
    );
  });

  it('waits a bounded time for the database at start, 60 s unless told', () => {
    expect(loadConfig({}).databaseStartupTimeoutMs).toBe(60_000);
    expect(loadConfig({ DATABASE_STARTUP_TIMEOUT_MS: '0' }).databaseStartupTimeoutMs).toBe(0);
    expect(() => loadConfig({ DATABASE_STARTUP_TIMEOUT_MS: '-1' })).toThrow(
      /DATABASE_STARTUP_TIMEOUT_MS/,
    );
  });
});

describe('backups configuration (decision 025)', () => {
  it('is off unless BACKUP_DIR is set, with a day between base backups and seven kept', () => {
    expect(loadConfig({}).backup).toBeNull();
    expect(loadConfig({ BACKUP_DIR: '/backups/candor' }).backup).toEqual({
      dir: '/backups/candor',
      intervalHours: 24,
      keep: 7,
      archiveTimeoutSeconds: 900,
    });
  });

  it("takes passkeys' RP id and origins from WEBAUTHN_*, else PUBLIC_URL, else localhost", () => {
    expect(loadConfig({}).webauthn).toEqual({
      rpId: 'localhost',
      origins: ['http://localhost:3000'],
    });
    expect(loadConfig({ PORT: '8080' }).webauthn.origins).toEqual(['http://localhost:8080']);
    expect(loadConfig({ PUBLIC_URL: 'https://candor.example/' }).webauthn).toEqual({
      rpId: 'candor.example',
      origins: ['https://candor.example'],
    });
    expect(
      loadConfig({
        PUBLIC_URL: 'https://app.candor.example',
        WEBAUTHN_RP_ID: 'Candor.Example',
        WEBAUTHN_ORIGINS: 'https://app.candor.example, https://candor.example/',
      }).webauthn,
    ).toEqual({
      rpId: 'candor.example',
      origins: ['https://app.candor.example', 'https://candor.example'],
    });
    // An origin off the RP id's domain could never use its passkeys: refused at boot.
    expect(() =>
      loadConfig({ WEBAUTHN_RP_ID: 'candor.example', WEBAUTHN_ORIGINS: 'https://evil.example' }),
    ).toThrow(/WEBAUTHN_ORIGINS: https:\/\/evil.example is not on candor.example/);
    expect(() => loadConfig({ WEBAUTHN_ORIGINS: 'https://candor.example/path' })).toThrow(
      /WEBAUTHN_ORIGINS: must be comma-separated origins/,
    );
    expect(() => loadConfig({ WEBAUTHN_RP_ID: 'https://candor.example' })).toThrow(
      /WEBAUTHN_RP_ID: must be a domain/,
    );
  });

  it('refuses BACKUP_DIR where it cannot work', () => {
    const secrets = { JWT_SECRET: 'x'.repeat(32), PSEUDONYM_SECRET: 'y'.repeat(32) };
    expect(() =>
      loadConfig({ BACKUP_DIR: '/b', DATABASE_URL: 'postgres://h/db', ...secrets }),
    ).toThrow(/BACKUP_DIR: is for the embedded database/);
    expect(() => loadConfig({ BACKUP_DIR: '/b', EMBEDDED_DATABASE: 'pglite' })).toThrow(
      /BACKUP_DIR: needs the embedded PostgreSQL/,
    );
    expect(() => loadConfig({ DATA_DIR: '/data', BACKUP_DIR: '/data/postgres/backups' })).toThrow(
      /BACKUP_DIR: must not be inside the database's own folder/,
    );
    expect(loadConfig({ DATA_DIR: '/data', BACKUP_DIR: '/data/backups' }).backup?.dir).toBe(
      '/data/backups',
    );
    expect(() => loadConfig({ BACKUP_DIR: '/b', BACKUP_KEEP: '0' })).toThrow(ConfigError);
  });
});
