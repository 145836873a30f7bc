import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { findChromium } from './chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
    /** The demo admin the server created at start (DEMO_ADMIN): E.164 number and password. */
    adminPhone: string;
    adminPassword: string;
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

/** Starts the built server on a fresh data folder, as `npm start` would after its build. */
export default async function setup(project: TestProject) {
  findChromium(); // fail early, with the install hint
  const server = path.join(root, 'apps/api/dist/server.js');
  if (!fs.existsSync(server)) throw new Error('Build first: npm run build');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-e2e-'));
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
      // Made-up answers (60 people) so graphs have something to show past the privacy rules.
      SEED_SAMPLE_ANSWERS: 'true',
      // A first admin for the staff-area tests; its random password is printed once, below.
      DEMO_ADMIN: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));

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
  const admin = /Demo admin created: (\+\d+) \/ (\S+)/.exec(output);
  if (!admin) throw new Error(`The server did not print the demo admin:\n${output}`);
  project.provide('baseURL', baseURL);
  project.provide('dataDir', dataDir);
  project.provide('adminPhone', admin[1]!);
  project.provide('adminPassword', admin[2]!);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
