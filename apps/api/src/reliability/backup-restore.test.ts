// Backups that restore to any second (issue 34, decision 025): the real server on the embedded
// PostgreSQL with BACKUP_DIR set takes a base backup at its first start and archives its log;
// answers acknowledged through the API before and after a recorded time; the server and its
// PostgreSQL killed with SIGKILL and the data folder's database lost (a dead disk). The restore
// (`npm run restore -- --to <time>`, the real command) without the archived log cannot reach the
// time and changes nothing; with it, the server started on the restored data holds exactly the
// answers acknowledged before that time. A second restore, in place, moves the folder aside.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { choices, questions, surveys, users } from '../db/schema.js';
import { seedSampleContent } from '../db/seed/seed.js';
import { deriveKeys } from '../lib/keys.js';
import { createTokenService } from '../lib/tokens.js';
import { SERVER_SECRETS, type ServerProcess, startServer, stopProcess } from '../test/servers.js';
import { obtainCredentialsOverHttp, redeemOverHttp } from '../test/credentials.js';
import { openSessions } from '../test/sessions.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const restoreCli = fileURLToPath(new URL('../cli/restore.ts', import.meta.url));
const MEMBERS = 6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const temp: string[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await stopProcess(server.child, 'SIGKILL');
  for (const dir of temp) await killPostmaster(path.join(dir, 'postgres'));
  for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `candor-${name}-`));
  temp.push(dir);
  return dir;
}

/** SIGKILL to the PostgreSQL running on `pgDir`, if any (its backends end with it). */
async function killPostmaster(pgDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
  } catch {
    return; // not running
  }
  // Gone once its parent (init, the killed server's) has reaped it.
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await sleep(50);
  }
}

/** A connection to the embedded PostgreSQL the server runs on `dataDir`. */
async function connect(dataDir: string): Promise<pg.Client> {
  const lines = fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
  const client = new pg.Client({
    host: '127.0.0.1',
    port: Number(lines.split('\n')[3]),
    user: 'candor',
    database: 'candor',
    password: fs.readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim(),
  });
  await client.connect();
  return client;
}

/** Migrated, seeded, with members and their tokens: what the server will find. */
async function prepare(dataDir: string) {
  const database = await openDatabase({ dataDir, embedded: 'postgres', poolSize: 2 });
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
    const targets = open.slice(0, 2).map((q) => ({
      qid: q.qid,
      gid: q.gid,
      choice: labels.find((c) => c.questionId === q.id && !c.isBlank)!.label,
    }));
    await database.db.execute(sql`
      insert into users (phone_lookup, country, status, phone_verified_at)
      select 'test:' || g, 'US', 'active', now()
      from generate_series(1, ${MEMBERS}) g`);
    const uuids = (await database.db.select({ uuid: users.uuid }).from(users)).map((u) => u.uuid);
    const signer = createTokenService(deriveKeys({ jwtSecret: SERVER_SECRETS.jwtSecret }), {
      accessTtlSeconds: 3600,
    });
    const sids = await openSessions(database.db, uuids);
    const tokens = await Promise.all(
      uuids.map((sub, i) => signer.signAccess({ sub, role: 'member', sid: sids[i]! })),
    );
    return { tokens, targets };
  } finally {
    await database.close();
  }
}

/** Runs `npm run restore -- --to <time>`'s script; its exit code and all it wrote. */
function restore(env: Record<string, string>, to: string) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', restoreCli, '--to', to], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** Nothing a person should not read: no stack trace. */
const noStack = (out: string) => expect(out).not.toMatch(/^\s+at /m);

describe('backups of the embedded PostgreSQL restore to any second', () => {
  it('restores exactly the answers acknowledged before the time, and only with the archive', async () => {
    const dataDir = tempDir('restore-data');
    const backupDir = tempDir('restore-backups');
    const { tokens, targets } = await prepare(dataDir);
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      EMBEDDED_DATABASE: 'postgres',
      BACKUP_DIR: backupDir,
      SEED_SAMPLE_CONTENT: 'false',
      ANALYTICS: 'off',
      // Every mixer pass writes what waits: the answers leave the inbox soon, as in production.
      MIX_MAX_WAIT_SECONDS: '0',
    };
    const start = async () => {
      const server = await startServer(env);
      servers.push(server);
      return server;
    };
    // Each member's device: its credentials, asked once (before the time), kept across restores.
    let credentials: Array<Map<string, string>> = [];
    const answer = async (server: ServerProcess, member: number, target: number) => {
      const t = targets[target]!;
      const res = await redeemOverHttp(server.origin, t.qid, credentials[member]!.get(t.gid)!, {
        choice: t.choice,
      });
      expect(res.status, await res.text()).toBe(201);
    };
    /**
     * Per member, the questions the server holds their answer to: sending the same answer again
     * with the member's credential is a replay (200) when it does, a new answer (201) when not.
     * (Answers carry no account: no list per member exists to read.)
     */
    const stored = async (server: ServerProcess) =>
      Promise.all(
        credentials.map(async (held) => {
          const answered: string[] = [];
          for (const t of targets) {
            const res = await redeemOverHttp(server.origin, t.qid, held.get(t.gid)!, {
              choice: t.choice,
            });
            expect([200, 201], await res.text()).toContain(res.status);
            if (res.status === 200) answered.push(t.qid);
          }
          return answered.sort();
        }),
      );

    // First start: a base backup at once, the log archived from then on.
    let server = await start();
    const deadline = Date.now() + 30_000;
    while (!server.lines.some((l) => l.msg === 'base backup taken') && Date.now() < deadline)
      await sleep(100);
    expect(server.lines.some((l) => l.msg === 'base backup taken')).toBe(true);

    const gids = [...new Set(targets.map((t) => t.gid))];
    credentials = await Promise.all(
      tokens.map((token) => obtainCredentialsOverHttp(server.origin, token, gids)),
    );
    // Before the time: every member answers the first question; after it, the second.
    for (let m = 0; m < MEMBERS; m++) await answer(server, m, 0);
    await sleep(1100);
    const time = new Date().toISOString();
    await sleep(1100);
    for (let m = 0; m < MEMBERS; m++) await answer(server, m, 1);
    const expected = tokens.map(() => [targets[0]!.qid]);
    const everything = tokens.map(() => targets.map((t) => t.qid).sort());
    expect(await stored(server)).toEqual(everything);

    // The segment holding the answers is archived (as archive_timeout would, sooner).
    const db = await connect(dataDir);
    const { rows } = await db.query<{ wal: string }>(
      'SELECT pg_walfile_name(pg_switch_wal()) AS wal',
    );
    await db.end();
    const archived = path.join(backupDir, 'wal', rows[0]!.wal);
    while (!fs.existsSync(archived) && Date.now() < deadline + 30_000) await sleep(100);
    expect(fs.existsSync(archived)).toBe(true);

    // The server and its PostgreSQL killed, and the disk holding the database lost.
    await stopProcess(server.child, 'SIGKILL');
    await killPostmaster(path.join(dataDir, 'postgres'));
    const lost = tempDir('restore-lost');
    fs.renameSync(path.join(dataDir, 'postgres'), path.join(lost, 'postgres'));

    // Bad input (a malformed time, one in the future, one before every backup) is refused
    // before anything is touched: db/backups.test.ts.

    // Without the log archived after the base backup, the backup reaches only its own end (the
    // answers came later): the restore says so and changes nothing.
    const wal = path.join(backupDir, 'wal');
    const hidden = tempDir('restore-hidden');
    const { stopWal } = JSON.parse(
      fs.readFileSync(
        path.join(
          backupDir,
          'base',
          fs.readdirSync(path.join(backupDir, 'base'))[0]!,
          'backup.json',
        ),
        'utf8',
      ),
    ) as { stopWal: string };
    const after = fs.readdirSync(wal).filter((f) => /^[0-9A-F]{24}$/.test(f) && f > stopWal);
    expect(after.length).toBeGreaterThan(0);
    for (const f of after) fs.renameSync(path.join(wal, f), path.join(hidden, f));
    const without = await restore(env, time);
    expect(without.code).toBe(1);
    expect(without.out).toMatch(/does not reach/);
    noStack(without.out);
    expect(fs.existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    for (const f of after) fs.renameSync(path.join(hidden, f), path.join(wal, f));

    // With it: exactly the answers acknowledged before the time.
    const started = Date.now();
    const restored = await restore(env, time);
    expect(restored.out).toMatch(/Restored the database as of/);
    expect(restored.code).toBe(0);
    const seconds = (Date.now() - started) / 1000;
    server = await start();
    expect(await stored(server)).toEqual(expected);
    process.stdout.write(`backup-restore: restored in ${seconds.toFixed(1)} s\n`);

    // In place, with the restored folder there: moved aside, never deleted; the same answers.
    await stopProcess(server.child, 'SIGKILL');
    await killPostmaster(path.join(dataDir, 'postgres'));
    const again = await restore(env, time);
    expect(again.code, again.out).toBe(0);
    const aside = /kept at (\S+):/.exec(again.out)?.[1];
    expect(aside && fs.existsSync(path.join(aside, 'PG_VERSION'))).toBe(true);
    server = await start();
    expect(await stored(server)).toEqual(expected);
    await server.stop();
  }, 120_000);
});
