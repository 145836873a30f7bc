// Process level: the real server from source in cluster mode (WEB_CONCURRENCY=2) on PostgreSQL.
// A worker is SIGKILLed while members answer: every answer acknowledged is stored, the
// background work moves to the other worker, and the primary starts a new one.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { SurveyListSchema } from '@candor/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchPostgres } from '../test/database.js';

const adminUrl = process.env.TEST_DATABASE_URL;
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const serverEntry = fileURLToPath(new URL('../server.ts', import.meta.url));

async function freePort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as net.AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

/** JSON log lines of the processes (pino), as they come. */
interface LogLine {
  pid: number;
  msg: string;
}

describe.skipIf(!adminUrl)('cluster mode on postgres', () => {
  // Undefined when beforeAll failed before making them; afterAll undoes what exists.
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | undefined;
  let primary: ChildProcess | undefined;
  let databaseUrl: string;
  let base: string;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    scratch = await createScratchPostgres(adminUrl!);
    databaseUrl = scratch.url;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    primary = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        JWT_SECRET: 'cluster-test-jwt-secret-0123456789abcdef0123456789',
        PSEUDONYM_SECRET: 'cluster-test-pseudonym-secret-0123456789abcdef01234',
        WEB_CONCURRENCY: '2',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        RESULTS_REFRESH_SECONDS: '1',
        REDIS_URL: '',
        PUBLIC_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let rest = '';
    primary.stdout!.on('data', (chunk: Buffer) => {
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
    primary.stderr!.resume();
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`${base}/api/health`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline || primary.exitCode !== null) throw new Error('no cluster');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 90_000);

  afterAll(async () => {
    if (primary?.exitCode === null) {
      const exited = once(primary, 'exit');
      primary.kill('SIGTERM');
      await exited;
    }
    await scratch?.drop();
  });

  const leaders = () => {
    const leading = new Map<number, boolean>();
    for (const l of lines) {
      if (l.msg === 'this process leads the background work') leading.set(l.pid, true);
    }
    return [...leading.keys()];
  };

  it('loses no acknowledged answer when a worker is killed, and the lead moves on', async () => {
    await expect.poll(() => leaders().length, { timeout: 15_000 }).toBe(1);
    const [leader] = leaders() as [number];

    // Members answer one closed question each, 8 at a time, while the leader is killed.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const list = SurveyListSchema.parse(
        await (await fetch(`${base}/api/v1/surveys/open-closed-random-video-surveys`)).json(),
      );
      const question = list.results.flatMap((s) => s.questions).find((q) => q.type === 'Closed')!;
      const acknowledged: string[] = [];
      let failed = 0;
      const answerOnce = async (i: number) => {
        // A member made straight in the database (signup is tested elsewhere) and its token.
        const { rows } = await db.query<{ uuid: string }>(
          `insert into users (phone_e164, year_of_birth, gender, country, status, phone_verified_at)
           values ($1, 1990, 'female', 'US', 'active', now()) returning uuid`,
          [`+1555${String(1_000_000 + i).slice(1)}`],
        );
        const uuid = rows[0]!.uuid;
        const token = await signedToken(uuid);
        try {
          const res = await fetch(`${base}/api/v1/questions/${question.qid}/answer/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ choice: question.choices[0] }),
          });
          if (res.status === 201) acknowledged.push(uuid);
          else failed += 1;
        } catch {
          failed += 1; // the connection died with the worker: not acknowledged
        }
      };
      let next = 0;
      const runner = async () => {
        while (next < 240) await answerOnce(next++);
      };
      const load = Promise.all(Array.from({ length: 8 }, runner));
      await new Promise((r) => setTimeout(r, 300));
      process.kill(leader, 'SIGKILL');
      await load;

      expect(acknowledged.length).toBeGreaterThan(200);
      const { rows: stored } = await db.query<{ n: number }>(
        'select count(*)::int as n from answers where question_id = (select id from questions where qid = $1)',
        [question.qid],
      );
      // Every acknowledged answer is stored (a request cut with the worker may be stored too).
      expect(stored[0]!.n).toBeGreaterThanOrEqual(acknowledged.length);
      expect(stored[0]!.n).toBeLessThanOrEqual(acknowledged.length + failed);
    } finally {
      await db.end();
    }
    // Another process leads, and the primary has started one in place of the dead.
    await expect
      .poll(() => leaders().filter((pid) => pid !== leader).length, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    await expect
      .poll(() => lines.some((l) => l.msg === 'an API process ended; starting another'), {
        timeout: 15_000,
      })
      .toBe(true);
  }, 120_000);
});

/** An access token as the cluster signs it (same JWT_SECRET). */
async function signedToken(uuid: string): Promise<string> {
  const { createTokenService } = await import('../lib/tokens.js');
  const { deriveKeys } = await import('../lib/keys.js');
  const tokens = createTokenService(
    deriveKeys({ jwtSecret: 'cluster-test-jwt-secret-0123456789abcdef0123456789' }),
    { accessTtlSeconds: 600 },
  );
  return tokens.signAccess({ sub: uuid, role: 'member' });
}
