// Real API processes for the process-level tests: the server from source (`node --import tsx
// server.ts`), each on its own port and DATA_DIR, sharing whatever database, Redis and secrets
// the test gives them, with their JSON log lines collected as they come.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { deriveKeys } from '../lib/keys.js';
import { createTokenService } from '../lib/tokens.js';
import { tempDataDir } from './app.js';
import { freePort } from '../lib/free-port.js';
import { openSessions } from './sessions.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const serverEntry = fileURLToPath(new URL('../server.ts', import.meta.url));

/** The secrets every process of a test shares (as every node of a deployment must). */
export const SERVER_SECRETS = {
  jwtSecret: 'process-test-jwt-secret-0123456789abcdef0123456789',
  pseudonymSecret: 'process-test-pseudonym-secret-0123456789abcdef0123',
};

/** Signals a child process and waits for its exit (at once if it has exited already). */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

/** A JSON log line of a server process (pino). */
export interface LogLine {
  pid: number;
  msg: string;
}

export interface ServerProcess {
  /** http://127.0.0.1:<port> */
  origin: string;
  child: ChildProcess;
  dataDir: string;
  /** Its log lines so far (a cluster's workers write through their primary's). */
  lines: LogLine[];
  /** SIGTERM, waits for the exit, removes DATA_DIR. */
  stop(): Promise<void>;
}

/**
 * Starts the server from source with `env` over the test defaults (one process, the shared
 * secrets, no Redis, info logs) and resolves once `/api/health` answers 200. `stdout`: a file
 * descriptor for its standard output, or 'closed' for a pipe nobody reads, closed at once
 * (then `lines` stays empty). `healthy: false` resolves as soon as it is spawned.
 */
export async function startServer(
  env: Record<string, string>,
  {
    stdout = 'pipe',
    healthy = true,
  }: { stdout?: 'pipe' | 'closed' | number; healthy?: boolean } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = tempDataDir();
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      JWT_SECRET: SERVER_SECRETS.jwtSecret,
      PSEUDONYM_SECRET: SERVER_SECRETS.pseudonymSecret,
      WEB_CONCURRENCY: '1',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      REDIS_URL: '',
      PUBLIC_URL: '',
      ...env,
    },
    stdio: ['ignore', typeof stdout === 'number' ? stdout : 'pipe', 'pipe'],
  });
  if (stdout === 'closed') child.stdout?.destroy();
  const lines: LogLine[] = [];
  let rest = '';
  if (stdout === 'pipe')
    child.stdout?.on('data', (chunk: Buffer) => {
      rest += chunk.toString();
      const parts = rest.split('\n');
      rest = parts.pop()!;
      for (const part of parts) {
        if (!part.startsWith('{')) continue;
        try {
          lines.push(JSON.parse(part) as LogLine);
        } catch {
          // not a log line
        }
      }
    });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      // A graceful stop that takes longer than this is reported and then cut short, so a test
      // ends with its own verdict rather than its cleanup's timeout. (Seen once in CI after a
      // worker was killed under load; not reproduced.)
      const slow = setTimeout(() => {
        console.warn(`server ${child.pid} still stopping after 20 s:\n${stderr.slice(-1500)}`);
        try {
          execFileSync('pkill', ['-KILL', '-P', String(child.pid)]); // its workers first
        } catch {
          // none left
        }
        child.kill('SIGKILL');
      }, 20_000);
      await exited;
      clearTimeout(slow);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  if (!healthy) return { origin, child, dataDir, lines, stop };
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/api/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`the server did not start:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { origin, child, dataDir, lines, stop };
}

/** The pids that have said they lead the background work (app.ts), in order. */
export function leaderPids(lines: LogLine[]): number[] {
  return [
    ...new Set(
      lines.filter((l) => l.msg === 'this process leads the background work').map((l) => l.pid),
    ),
  ];
}

/**
 * Verified, active members written straight into the database (signup is tested elsewhere),
 * one per phone number given, each with a session and an access token the servers accept.
 */
export async function insertMembers(
  db: pg.Client,
  phones: string[],
): Promise<Array<{ uuid: string; token: string }>> {
  const { rows } = await db.query<{ uuid: string }>(
    `insert into users (phone_lookup, country, status, phone_verified_at)
     select 'test:' || p, 'US', 'active', now() from unnest($1::text[]) as p
     returning uuid`,
    [phones],
  );
  const tokens = createTokenService(deriveKeys({ jwtSecret: SERVER_SECRETS.jwtSecret }), {
    accessTtlSeconds: 600,
  });
  const sids = await openSessions(
    db,
    rows.map((r) => r.uuid),
  );
  return Promise.all(
    rows.map(async ({ uuid }, i) => ({
      uuid,
      token: await tokens.signAccess({ sub: uuid, role: 'member', sid: sids[i]! }),
    })),
  );
}

/** Deletes the keys under `prefix` (a test's own namespace), never anything else. */
export async function dropRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** The live child processes of `pid` (Linux: /proc), e.g. a cluster's workers. */
export function childPids(pid: number): number[] {
  return fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
}

/**
 * How many established TCP connections on local `port` each of `pids` holds (Linux: from
 * /proc/net/tcp and each process's open files).
 */
export function connectionsHeld(pids: number[], port: number): number[] {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = fs.existsSync(table) ? fs.readFileSync(table, 'utf8').trim().split('\n') : [];
    for (const line of lines.slice(1)) {
      const f = line.trim().split(/\s+/);
      const localPort = parseInt(f[1]!.split(':')[1]!, 16);
      if (localPort === port && f[3] === '01') inodes.add(f[9]!);
    }
  }
  return pids.map((pid) => {
    let held = 0;
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      try {
        const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '')) held += 1;
      } catch {
        // closed meanwhile
      }
    }
    return held;
  });
}
