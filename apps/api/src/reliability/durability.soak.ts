// Durability: writers submit unique answers while the API process is killed with SIGKILL every
// few seconds and started again; afterwards every answer that got a 2xx must be stored, once.
// On PGlite (the embedded default, a data folder) and on PostgreSQL. `npm run test:soak`.
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../db/embedded-postgres.js';
import { choices, questions, surveys, users } from '../db/schema.js';
import { seedSampleContent } from '../db/seed/seed.js';
import { deriveKeys } from '../lib/keys.js';
import { createTokenService } from '../lib/tokens.js';
import { createScratchPostgres } from '../test/database.js';
import { openSessions } from '../test/sessions.js';
import { stopProcess } from '../test/servers.js';
import { freePort } from '../lib/free-port.js';

const serverEntry = fileURLToPath(new URL('../server.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const SECONDS = Number(process.env.SOAK_DURABILITY_SECONDS ?? 40);
const WRITERS = 8;
const MEMBERS = 400;
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Target {
  qid: string;
  choice: string;
}

/** Migrates, seeds, adds members straight in SQL; returns their tokens and the open questions. */
async function prepare(where: Where, jwtSecret: string) {
  const database = await openDatabase({
    dataDir: where.dataDir ?? null,
    databaseUrl: where.databaseUrl,
    embedded: where.embedded,
  });
  try {
    await database.migrate();
    await seedSampleContent(database.db);
    const open = await database.db
      .select({ id: questions.id, qid: questions.qid })
      .from(questions)
      .innerJoin(surveys, eq(surveys.id, questions.surveyId))
      .where(
        and(
          eq(questions.type, 'Closed'),
          isNotNull(surveys.publishedAt),
          lte(surveys.releaseDate, new Date()),
          isNull(surveys.closedAt),
        ),
      );
    const labels = await database.db.select().from(choices);
    const targets: Target[] = open.map((q) => ({
      qid: q.qid,
      choice: labels.find((c) => c.questionId === q.id && !c.isBlank)!.label,
    }));
    await database.db.execute(sql`
      insert into users (phone_e164, country, status, phone_verified_at)
      select '+1555' || lpad(g::text, 7, '0'), 'US', 'active', now()
      from generate_series(1, ${MEMBERS}) g`);
    const uuids = (await database.db.select({ uuid: users.uuid }).from(users)).map((u) => u.uuid);
    const signer = createTokenService(deriveKeys({ jwtSecret }), { accessTtlSeconds: 3600 });
    const sids = await openSessions(database.db, uuids);
    const tokens = await Promise.all(
      uuids.map((sub, i) => signer.signAccess({ sub, role: 'member', sid: sids[i]! })),
    );
    return { tokens, targets };
  } finally {
    await database.close();
  }
}

function start(env: Record<string, string>, port: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: repoRoot,
    // One process: the cluster's own kill test is reliability/cluster.test.ts.
    env: {
      ...process.env,
      WEB_CONCURRENCY: '1',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

async function healthy(port: number, child: ChildProcess, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not healthy (exit ${child.exitCode})`);
}

/** Reads every acknowledged answer back through the API: how many are missing or doubled. */
async function readBack(
  port: number,
  tokens: string[],
  targets: Target[],
  acked: Array<{ member: number; target: number }>,
) {
  const byMember = new Map<number, number[]>();
  for (const a of acked) byMember.set(a.member, [...(byMember.get(a.member) ?? []), a.target]);
  let lost = 0;
  let duplicated = 0;
  for (const [member, own] of byMember) {
    const res = await fetch(
      `http://127.0.0.1:${port}/api/v1/questions/my-attempted-questions/?page_size=100`,
      {
        headers: { authorization: `Bearer ${tokens[member]}` },
        signal: AbortSignal.timeout(10_000),
      },
    );
    const stored = ((await res.json()) as { results: Array<{ qid: string }> }).results.map(
      (r) => r.qid,
    );
    for (const target of own) {
      const times = stored.filter((q) => q === targets[target]!.qid).length;
      if (times === 0) lost++;
      if (times > 1) duplicated++;
    }
  }
  return { lost, duplicated };
}

/** SIGKILL to the embedded PostgreSQL of `dataDir` (its backends exit when it dies). */
function killPostmaster(dataDir: string): void {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

interface Where {
  dataDir?: string;
  databaseUrl?: string;
  embedded?: 'postgres' | 'pglite';
}

async function run(env: Record<string, string>, where: Where) {
  const jwtSecret = crypto.randomBytes(48).toString('base64url');
  const secrets = {
    JWT_SECRET: jwtSecret,
    PSEUDONYM_SECRET: crypto.randomBytes(48).toString('base64url'),
  };
  const { tokens, targets } = await prepare(where, jwtSecret);
  const port = await freePort();
  const fullEnv = { ...env, ...secrets, SEED_SAMPLE_CONTENT: 'false', ANALYTICS: 'off' };

  const acked: Array<{ member: number; target: number }> = [];
  let next = 0;
  let refused = 0;
  let failed = 0;
  let kills = 0;
  const stopAt = Date.now() + SECONDS * 1000;
  let child = start(fullEnv, port);
  await healthy(port, child);

  const writer = async () => {
    while (Date.now() < stopAt) {
      const n = next++;
      const member = n % tokens.length;
      const target = Math.floor(n / tokens.length) % targets.length;
      if (n >= tokens.length * targets.length) return;
      const t = targets[target]!;
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/questions/${t.qid}/answer/`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${tokens[member]}`,
          },
          body: JSON.stringify({ choice: t.choice }),
          signal: AbortSignal.timeout(5000),
        });
        if (res.status === 201 || res.status === 200) acked.push({ member, target });
        else refused++;
        await res.arrayBuffer();
      } catch {
        failed++; // the server was killed under this request: neither acknowledged nor refused
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const killer = async () => {
    while (Date.now() < stopAt - 3000) {
      await new Promise((r) => setTimeout(r, 2000 + Math.random() * 2000));
      await stopProcess(child, 'SIGKILL');
      // The embedded PostgreSQL goes down too (a crash of the machine, short of the power): what
      // it acknowledged must come back from its write-ahead log.
      if (where.embedded === 'postgres' && where.dataDir) killPostmaster(where.dataDir);
      kills++;
      child = start(fullEnv, port);
      await healthy(port, child);
    }
  };
  await Promise.all([killer(), ...Array.from({ length: WRITERS }, writer)]);

  // Every acknowledged answer, read back through the API after one more kill and restart.
  await stopProcess(child, 'SIGKILL');
  child = start(fullEnv, port);
  await healthy(port, child);
  const { lost, duplicated } = await readBack(port, tokens, targets, acked);
  await stopProcess(child, 'SIGTERM');
  return { seconds: SECONDS, acked: acked.length, refused, failed, kills, lost, duplicated };
}

/** Prints the figures and keeps them in test-results/durability-<engine>.json for the docs. */
function report(engine: string, result: object) {
  const line = `durability ${engine}: ${JSON.stringify({ writers: WRITERS, ...result })}\n`;
  process.stdout.write(line);
  const dir = path.join(repoRoot, 'test-results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `durability-${engine.toLowerCase()}.json`), line);
}

describe('durability under SIGKILL', () => {
  // The embedded default (its own PostgreSQL, decision 013) and PGlite (EMBEDDED_DATABASE=pglite).
  for (const [engine, name] of [
    ['postgres', 'Embedded PostgreSQL'],
    ['pglite', 'PGlite'],
  ] as const) {
    it(
      `${name}: every acknowledged answer is stored exactly once`,
      { timeout: 600_000 },
      async () => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-durability-'));
        try {
          const result = await run(
            { DATA_DIR: dataDir, DATABASE_URL: '', EMBEDDED_DATABASE: engine },
            { dataDir, embedded: engine },
          );
          report(name.replace(' ', '-'), result);
          expect(result.kills).toBeGreaterThan(3);
          expect(result.acked).toBeGreaterThan(100);
          expect({ lost: result.lost, duplicated: result.duplicated }).toEqual({
            lost: 0,
            duplicated: 0,
          });
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      },
    );
  }

  it(
    'PostgreSQL: every acknowledged answer is stored exactly once',
    { timeout: 600_000 },
    async () => {
      const scratch = await createScratchPostgres(adminUrl, 'candor_durability');
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-durability-pg-'));
      try {
        const result = await run(
          { DATABASE_URL: scratch.url, DATA_DIR: dataDir },
          { databaseUrl: scratch.url },
        );
        report('PostgreSQL', result);
        expect(result.kills).toBeGreaterThan(3);
        expect(result.acked).toBeGreaterThan(100);
        expect({ lost: result.lost, duplicated: result.duplicated }).toEqual({
          lost: 0,
          duplicated: 0,
        });
      } finally {
        await scratch.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});

describe('PostgreSQL restarted under load', () => {
  // A PostgreSQL of its own (the embedded default's binaries, on a fixed port), so stopping it
  // disturbs nothing else on the machine: not the PostgreSQL the other tests and CI use.
  it(
    'answers 503 quickly while it is down, recovers by itself, loses nothing acknowledged',
    { timeout: 600_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-restart-'));
      const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-restart-pg-'));
      const pgPort = await freePort();
      const first = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort });
      // Undefined while it is stopped.
      let postgres = first as EmbeddedPostgres | undefined;
      const jwtSecret = crypto.randomBytes(48).toString('base64url');
      const env = {
        DATABASE_URL: first.url,
        DATA_DIR: dataDir,
        JWT_SECRET: jwtSecret,
        PSEUDONYM_SECRET: crypto.randomBytes(48).toString('base64url'),
        SEED_SAMPLE_CONTENT: 'false',
        ANALYTICS: 'off',
      };
      const port = await freePort();
      const child = start(env, port);
      try {
        const { tokens, targets } = await prepare({ databaseUrl: first.url }, jwtSecret);
        await healthy(port, child);
        const seen: Array<{ at: number; status: number; ms: number }> = [];
        const acked: Array<{ member: number; target: number }> = [];
        let next = 0;
        const began = Date.now();
        const stopAt = began + 24_000;
        const writer = async () => {
          while (Date.now() < stopAt) {
            const n = next++;
            const member = n % tokens.length;
            const target = Math.floor(n / tokens.length) % targets.length;
            const t = targets[target]!;
            const sent = Date.now();
            let status = 0;
            try {
              const res = await fetch(
                `http://127.0.0.1:${port}/api/v1/questions/${t.qid}/answer/`,
                {
                  method: 'POST',
                  headers: {
                    'content-type': 'application/json',
                    authorization: `Bearer ${tokens[member]}`,
                  },
                  body: JSON.stringify({ choice: t.choice }),
                  signal: AbortSignal.timeout(10_000),
                },
              );
              status = res.status;
              await res.arrayBuffer();
            } catch {
              status = -1;
            }
            seen.push({ at: sent, status, ms: Date.now() - sent });
            if (status === 200 || status === 201) acked.push({ member, target });
            if (status !== 201 && status !== 200) await new Promise((r) => setTimeout(r, 20));
          }
        };
        let downAt = 0;
        let startingAt = 0;
        let upAt = 0;
        const operator = async () => {
          await new Promise((r) => setTimeout(r, 6000));
          downAt = Date.now();
          await postgres!.stop();
          postgres = undefined;
          await new Promise((r) => setTimeout(r, 6000));
          startingAt = Date.now();
          postgres = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort });
          upAt = Date.now();
        };
        await Promise.all([operator(), ...Array.from({ length: WRITERS }, writer)]);
        // The same process throughout: losing its database must not end it.
        expect(child.exitCode).toBeNull();

        // While it was down (sent a second after the stop, answered before the start began):
        // 503s, and quick ones.
        const down = seen.filter((s) => s.at > downAt + 1000 && s.at + s.ms < startingAt);
        const statuses = [...new Set(down.map((s) => s.status))];
        const slowest = Math.max(...down.map((s) => s.ms));
        const recovered = seen.find((s) => s.at >= upAt && (s.status === 201 || s.status === 200));
        const recoverySeconds = recovered ? (recovered.at - upAt) / 1000 : Infinity;
        const { lost, duplicated } = await readBack(port, tokens, targets, acked);
        const result = {
          seconds: 24,
          downSeconds: 6,
          acked: acked.length,
          whileDown: down.length,
          statusesWhileDown: statuses,
          slowestWhileDownMs: slowest,
          recoverySeconds,
          lost,
          duplicated,
        };
        report('postgres-restart', result);
        expect(down.length).toBeGreaterThan(10);
        expect(statuses).toEqual([503]);
        expect(slowest).toBeLessThan(1000);
        expect(recoverySeconds).toBeLessThan(10);
        expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
      } finally {
        await stopProcess(child, 'SIGTERM');
        await postgres?.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.rmSync(pgDir, { recursive: true, force: true });
      }
    },
  );
});
