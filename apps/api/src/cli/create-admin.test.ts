// `npm run create-admin` as a person runs it: a real process on an embedded data folder.
import { spawn } from 'node:child_process';
import { passwordSecrets } from '@candor/contracts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { resolveSecrets } from '../lib/secrets.js';
import { get, json, post } from '../test/accounts.js';
import { createTestApp } from '../test/app.js';
import { staffLogin } from '../test/second-factor.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const cli = fileURLToPath(new URL('./create-admin.ts', import.meta.url));

function run(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: '', JWT_SECRET: '', PSEUDONYM_SECRET: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run create-admin', () => {
  let dataDir: string;
  const results: Record<string, Awaited<ReturnType<typeof run>>> = {};

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-cli-'));
    const env = { DATA_DIR: dataDir };
    // One after another: the embedded database takes one process at a time.
    results.created = await run(['--phone', '+44 7700 900123', '--name', 'Root'], {
      ...env,
      CANDOR_ADMIN_PASSWORD: 'first admin passphrase',
    });
    // Refused before the database is opened, so these may run side by side.
    const refused = await Promise.all([
      run(['--phone', '+12025550123'], { ...env, CANDOR_ADMIN_PASSWORD: 'password123' }),
      run(['--phone', '+12025550123'], { ...env, CANDOR_ADMIN_PASSWORD: 'abc' }),
      run(['--phone', '+12025550123'], { ...env, CANDOR_ADMIN_PASSWORD: '' }),
      run([], { ...env, CANDOR_ADMIN_PASSWORD: 'whatever passphrase' }),
      run(['--phone', '12'], { ...env, CANDOR_ADMIN_PASSWORD: 'whatever passphrase' }),
    ]);
    for (const [i, name] of ['common', 'short', 'noPassword', 'noPhone', 'badPhone'].entries()) {
      results[name] = refused[i]!;
    }
    results.promoted = await run(['--phone', '+447700900123'], {
      ...env,
      CANDOR_ADMIN_PASSWORD: 'second admin passphrase',
    });
  }, 120_000);

  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('creates an admin from --phone and CANDOR_ADMIN_PASSWORD', () => {
    expect(results.created).toMatchObject({ code: 0, stderr: '' });
    expect(results.created!.stdout).toContain('Created admin +447700900123.');
    expect(results.created!.stdout).not.toContain('first admin passphrase');
  });

  it('refuses common and short passwords, and says how to give one', () => {
    expect(results.common!.code).toBe(1);
    expect(results.common!.stderr).toContain('Password refused: This password is too common');
    expect(results.short!.code).toBe(1);
    expect(results.short!.stderr).toContain('Password refused: Use at least 8 characters.');
    expect(results.noPassword!.code).toBe(1);
    expect(results.noPassword!.stderr).toContain('Set CANDOR_ADMIN_PASSWORD');
    expect(results.noPhone!.code).toBe(1);
    expect(results.noPhone!.stderr).toContain('--phone is required');
    expect(results.badPhone!.code).toBe(1);
    expect(results.badPhone!.stderr).toContain('"12" is not a valid phone number.');
  });

  it('promotes an existing account; the admin logs in with the last password', async () => {
    expect(results.promoted).toMatchObject({ code: 0, stderr: '' });
    expect(results.promoted!.stdout).toContain('+447700900123 is now an admin');

    const database = await openDatabase({ dataDir });
    try {
      // The server this data folder would run: its secrets and identity keys, as the CLI used.
      const app = await createTestApp(
        database,
        { dataDir, identityKeysDir: path.join(dataDir, 'identity-keys') },
        { secrets: resolveSecrets({ jwtSecret: undefined, pseudonymSecret: undefined }, dataDir) },
      );
      try {
        const old = await post(app, '/api/token/', {
          phone_number: '+447700900123',
          password: (await passwordSecrets('first admin passphrase', '+447700900123')).login,
        });
        expect(old.statusCode).toBe(400);
        // The password, then an authenticator app set up at this first login (decision 024).
        const login = await staffLogin(app, {
          phone: '+447700900123',
          // The web app sends the password's login secret, made on the device (decision 020).
          password: (await passwordSecrets('second admin passphrase', '+447700900123')).login,
        });
        const me = await get(app, '/api/v1/user/detail/', { token: login.access });
        expect(json(me)).toMatchObject({
          phone_number: '+447700900123',
          name: 'Root',
          role: 'admin',
          status: 'active',
          country: 'GB',
        });
        // The refused runs created nobody.
        const nobody = await post(app, '/api/token/', {
          phone_number: '+12025550123',
          password: (await passwordSecrets('password123', '+12025550123')).login,
        });
        expect(nobody.statusCode).toBe(400);
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  });
});
