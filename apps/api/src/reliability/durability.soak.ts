// Durability: writers submit unique answers, each with its member's credential for the survey
// (asked beforehand, as at login), while the API process is killed with SIGKILL every few seconds
// and started again; afterwards every answer that got a 2xx must be kept (its receipt: sending it
// again is a replay) and stored once, mixed or still waiting in the inbox.
// On PGlite (the embedded default, a data folder) and on PostgreSQL. `npm run test:soak`.
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../db/embedded-postgres.js';
import { answerInbox, answers, choices, questions, surveys, users } from '../db/schema.js';
import { seedSampleContent } from '../db/seed/seed.js';
import { deriveCredentialKeys, deriveKeys } from '../lib/keys.js';
import { createTokenService } from '../lib/tokens.js';
import { obtainCredentialsOverHttp, redeemOverHttp } from '../test/credentials.js';
import { createScratchPostgres } from '../test/database.js';
import { inboxEntries } from '../modules/credentials/credentials.service.js';
import { openSessions } from '../test/sessions.js';
import { stopProcess } from '../test/servers.js';
import { freePort } from '../lib/free-port.js';

const serverEntry = fileURLToPath(new URL('../server.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const SECONDS = Number(process.env.SOAK_DURABILITY_SECONDS ?? 40);
const WRITERS = 8;
const MEMBERS = 400;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Target {
  id: number;
  qid: string;
  gid: string;
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
      .select({ id: questions.id, qid: questions.qid, gid: surveys.gid })
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
      id: q.id,
      qid: q.qid,
      gid: q.gid,
      choice: labels.find((c) => c.questionId === q.id && !c.isBlank)!.label,
    }));
    await database.db.execute(sql`
      insert into users (phone_lookup, country, status, phone_verified_at)
      select 'bench:' || g, 'US', 'active', now()
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

/** Each member's credential per survey, asked through the API 8 members at a time. */
async function obtainAll(port: number, tokens: string[], targets: Target[]) {
  const gids = [...new Set(targets.map((t) => t.gid))];
  const held: Array<Map<string, string>> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < tokens.length) {
        const m = next++;
        held[m] = await obtainCredentialsOverHttp(`http://127.0.0.1:${port}`, tokens[m]!, gids);
      }
    }),
  );
  return held;
}

/** The answer `member` sends to `target`, with its credential and no session. */
function sendAnswer(
  port: number,
  credentials: Array<Map<string, string>>,
  targets: Target[],
  member: number,
  target: number,
  ms: number,
) {
  const t = targets[target]!;
  return redeemOverHttp(
    `http://127.0.0.1:${port}`,
    t.qid,
    credentials[member]!.get(t.gid)!,
    { choice: t.choice },
    { signal: AbortSignal.timeout(ms) },
  );
}

/**
 * Every acknowledged answer sent again through the API: a replay (200) when the server kept it,
 * a new answer (201) when it lost it. Answers carry no account, so no list per member exists
 * to read back.
 */
async function readBack(
  port: number,
  credentials: Array<Map<string, string>>,
  targets: Target[],
  acked: Array<{ member: number; target: number }>,
) {
  let lost = 0;
  for (const a of acked) {
    const res = await sendAnswer(port, credentials, targets, a.member, a.target, 10_000);
    await res.arrayBuffer();
    if (res.status !== 200) lost++;
  }
  return lost;
}

/**
 * With the server stopped: the answers to the targets stored (mixed) or still waiting sealed in
 * the inbox. No more than were ever sent: none is stored twice.
 */
async function storedOrWaiting(
  where: Where,
  targets: Target[],
  pseudonymSecret: string,
): Promise<number> {
  const database = await openDatabase({
    dataDir: where.dataDir ?? null,
    databaseUrl: where.databaseUrl,
    embedded: where.embedded,
  });
  try {
    const ids = targets.map((t) => t.id);
    const count = async (query: ReturnType<typeof sql>) =>
      Number(rowsOf<{ n: number | string }>(await database.db.execute(query))[0]!.n);
    // An inbox row holds the answers one commit redeemed: opened with the run's secret.
    const { inbox } = deriveCredentialKeys({ pseudonymSecret });
    const rows = await database.db.select({ payload: answerInbox.payload }).from(answerInbox);
    const waiting = rows.flatMap((r) => inboxEntries(inbox, r.payload)).length;
    return (
      (await count(
        sql`select count(*) as n from ${answers} where ${inArray(answers.questionId, ids)}`,
      )) + waiting
    );
  } finally {
    await database.close();
  }
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
  const fullEnv = {
    ...env,
    ...secrets,
    SEED_SAMPLE_CONTENT: 'false',
    ANALYTICS: 'off',
    // The mixer writes whatever waits on each pass, so kills land while it writes too.
    MIX_MAX_WAIT_SECONDS: '0',
  };

  const acked: Array<{ member: number; target: number }> = [];
  let next = 0;
  let refused = 0;
  let failed = 0;
  let kills = 0;
  let child = start(fullEnv, port);
  await healthy(port, child);
  const credentials = await obtainAll(port, tokens, targets);
  const stopAt = Date.now() + SECONDS * 1000;

  const writer = async () => {
    while (Date.now() < stopAt) {
      const n = next++;
      const member = n % tokens.length;
      const target = Math.floor(n / tokens.length) % targets.length;
      if (n >= tokens.length * targets.length) return;
      try {
        const res = await sendAnswer(port, credentials, targets, member, target, 5000);
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
  const lost = await readBack(port, credentials, targets, acked);
  await stopProcess(child, 'SIGTERM');
  // Sent at most once each: the acknowledged, those cut off by a kill, and the lost sent again.
  const duplicated = Math.max(
    0,
    (await storedOrWaiting(where, targets, secrets.PSEUDONYM_SECRET)) -
      (acked.length + failed + lost),
  );
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
        const credentials = await obtainAll(port, tokens, targets);
        const seen: Array<{ at: number; status: number; ms: number }> = [];
        const acked: Array<{ member: number; target: number }> = [];
        const mayBeStored = new Set<string>();
        let next = 0;
        const began = Date.now();
        const stopAt = began + 24_000;
        const writer = async () => {
          while (Date.now() < stopAt) {
            const n = next++;
            const member = n % tokens.length;
            const target = Math.floor(n / tokens.length) % targets.length;
            const sent = Date.now();
            let status = 0;
            try {
              const res = await sendAnswer(port, credentials, targets, member, target, 10_000);
              status = res.status;
              await res.arrayBuffer();
            } catch {
              status = -1;
            }
            seen.push({ at: sent, status, ms: Date.now() - sent });
            // Refused while the database was down: nothing stored. Else it may be.
            if (status !== 503) mayBeStored.add(`${member} ${target}`);
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
        // Past the last member the writers begin again: a second send is a replay, once.
        const once = [
          ...new Map(acked.map((a) => [`${a.member} ${a.target}`, a] as const)).values(),
        ];
        const lost = await readBack(port, credentials, targets, once);
        await stopProcess(child, 'SIGTERM');
        const duplicated = Math.max(
          0,
          (await storedOrWaiting({ databaseUrl: postgres!.url }, targets, env.PSEUDONYM_SECRET)) -
            mayBeStored.size,
        );
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
