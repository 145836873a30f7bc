import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { createScratchPostgres } from '../apps/api/src/test/database';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** Machine, versions and date: printed at the top of every run. */
export function machineInfo(): string {
  const cpus = os.cpus();
  const pg = (() => {
    try {
      return execFileSync('psql', ['--version'], { encoding: 'utf8' }).trim();
    } catch {
      return 'psql not found';
    }
  })();
  return [
    `date: ${new Date().toISOString()}`,
    `machine: ${cpus.length} x ${cpus[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
    `node: ${process.version}; ${pg}`,
  ].join('\n');
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export async function waitFor(
  url: string,
  child: ChildProcess,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${url}: not up after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The PostgreSQL server the benchmarks use (a database on it they may create and drop). */
export const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh, empty PostgreSQL database beside `adminUrl`, and a way to drop it. */
export const createPostgresDatabase = () => createScratchPostgres(adminUrl, 'candor_bench');

/** Runs `fn` with a fresh PostgreSQL database, dropped afterwards. */
export async function withPostgresDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const database = await createPostgresDatabase();
  try {
    return await fn(database.url);
  } finally {
    await database.drop();
  }
}

export interface Server {
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * The Node options `npm run serve` gives the server (package.json's `serve` script), so that a
 * benchmark runs it as a deployment does.
 */
function serveOptions(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { serve: string };
  };
  return pkg.scripts.serve.split(/\s+/).filter((word) => word.startsWith('--'));
}

/**
 * Starts the built Candor server (npm run build first) with extra environment. `heapLog`: a file
 * the server appends its heap to after every full garbage collection (bench/memory-probe.mjs).
 */
export async function startCandor(
  env: Record<string, string>,
  { heapLog }: { heapLog?: string } = {},
): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-bench-'));
  // BENCH_CPU_PROF=<folder> writes a V8 CPU profile of each server (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const probe = heapLog
    ? ['--import', pathToFileURL(path.join(root, 'bench/memory-probe.mjs')).href]
    : [];
  // BENCH_SERVER_NODE_ARGS: more Node options for the server only (`--heapsnapshot-signal=SIGUSR2`
  // with `--diagnostic-dir=<folder>` lets `kill -USR2` write heap snapshots to compare).
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // BENCH_SERVER_ENTRY (in `env`): another build's server file, relative to the repository (a
  // copy of apps/api/dist built from another commit), for a side-by-side run (bench/ab.ts).
  const entry = path.join(root, env.BENCH_SERVER_ENTRY ?? 'apps/api/dist/server.js');
  const server = await serve(
    [...serveOptions(), ...profile, ...probe, ...extra, entry],
    '/api/health',
    {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // One API process unless a scenario asks for a cluster (comparable with earlier figures).
      WEB_CONCURRENCY: '1',
      ...(heapLog ? { BENCH_MEMORY_PROBE: heapLog } : {}),
      ...env,
    },
    port,
  );
  return {
    ...server,
    stop: async () => {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The baseline server (bench/bare-server.ts): bare Fastify sending the bytes `sourceUrl` sent,
 * on GET /bare, and taking answers on Candor's answer path without a database.
 */
export async function startBare(sourceUrl: string): Promise<Server> {
  const port = await freePort();
  const script = path.join(root, 'bench/bare-server.ts');
  return serve(['--import', 'tsx', script, String(port), sourceUrl], '/bare', process.env, port);
}

/** A Node process serving on `port`, up once `readyPath` answers; stop() ends it. */
async function serve(
  args: string[],
  readyPath: string,
  env: NodeJS.ProcessEnv,
  port: number,
): Promise<Server> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}${readyPath}`, child);
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return; // stopped already
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Path of a survey page (the first question of the first listed survey) on a running server. */
export async function surveyPath(baseUrl: string): Promise<string> {
  const list = (await (
    await fetch(`${baseUrl}/api/v1/surveys/open-closed-random-video-surveys`)
  ).json()) as { results: Array<{ gid: string }> };
  const gid = list.results[0]?.gid;
  if (!gid) throw new Error('No survey listed: is the sample content seeded?');
  return `/surveys/${gid}`;
}

/** A page path for a table, with the survey id hidden so runs compare. */
export const pathLabel = (pathname: string) => pathname.replace(/[0-9a-f-]{36}/, '{gid}');

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One autocannon run: requests/s (mean), latency p50/p99 in ms, non-2xx + errors. */
export async function load(url: string, connections = 50, seconds = 8): Promise<LoadResult> {
  const r = await autocannon({ url, connections, duration: seconds });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx + r.timeouts,
  };
}

/** Median of several runs of each metric. */
export async function loadMedian(url: string, runs = 3, connections = 50, seconds = 8) {
  const results: LoadResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await load(url, connections, seconds));
  return {
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    errors: results.reduce((n, r) => n + r.errors, 0),
  };
}
