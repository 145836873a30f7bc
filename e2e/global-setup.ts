import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { passwordSecrets } from '@candor/contracts';
import type { TestProject } from 'vitest/node';
import { findChromium } from './chromium';
import { keepSecret, nextCode, totpDir } from './second-factor';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
    /** Where each test file claims its block of addresses and numbers (see people.ts). */
    blocksDir: string;
    /**
     * The first admin, made by `npm run create-admin` before the server started; its
     * authenticator was set up at its first login here (second-factor.ts keeps the secret).
     */
    firstAdmin: { e164: string; password: string };
  }
}

const root = fileURLToPath(new URL('..', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Runs `npm run create-admin` as an operator would, before the server holds the data folder. */
async function createFirstAdmin(env: NodeJS.ProcessEnv, admin: { e164: string; password: string }) {
  const child = spawn('npm', ['run', '--silent', 'create-admin', '--', '--phone', admin.e164], {
    cwd: root,
    env: { ...env, CANDOR_ADMIN_PASSWORD: admin.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`npm run create-admin failed:\n${output}`);
}

/**
 * The first admin's first login, as the operator would make it: the password, then an
 * authenticator set up (decision 024). Its secret stays in the run's folder for the tests.
 */
async function enrolFirstAdmin(
  baseURL: string,
  admin: { e164: string; password: string },
  dir: string,
) {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${baseURL}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  // The web app's login secret for the password (decision 020), as the login screen sends it.
  const { challenge } = await post('/api/token/', {
    phone_number: admin.e164,
    password: (await passwordSecrets(admin.password, admin.e164)).login,
  });
  const { secret } = await post('/api/token/totp/enrol/', { challenge });
  keepSecret(admin.e164, secret as string, dir);
  await post('/api/token/totp/', { challenge, code: await nextCode(admin.e164, dir) });
}

/** Starts the built server on a fresh data folder, as `npm start` would after its build. */
export default async function setup(project: TestProject) {
  findChromium(); // fail early, with the install hint
  const server = path.join(root, 'apps/api/dist/server.js');
  if (!fs.existsSync(server)) throw new Error('Build first: npm run build');
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-e2e-'));
  const dataDir = path.join(runDir, 'data');
  const blocksDir = path.join(runDir, 'blocks');
  fs.mkdirSync(blocksDir);
  const firstAdmin = {
    e164: '+15555550100',
    password: `first admin ${crypto.randomBytes(9).toString('base64url')}`,
  };
  await createFirstAdmin({ ...process.env, DATA_DIR: dataDir }, firstAdmin);

  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [server], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // A 2-second access token makes every test exercise the refresh rule.
      ACCESS_TOKEN_TTL: '2',
      // Each test person sends its own X-Forwarded-For, as a proxy on this machine would add
      // it, so the per-address signup risk checks see several people rather than one.
      TRUST_PROXY: '127.0.0.1',
      // Snapshots every second: a test sees its own answers counted without waiting.
      RESULTS_REFRESH_SECONDS: '1',
      // Answers redeemed with credentials are mixed within a second or two, not after 10 people
      // or 10 minutes: a test sees its own answers stored (the mixer runs with the refresh).
      MIX_MAX_WAIT_SECONDS: '1',
      // Made-up answers (60 people) so graphs have something to show past the privacy rules.
      SEED_SAMPLE_ANSWERS: 'true',
      // Webhooks: events found and sent every second, to receivers on this machine only.
      WEBHOOK_INTERVAL_SECONDS: '1',
      WEBHOOK_ALLOWED_PRIVATE: '127.0.0.1/32',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited early:\n${output}`);
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  await enrolFirstAdmin(baseURL, firstAdmin, totpDir(runDir));
  project.provide('baseURL', baseURL);
  project.provide('dataDir', dataDir);
  project.provide('blocksDir', blocksDir);
  project.provide('firstAdmin', firstAdmin);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(runDir, { recursive: true, force: true });
  };
}
