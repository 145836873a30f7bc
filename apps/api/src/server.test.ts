// Process level: the real server from source on an embedded PGlite data folder, as `npm start` runs it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Secrets } from './lib/secrets.js';
import { freePort } from './lib/free-port.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const serverEntry = fileURLToPath(new URL('./server.ts', import.meta.url));

interface Server {
  child: ChildProcess;
  port: number;
  output: () => { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

const servers: Server[] = [];
const tempDirs: string[] = [];

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** The pid the holder of DATA_DIR's lock wrote into it (db/lock.ts). */
function lockHolderPid(dataDir: string): unknown {
  const info = JSON.parse(fs.readFileSync(path.join(dataDir, 'candor.lock'), 'utf8')) as {
    pid?: unknown;
  };
  return info.pid;
}

async function startServer(dataDir: string, webDistDir: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_DIST_DIR: webDistDir,
      LOG_LEVEL: 'warn',
      // Embedded mode whatever the surrounding shell says (empty counts as unset).
      DATABASE_URL: '',
      JWT_SECRET: '',
      PSEUDONYM_SECRET: '',
      PUBLIC_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const server = { child, port, output: () => ({ stdout, stderr }), exited };
  servers.push(server);
  return server;
}

const url = (server: Server, pathname: string) => `http://127.0.0.1:${server.port}${pathname}`;

async function waitForHealth(server: Server, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) break;
    try {
      const res = await fetch(url(server, '/api/health'));
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const { stdout, stderr } = server.output();
  throw new Error(
    `Server on port ${server.port} not healthy (exit code ${server.child.exitCode}).\n` +
      `stdout:\n${stdout}\nstderr:\n${stderr}`,
  );
}

/** Resolves with the exit code, or rejects when the process outlives `ms`. */
function exitWithin(server: Server, ms: number): Promise<number | null> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const { stdout, stderr } = server.output();
      reject(new Error(`still running after ${ms} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, ms);
  });
  return Promise.race([server.exited, timeout]).finally(() => clearTimeout(timer));
}

describe('server process on an embedded data folder', () => {
  let dataDir: string;
  let webDist: string;
  let first: Server;

  beforeAll(async () => {
    dataDir = path.join(tempDir('candor-server-'), 'data');
    webDist = tempDir('candor-web-empty-');
    first = await startServer(dataDir, webDist);
    await waitForHealth(first, 60_000);
  }, 90_000);

  afterAll(async () => {
    for (const server of servers) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    }
    for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts on a new folder with the sample content, a lock and private secrets', async () => {
    const res = await fetch(url(first, '/api/v1/surveys/open-closed-random-video-surveys'));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { count: number }).count).toBe(6);

    expect(lockHolderPid(dataDir)).toBe(first.child.pid);

    const secretsFile = path.join(dataDir, 'secrets.json');
    expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);
    const secrets = JSON.parse(fs.readFileSync(secretsFile, 'utf8')) as Secrets;
    expect(secrets.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(secrets.pseudonymSecret.length).toBeGreaterThanOrEqual(32);
    expect(secrets.jwtSecret).not.toBe(secrets.pseudonymSecret);
  });

  it('serves the API only, with a JSON 404 elsewhere, when the web app is not built', async () => {
    const res = await fetch(url(first, '/some/page'));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: 'Not found.', code: 'NOT_FOUND' });
  });

  it('refuses a second server on the same folder with a clear message; the first keeps serving', async () => {
    const second = await startServer(dataDir, webDist);
    expect(await exitWithin(second, 30_000)).toBe(1);
    expect(second.output().stderr).toContain('already using the data folder');
    expect(second.output().stderr).toContain(dataDir);

    // The refused server left the lock of the first alone.
    expect(lockHolderPid(dataDir)).toBe(first.child.pid);

    const res = await fetch(url(first, '/api/v1/surveys/open-closed-random-video-surveys'));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { count: number }).count).toBe(6);
  }, 45_000);

  it('shuts down cleanly on SIGTERM and releases the folder', async () => {
    first.child.kill('SIGTERM');
    expect(await exitWithin(first, 20_000)).toBe(0);
    expect(first.output().stderr).toBe('');
    // Released: the next server starts at once (the file stays; the kernel's lock is gone).
    const next = await startServer(dataDir, webDist);
    await waitForHealth(next, 60_000);
    next.child.kill('SIGTERM');
    expect(await exitWithin(next, 20_000)).toBe(0);
  }, 90_000);

  /** SIGKILLs `server` (a crash: nothing cleaned up), then starts another on the same folder. */
  async function crashAndRestart(server: Server, beforeRestart?: () => void): Promise<Server> {
    server.child.kill('SIGKILL');
    await server.exited;
    beforeRestart?.();
    const next = await startServer(dataDir, webDist);
    await waitForHealth(next, 60_000);
    const res = await fetch(url(next, '/api/v1/surveys/open-closed-random-video-surveys'));
    expect(((await res.json()) as { count: number }).count).toBe(6);
    return next;
  }

  let crashed: Server;

  const writeStaleLock = (pid: number, hostname: string) =>
    fs.writeFileSync(
      path.join(dataDir, 'candor.lock'),
      JSON.stringify({ pid, hostname, startedAt: '2020-01-01T00:00:00Z' }),
    );

  it('restarts at once after SIGKILL, over the lock file the killed server left', async () => {
    let server = await startServer(dataDir, webDist);
    await waitForHealth(server, 60_000);
    for (let round = 0; round < 2; round++) {
      const killedPid = server.child.pid;
      server = await crashAndRestart(server, () => {
        expect(lockHolderPid(dataDir)).toBe(killedPid);
      });
    }
    crashed = server;
  }, 180_000);

  it('starts over a stale lock naming another host (a recreated container)', async () => {
    crashed = await crashAndRestart(crashed, () => writeStaleLock(1, 'container-before-recreate'));
  }, 90_000);

  it('starts over a stale lock naming a pid now used by an unrelated live process', async () => {
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    await once(sleeper, 'spawn');
    try {
      crashed = await crashAndRestart(crashed, () => writeStaleLock(sleeper.pid!, os.hostname()));
    } finally {
      sleeper.kill('SIGKILL');
    }
    crashed.child.kill('SIGTERM');
    expect(await exitWithin(crashed, 20_000)).toBe(0);
  }, 90_000);

  it('lets exactly one of two servers started together on one folder run', async () => {
    const fresh = path.join(tempDir('candor-race-'), 'data');
    const pair = await Promise.all([startServer(fresh, webDist), startServer(fresh, webDist)]);
    const outcomes = await Promise.all(
      pair.map((server) =>
        waitForHealth(server, 60_000).then(
          () => 'running' as const,
          () => 'refused' as const,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'running')).toHaveLength(1);
    const loser = pair[outcomes.indexOf('refused')]!;
    expect(await exitWithin(loser, 30_000)).toBe(1);
    expect(loser.output().stderr).toContain('already using the data folder');
    expect(loser.output().stderr).toContain(fresh);
    const winner = pair[outcomes.indexOf('running')]!;
    const res = await fetch(url(winner, '/api/v1/surveys/open-closed-random-video-surveys'));
    expect(((await res.json()) as { count: number }).count).toBe(6);
  }, 120_000);
});
