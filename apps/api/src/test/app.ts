import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AppDeps, buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import type { Database } from '../db/client.js';
import type { Secrets } from '../lib/secrets.js';

/** Config for tests: defaults, no web app, overridable per test. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    webDistDir: null,
    logLevel: 'silent',
    // Tests that want it call runOnce(); a background VACUUM would only slow the others.
    dbMaintenanceSeconds: 0,
    // Tests find and send webhook events with app.webhooks.tick().
    webhooks: { intervalSeconds: 0, allowedPrivate: [] },
    // Passkeys are made by test/passkey.ts's software authenticator for this relying party.
    webauthn: { rpId: 'candor.test', origins: ['https://candor.test'] },
    ...overrides,
  };
}

/** Fresh random secrets, as resolveSecrets would generate them. */
export function testSecrets(): Secrets {
  return {
    jwtSecret: crypto.randomBytes(48).toString('base64url'),
    pseudonymSecret: crypto.randomBytes(48).toString('base64url'),
  };
}

/** A temporary DATA_DIR (the SMS outbox lives there), removed when the app closes. */
export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'candor-test-'));
}

const keyDirs = new WeakMap<Database, string>();

/**
 * The identity keys' folder of a test database: every app a test builds on one database shares
 * it, as the processes of one deployment do (modules/auth/identity.ts).
 */
export function identityKeysDirOf(database: Database): string {
  let dir = keyDirs.get(database);
  if (!dir) {
    dir = path.join(tempDataDir(), 'identity-keys');
    keyDirs.set(database, dir);
  }
  return dir;
}

/**
 * A fully registered app on the given database, ready for `inject`, with its own temporary
 * DATA_DIR unless the overrides name one. `deps` passes a clock, secrets or a logger.
 */
export async function createTestApp(
  database: Database,
  overrides: Partial<Config> = {},
  deps: Partial<Omit<AppDeps, 'config' | 'database'>> = {},
) {
  const ownDir = overrides.dataDir ? undefined : tempDataDir();
  const app = await buildApp({
    config: testConfig({
      ...(ownDir ? { dataDir: ownDir } : {}),
      identityKeysDir: identityKeysDirOf(database),
      ...overrides,
    }),
    database,
    secrets: testSecrets(),
    ...deps,
  });
  if (ownDir)
    app.addHook('onClose', async () => fs.rmSync(ownDir, { recursive: true, force: true }));
  await app.ready();
  return app;
}
