// Answer ingest through the full HTTP API on the credential path (decision 020: the answer
// redeemed with the member's anonymous credential for its survey, no session; validation,
// idempotency key, receipt, acknowledged once sealed into the inbox; the mixer writes the answers
// in the background), on PostgreSQL and on the embedded databases, beside two baselines in the
// same run: pgbench inserting the same row shape into a scratch table of the same database, and
// a bare Fastify route taking the same requests without a database. Every request is a fresh
// answer: a distinct (member, question) pair, with that member's credential for the question's
// survey. wrk (bench/wrk/answers.lua), 50 connections, 3 runs of 10 s, medians.
//
// The credentials are asked before anything is timed (bench/ingest-credentials.ts): one
// `POST /api/v1/credentials/` per member for every open survey (5 surveys, 83 questions: one
// credential serves its survey's questions), against the PostgreSQL server, blinded in one child
// process per core, enough members for CREDENTIAL_PAIRS pairs (500,000 by default: 6,025 members,
// 30,125 credentials, several minutes on 2 cores). The surveys' keys and the issuance rows are
// then copied into the run's other databases before their servers start, so the same credentials
// serve every engine (each database starts with no receipts). Nothing is cached between runs.
// Issuance itself is benched by bench/credential-issuance.ts. After the last timed run of each
// server the table gives the answers still waiting in the inbox, and how long until the mixer
// had written them all (MIX_MAX_WAIT_SECONDS=10, as bench/viral.ts); a mixer pass, one every
// RESULTS_REFRESH_SECONDS (2 s), takes batches of 5,000 while full ones come, for up to the
// interval (before, one batch a pass: past 2,500 answers/s the inbox grew while the load
// lasted). A load that goes past the fresh pairs is said in the notes (its rest were replays,
// answered 200). Short runs (a smoke test): BENCH_INGEST_SECONDS=3
// BENCH_INGEST_PAIRS=120000.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/api/src/db/client';
import { choices, questions, surveys, users } from '../apps/api/src/db/schema';
import { seedSampleContent } from '../apps/api/src/db/seed/seed';
import { deriveCredentialKeys, deriveKeys } from '../apps/api/src/lib/keys';
import { inboxEntries } from '../apps/api/src/modules/credentials/credentials.service';
import { createTokenService } from '../apps/api/src/lib/tokens';
import { openSessions } from '../apps/api/src/test/sessions';
import { type CpuUse, ceiling, cpuMeter } from './cpu';
import {
  type CredentialState,
  issueCredentials,
  readCredentialState,
  writeCredentialState,
} from './ingest-credentials';
import { type LoadResult, createPostgresDatabase, median, startBare, startCandor } from './lib';

const RUNS = 3;
export const SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 10);
const CONNECTIONS = 50;
const THREADS = 2;
/** Members (and their session tokens) prepared per database: this many pairs' worth. */
const PAIRS = 1_000_000;
/**
 * Fresh (member, question) pairs given credentials: more than one database's runs use (the
 * PostgreSQL database takes 3 servers' warm-ups and runs, about 2 minutes of load). Each
 * credential costs its server ~1 ms and the device's blinding ~30 ms, untimed, on the bench's
 * cores.
 */
const CREDENTIAL_PAIRS = Number(process.env.BENCH_INGEST_PAIRS ?? 500_000);
/** The classes devices send with their answers: member m sends PROFILES[m mod 4]. */
const PROFILES = [
  { gender: 'female', age_band: '25-34', country: 'US' },
  { gender: 'male', age_band: '35-44', country: 'GB' },
  { gender: 'female', age_band: '18-24', country: 'IN' },
  { gender: 'male', age_band: '45-54', country: 'NG' },
];
/** The burst's last few answers wait at most this long to be mixed, not the default 10 min. */
const MIX_MAX_WAIT_SECONDS = 10;
const LUA = fileURLToPath(new URL('./wrk/answers.lua', import.meta.url));

interface Target {
  qid: string;
  /** The answer, without the device's class. */
  body: string;
  /** Index of the question's survey in `Prepared.gids`. */
  survey: number;
}

interface Prepared {
  tokens: string[];
  targets: Target[];
  /** The open surveys, in the order of their ids (the same in every database of a run). */
  gids: string[];
  surveyIds: number[];
}

/** What the mixer left after the load stopped. */
export interface Drained {
  /** Answers waiting in the inbox when the load stopped. */
  left: number;
  /** Seconds until the inbox was empty (NaN: not seen). */
  mixedAfter: number;
}

/**
 * Waits (up to 5 minutes) until the mixer has written every acknowledged answer and the server
 * has folded them into the results; says what waited in the inbox when it was called.
 */
export async function drained(client: pg.Client, secret: string): Promise<Drained> {
  const t0 = performance.now();
  const left = inboxAnswers(
    (await client.query<{ payload: string }>('select payload from answer_inbox')).rows,
    secret,
  );
  let mixedAfter = NaN;
  for (;;) {
    const { rows } = await client.query<{ waiting: number; queued: number }>(
      `select (select count(*)::int from answer_inbox) as waiting,
              (select count(*)::int from results_queue) as queued`,
    );
    const now = (performance.now() - t0) / 1000;
    if (rows[0]!.waiting === 0 && Number.isNaN(mixedAfter)) mixedAfter = now;
    if (rows[0]!.waiting === 0 && rows[0]!.queued === 0) return { left, mixedAfter };
    if (now > 300) {
      throw new Error(
        `${rows[0]!.waiting} rows still in the inbox, ${rows[0]!.queued} queued, 5 minutes after the load`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The answers waiting in these inbox rows: a row holds the answers one commit redeemed. */
function inboxAnswers(rows: Array<{ payload: string }>, secret: string): number {
  const { inbox } = deriveCredentialKeys({ pseudonymSecret: secret });
  return rows.flatMap((r) => inboxEntries(inbox, r.payload)).length;
}

/** The embedded PostgreSQL's URL while its server runs: port and password from its folder. */
export function embeddedUrl(dataDir: string): string {
  const pid = fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
  const password = fs.readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim();
  return `postgres://candor:${encodeURIComponent(password)}@127.0.0.1:${pid.split('\n')[3]}/candor`;
}

/**
 * Migrates and seeds the database, adds members straight in SQL, and signs their tokens. With
 * `credentials`, the surveys' keys and issuance rows of the run's first database are copied in
 * (before any server starts), so the credentials it issued answer here too.
 */
export async function prepare(
  opts: {
    databaseUrl?: string;
    dataDir?: string;
    embedded?: 'postgres' | 'pglite';
    credentials?: CredentialState;
  },
  jwtSecret: string,
) {
  const database = await openDatabase({
    databaseUrl: opts.databaseUrl,
    dataDir: opts.dataDir ?? null,
    embedded: opts.embedded,
  });
  try {
    await database.migrate();
    await seedSampleContent(database.db);
    const rows = await database.db
      .select({
        id: questions.id,
        qid: questions.qid,
        type: questions.type,
        surveyId: questions.surveyId,
      })
      .from(questions)
      .innerJoin(surveys, sql`${surveys.id} = ${questions.surveyId}`)
      .where(
        sql`${surveys.publishedAt} is not null and ${surveys.releaseDate} <= now() and ${surveys.closedAt} is null`,
      )
      .orderBy(questions.id);
    const labels = await database.db.select().from(choices).orderBy(choices.id);
    const open = await database.db
      .select({ id: surveys.id, gid: surveys.gid })
      .from(surveys)
      .where(
        sql`${surveys.publishedAt} is not null and ${surveys.releaseDate} <= now() and ${surveys.closedAt} is null`,
      )
      .orderBy(surveys.id);
    const surveyIds = open.map((s) => s.id);
    const targets = rows.map((q, i): Target => {
      const own = labels.filter((c) => c.questionId === q.id && !c.isBlank);
      return {
        qid: q.qid,
        body: JSON.stringify(
          q.type === 'Closed'
            ? { choice: own[i % own.length]!.label }
            : { text: 'An honest answer of a few words.' },
        ),
        survey: surveyIds.indexOf(q.surveyId),
      };
    });
    const members = Math.ceil(PAIRS / targets.length);
    await database.db.execute(sql`
      insert into users (phone_lookup, country, status, phone_verified_at)
      select 'bench:' || g,
             (array['US','GB','IN','NG'])[1 + g % 4], 'active', now()
      from generate_series(1, ${members}) g`);
    const uuids = (await database.db.select({ uuid: users.uuid }).from(users)).map((u) => u.uuid);
    const tokens = createTokenService(deriveKeys({ jwtSecret }), { accessTtlSeconds: 3600 });
    const sids = await openSessions(database.db, uuids);
    const signed = await Promise.all(
      uuids.map((sub, i) => tokens.signAccess({ sub, role: 'member', sid: sids[i]! })),
    );
    if (opts.credentials) {
      const keyed = opts.credentials.keys.map((k) => k.surveyId).join(',');
      if (keyed !== surveyIds.join(',')) {
        throw new Error(`surveys ${surveyIds.join(',')} here, keys for ${keyed}: seeded otherwise`);
      }
      await writeCredentialState(database.db, opts.credentials);
    }
    return {
      tokens: signed,
      targets,
      gids: open.map((s) => s.gid),
      surveyIds,
    } satisfies Prepared;
  } finally {
    await database.close();
  }
}

/**
 * One load run with wrk (it takes half the CPU autocannon does on these 2 cores, leaving more to
 * the server): 2 threads, 50 connections, each request a fresh (member, question) pair from
 * `from` on: pair i is member i mod M with question (member + i div M) mod Q, so none repeats
 * (bench/wrk/answers.lua).
 */
export function ingest(url: string, files: PairFiles, from: number, seconds = SECONDS) {
  const meter = cpuMeter();
  const out = execFileSync(
    'wrk',
    [
      `-t${THREADS}`,
      `-c${CONNECTIONS}`,
      `-d${seconds}s`,
      '-s',
      LUA,
      url,
      '--',
      files.credentials,
      files.targets,
      String(from),
      String(THREADS),
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
  if (!line) throw new Error(`wrk output not understood:\n${out}`);
  const r = JSON.parse(line) as {
    requests: number;
    duration_us: number;
    p50_us: number;
    p99_us: number;
    non2xx: number;
    socket_errors: number;
    used: number;
    created: number;
  };
  return {
    cpu: meter.stop(r.requests),
    result: {
      rps: r.requests / (r.duration_us / 1e6),
      p50: Math.round(r.p50_us / 100) / 10,
      p99: Math.round(r.p99_us / 100) / 10,
      errors: r.non2xx + r.socket_errors,
    } satisfies LoadResult,
    created: r.created,
    used: r.used,
    /** Replies of 400 and over (a 401 would be a request sent without its credential). */
    non2xx: r.non2xx,
    socketErrors: r.socket_errors,
  };
}

/**
 * Warm-up before the measured runs: the code compiled and the credentials verified in each of
 * `processes` processes (each keeps its own cache of verified credentials): 3 s loads until
 * twice `members` x that many requests have gone, at most 10 loads. Returns the pairs used and
 * the answers acknowledged.
 */
function warmUp(url: string, files: PairFiles, from: number, members: number, processes = 1) {
  const warm = { used: 0, created: 0 };
  for (let i = 0; i < 10 && warm.used < 2 * members * processes; i++) {
    const run = ingest(url, files, from + warm.used, Math.min(3, SECONDS));
    warm.used += run.used;
    warm.created += run.created;
  }
  return warm;
}

export interface PairFiles {
  credentials: string;
  targets: string;
  /** Fresh pairs the files give: members with credentials x questions. */
  pairs: number;
}

/**
 * The credentials the answer-ingest load redeems, asked (untimed) from the server at `url`:
 * every open survey's for the first members, enough for CREDENTIAL_PAIRS fresh pairs.
 */
export function credentialsFor(url: string, prepared: Prepared): Promise<string[][]> {
  const members = Math.min(
    prepared.tokens.length,
    Math.ceil(CREDENTIAL_PAIRS / prepared.targets.length),
  );
  return issueCredentials(url, prepared.tokens, members, prepared.gids);
}

/**
 * The members' credentials (a line each, one per survey) and the questions' bodies (one per
 * device class) as files for the wrk script.
 */
export function writePairFiles(prepared: Prepared, credentials: string[][]): PairFiles {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-wrk-'));
  const files = {
    credentials: path.join(dir, 'credentials.txt'),
    targets: path.join(dir, 'targets.txt'),
    pairs: credentials.length * prepared.targets.length,
  };
  fs.writeFileSync(files.credentials, credentials.map((c) => c.join('\t')).join('\n') + '\n');
  fs.writeFileSync(
    files.targets,
    prepared.targets
      .map((t) => {
        const answer = JSON.parse(t.body) as object;
        const bodies = PROFILES.map((profile) => JSON.stringify({ ...answer, profile }));
        return [t.qid, t.survey, ...bodies].join('\t');
      })
      .join('\n') + '\n',
  );
  return files;
}

/** What a server's errors were: replies of 400 and over, or wrk's socket errors (timeouts). */
export function errorsNote(label: string, runs: Array<ReturnType<typeof ingest>>): string[] {
  const non2xx = runs.reduce((n, r) => n + r.non2xx, 0);
  const socket = runs.reduce((n, r) => n + r.socketErrors, 0);
  return non2xx + socket
    ? [`${label}: ${non2xx} replies of 400 and over, ${socket} socket errors.`]
    : [];
}

/** A note when a server's load went past the fresh pairs given (replays, not fresh answers). */
export function pairsNote(label: string, used: number, files: PairFiles): string[] {
  return used > files.pairs
    ? [
        `**${label}: ${used} requests, more than the ${files.pairs} fresh pairs: the rest were replays (200).**`,
      ]
    : [];
}

/**
 * pgbench inserting the answers row into a scratch copy of the table: the same columns,
 * defaults, indexes and the three foreign keys (to a scratch table of 200,000 respondents, and
 * to the real questions and choices). The keys matter: they cost ~25% of pgbench's rate here.
 */
function pgbench(
  databaseUrl: string,
  ids: ScratchIds,
  table = 'scratch_answers',
): { rps: number; cpu: CpuUse } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-pgbench-'));
  const script = path.join(dir, 'insert.sql');
  fs.writeFileSync(
    script,
    [
      `\\set r random(1, ${SCRATCH_RESPONDENTS})`,
      `\\set q random(${ids.questions[0]}, ${ids.questions[1]})`,
      `\\set c random(${ids.choices[0]}, ${ids.choices[1]})`,
      `INSERT INTO ${table} (respondent_id, question_id, choice_id, text, is_blank, answered_on, idempotency_key) ` +
        "VALUES (:r, :q, :c, NULL, false, current_date, '6f1c0b7e-3a2d-4c1e-9b8a-7d6e5f4c3b2a') ON CONFLICT DO NOTHING;",
      '',
    ].join('\n'),
  );
  try {
    const meter = cpuMeter();
    const out = execFileSync(
      'pgbench',
      ['-n', '-c', '10', '-j', '2', '-T', String(SECONDS), '-f', script, databaseUrl],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
    const done = /number of transactions actually processed: (\d+)/.exec(out);
    if (!tps || !done) throw new Error(`pgbench output not understood:\n${out}`);
    return { rps: Number(tps[1]), cpu: meter.stop(Number(done[1])) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const SCRATCH_RESPONDENTS = 200_000;
/** API processes of the cluster-mode rows (the single process is the row before them). */
const CLUSTER_SIZES = [2, 4];

interface ScratchIds {
  /** Lowest and highest id: the seeded ids are contiguous. */
  questions: [number, number];
  choices: [number, number];
}

/** The scratch copy of `answers` (with its foreign keys) that pgbench inserts into. */
async function createScratch(client: pg.Client): Promise<ScratchIds> {
  await client.query(`
    CREATE TABLE scratch_respondents (id serial PRIMARY KEY);
    INSERT INTO scratch_respondents SELECT FROM generate_series(1, ${SCRATCH_RESPONDENTS});
    CREATE TABLE scratch_answers (LIKE answers INCLUDING ALL);
    ALTER TABLE scratch_answers
      ADD FOREIGN KEY (respondent_id) REFERENCES scratch_respondents (id),
      ADD FOREIGN KEY (question_id) REFERENCES questions (id),
      ADD FOREIGN KEY (choice_id) REFERENCES choices (id);
    -- The same again, queueing each row for the results as the answers table does (decision
    -- 011, migration 0010: a statement trigger writes the new rows' keys into results_queue,
    -- which has no foreign keys; here a scratch queue).
    CREATE TABLE scratch_answers_queued (LIKE scratch_answers INCLUDING ALL);
    ALTER TABLE scratch_answers_queued
      ADD FOREIGN KEY (respondent_id) REFERENCES scratch_respondents (id),
      ADD FOREIGN KEY (question_id) REFERENCES questions (id),
      ADD FOREIGN KEY (choice_id) REFERENCES choices (id);
    CREATE TABLE scratch_queue (LIKE results_queue INCLUDING ALL);
    CREATE FUNCTION scratch_queue_for_results() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO scratch_queue (respondent_id, question_id, kind)
      SELECT respondent_id, question_id, 'answer' FROM inserted ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;
    CREATE TRIGGER scratch_answers_queue AFTER INSERT ON scratch_answers_queued
      REFERENCING NEW TABLE AS inserted
      FOR EACH STATEMENT EXECUTE FUNCTION scratch_queue_for_results();`);
  const range = async (table: string): Promise<[number, number]> => {
    const { rows } = await client.query<{ lo: number; hi: number }>(
      `SELECT min(id) AS lo, max(id) AS hi FROM ${table}`,
    );
    return [rows[0]!.lo, rows[0]!.hi];
  };
  return { questions: await range('questions'), choices: await range('choices') };
}

interface Row {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  runs: number[];
  /** Medians of the runs' CPU per answer (api and postgres NaN where not measurable). */
  cpu: CpuUse;
  /** After the server's last run: what waited in the inbox, and until when (API rows). */
  drained?: Drained;
}

const medianCpu = (cpus: CpuUse[]): CpuUse => ({
  total: median(cpus.map((c) => c.total)),
  api: median(cpus.map((c) => c.api)),
  postgres: median(cpus.map((c) => c.postgres)),
  busy: median(cpus.map((c) => c.busy)),
});

function summarise(
  label: string,
  results: Array<{ result: LoadResult; cpu: CpuUse }>,
  drained?: Drained,
): Row {
  const rs = results.map((x) => x.result);
  return {
    label,
    ...(drained ? { drained } : {}),
    rps: median(rs.map((r) => r.rps)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    errors: rs.reduce((n, r) => n + r.errors, 0),
    runs: rs.map((r) => Math.round(r.rps)),
    cpu: medianCpu(results.map((r) => r.cpu)),
  };
}

/** pgbench's backends start and end with it: only its total CPU per insert is known. */
function pgbenchRow(label: string, runs: Array<ReturnType<typeof pgbench>>): Row {
  return {
    label,
    rps: median(runs.map((r) => r.rps)),
    p50: NaN,
    p99: NaN,
    errors: 0,
    runs: runs.map((r) => Math.round(r.rps)),
    cpu: { ...medianCpu(runs.map((r) => r.cpu)), api: NaN, postgres: NaN },
  };
}

export async function answerIngestBench(): Promise<string> {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (err) {
    // wrk prints its version and exits 1; only a missing binary is a problem.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('answer-ingest needs wrk as its load generator: sudo apt-get install wrk');
    }
  }
  const secret = crypto.randomBytes(32).toString('hex');
  const secrets = serverSecrets(secret);
  const rows: Row[] = [];
  const notes: string[] = [];
  let credentials: string[][] = [];
  let state: CredentialState | undefined;

  // PostgreSQL: a fresh database, dropped at the end.
  const scratchDb = await createPostgresDatabase();
  const databaseUrl = scratchDb.url;
  try {
    const prepared = await prepare({ databaseUrl }, secret);
    const scratch = new pg.Client({ connectionString: databaseUrl });
    await scratch.connect();
    const ids = await createScratch(scratch);
    const server = await startCandor({ DATABASE_URL: databaseUrl, ...secrets });
    try {
      // The credentials, untimed: asked from this server, then valid in every database of the run.
      const asked = performance.now();
      credentials = await credentialsFor(server.url, prepared);
      state = await readCredentialState(databaseUrl);
      notes.push(
        `Credentials: ${credentials.length} members x ${prepared.gids.length} surveys asked in ` +
          `${Math.round((performance.now() - asked) / 1000)} s before the runs (untimed), ` +
          `${credentials.length * prepared.targets.length} fresh pairs per database.`,
      );
      const files = writePairFiles(prepared, credentials);
      let cursor = 0;
      const warm = warmUp(server.url, files, cursor, credentials.length);
      cursor += warm.used;
      const api: Array<ReturnType<typeof ingest>> = [];
      const bench: Array<ReturnType<typeof pgbench>> = [];
      const queued: Array<ReturnType<typeof pgbench>> = [];
      let last: Drained | undefined;
      for (let i = 0; i < RUNS; i++) {
        const run = ingest(server.url, files, cursor);
        cursor += run.used;
        api.push(run);
        // The server mixes and folds what it just took in the background: pgbench gets the
        // database once that is done, not while it competes with it.
        last = await drained(scratch, secret);
        bench.push(pgbench(databaseUrl, ids));
        queued.push(pgbench(databaseUrl, ids, 'scratch_answers_queued'));
        await scratch.query('TRUNCATE scratch_answers, scratch_answers_queued, scratch_queue');
      }
      const { rows: counted } = await scratch.query<{ n: string }>(
        'select count(*) as n from answers',
      );
      const created = warm.created + api.reduce((n, r) => n + r.created, 0);
      notes.push(
        `PostgreSQL, 1 process: ${created} answers acknowledged (201), ${counted[0]!.n} rows ` +
          `stored once mixed; ${cursor} requests of ${files.pairs} fresh pairs ` +
          `(${credentials.length} members x ${prepared.targets.length} questions).`,
        ...pairsNote('PostgreSQL, 1 process', cursor, files),
      );
      rows.push(
        pgbenchRow('pgbench, same row, same indexes and foreign keys (10 clients)', bench),
        pgbenchRow('pgbench, the same plus its results_queue row (insert trigger)', queued),
      );
      rows.push(summarise('Candor API on PostgreSQL (50 connections)', api, last));
      notes.push(...errorsNote('PostgreSQL, 1 process', api));
      // The HTTP ceiling: the same wrk requests to a route that parses them and stores nothing,
      // with the Candor server stopped (it took its bytes for GET /bare when it started).
      const bare = await startBare(`${server.url}/api/health`);
      await server.stop();
      try {
        const bareRuns = [];
        for (let i = 0; i < RUNS; i++) bareRuns.push(ingest(bare.url, files, i * 1000));
        rows.push(summarise('bare Fastify route, same requests, no database', bareRuns));
      } finally {
        await bare.stop();
      }
      // Cluster mode: 2 and 4 API processes on these cores (WEB_CONCURRENCY), fresh pairs.
      for (const processes of CLUSTER_SIZES) {
        const cluster = await startCandor({
          DATABASE_URL: databaseUrl,
          ...secrets,
          WEB_CONCURRENCY: String(processes),
        });
        try {
          cursor += warmUp(cluster.url, files, cursor, credentials.length, processes).used;
          const runs: Array<ReturnType<typeof ingest>> = [];
          for (let i = 0; i < RUNS; i++) {
            const run = ingest(cluster.url, files, cursor);
            cursor += run.used;
            runs.push(run);
          }
          const label = `Candor API on PostgreSQL, ${processes} processes`;
          rows.push(summarise(label, runs, await drained(scratch, secret)));
          notes.push(...pairsNote(label, cursor, files), ...errorsNote(label, runs));
        } finally {
          await cluster.stop();
        }
      }
    } finally {
      await server.stop();
      await scratch.end();
    }
  } finally {
    await scratchDb.drop();
  }

  // The embedded default (no DATABASE_URL): its own PostgreSQL in DATA_DIR (decision 013), and
  // PGlite (EMBEDDED_DATABASE=pglite), each in a temporary DATA_DIR prepared before the server
  // takes it, with the first database's keys, so the same credentials answer.
  // The embedded PostgreSQL with BACKUP_DIR too (decision 025: the log archived, a base backup
  // at start): issue 34 allows backups at most 5% of ingest (bench backup-cost alternates them).
  const embedded = [
    ['postgres', 'Candor API on the embedded PostgreSQL (default, fsync on)', false],
    ['postgres', 'Candor API on the embedded PostgreSQL with BACKUP_DIR (WAL archived)', true],
    ['pglite', 'Candor API on PGlite (EMBEDDED_DATABASE=pglite)', false],
  ] as const;
  for (const [engine, label, backups] of embedded) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `candor-bench-${engine}-`));
    const backupDir = path.join(dataDir, 'backups');
    try {
      const prepared = await prepare({ dataDir, embedded: engine, credentials: state }, secret);
      const files = writePairFiles(prepared, credentials);
      const server = await startCandor({
        DATA_DIR: dataDir,
        EMBEDDED_DATABASE: engine,
        ...secrets,
        ...(backups ? { BACKUP_DIR: backupDir } : {}),
      });
      const api: Array<ReturnType<typeof ingest>> = [];
      let last: Drained | undefined;
      let cursor = 0;
      try {
        if (backups) await baseBackupTaken(backupDir);
        cursor = warmUp(server.url, files, 0, credentials.length).used;
        for (let i = 0; i < RUNS; i++) {
          const run = ingest(server.url, files, cursor);
          cursor += run.used;
          api.push(run);
        }
        // PGlite runs inside the server's process: nothing else can read it while it runs.
        if (engine === 'postgres') {
          const client = new pg.Client({ connectionString: embeddedUrl(dataDir) });
          await client.connect();
          try {
            last = await drained(client, secret);
          } finally {
            await client.end();
          }
        }
      } finally {
        await server.stop();
      }
      if (engine === 'pglite')
        last = { left: await inboxAfterStop(dataDir, secret), mixedAfter: NaN };
      rows.push(summarise(label, api, last));
      notes.push(...pairsNote(label, cursor, files), ...errorsNote(label, api));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  const base = rows[0]!.rps;
  const bareRps = rows.find((r) => r.label.startsWith('bare'))!.rps;
  const fmt = (n: number) => (Number.isNaN(n) ? '-' : String(n));
  const mixed = (d?: Drained) =>
    d
      ? `${d.left} | ${Number.isNaN(d.mixedAfter) ? '-' : `${d.mixedAfter.toFixed(1)} s`}`
      : '- | -';
  return [
    '| target | requests/s | p50 ms | p99 ms | ratio to pgbench | ratio to bare Fastify | errors | inbox after the last run | mixed after | runs |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${Math.round(r.rps)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${(r.rps / base).toFixed(2)} | ${(r.rps / bareRps).toFixed(2)} | ${r.errors} | ${mixed(r.drained)} | ${r.runs.join(', ')} |`,
    ),
    '',
    `"inbox after the last run": answers acknowledged and not yet mixed when the server's last run ` +
      `ended; "mixed after": seconds from then until the inbox was empty (MIX_MAX_WAIT_SECONDS=${MIX_MAX_WAIT_SECONDS}; ` +
      `PGlite: the inbox when its server had stopped, its time not observable from outside).`,
    ...notes,
    '',
    // The load generator, the API and the database share the cores: what each answer costs them
    // together bounds the rate, whatever the software does with its waits.
    `Where the CPU went (bench/cpu.ts), per request, medians of the runs; the rate at ${os.cpus().length} cores all busy is ${os.cpus().length} x 10^6 / total:`,
    '',
    '| target | CPU µs, all processes | API µs | PostgreSQL µs | the rest µs (load generator, kernel) | cores busy | rate with every core busy |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.cpu.total} | ${fmt(r.cpu.api)} | ${fmt(r.cpu.postgres)} | ${Number.isNaN(r.cpu.api) ? '-' : r.cpu.total - r.cpu.api - r.cpu.postgres} | ${(r.cpu.busy * os.cpus().length).toFixed(2)} of ${os.cpus().length} | ${ceiling(r.cpu.total)} |`,
    ),
  ].join('\n');
}

/** The servers' secrets, and the mixer's longest wait (the load's tail is mixed within it). */
export const serverSecrets = (secret: string) => ({
  JWT_SECRET: secret,
  PSEUDONYM_SECRET: secret,
  ACCESS_TOKEN_TTL: '3600',
  MIX_MAX_WAIT_SECONDS: String(MIX_MAX_WAIT_SECONDS),
});

/** Answers left in a PGlite database's inbox, read once its server has stopped. */
async function inboxAfterStop(dataDir: string, secret: string): Promise<number> {
  const database = await openDatabase({ dataDir, embedded: 'pglite' });
  try {
    const result = await database.db.execute(sql`select payload from answer_inbox`);
    return inboxAnswers((result as { rows: Array<{ payload: string }> }).rows, secret);
  } finally {
    await database.close();
  }
}

/** Waits until the base backup a server with BACKUP_DIR takes at start is done. */
async function baseBackupTaken(backupDir: string): Promise<void> {
  const base = path.join(backupDir, 'base');
  const deadline = Date.now() + 120_000;
  while (!(fs.existsSync(base) && fs.readdirSync(base).some((n) => !n.endsWith('.partial')))) {
    if (Date.now() > deadline) throw new Error('no base backup after 2 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * What the embedded PostgreSQL's backups (BACKUP_DIR, decision 025: its write-ahead log archived
 * continuously, a base backup at start) cost answer ingest: the same server with and without,
 * both running, their runs alternated so that the machine's other load falls on both alike.
 * `npm run bench -- backup-cost`.
 */
export async function backupCostBench(): Promise<string> {
  const secret = crypto.randomBytes(32).toString('hex');
  const secrets = serverSecrets(secret);
  const rounds = RUNS + 2;
  const folders: string[] = [];
  const temp = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `candor-bench-${name}-`));
    folders.push(dir);
    return dir;
  };
  const backupDir = temp('backups');
  const setups: Array<{ label: string; env: Record<string, string> }> = [
    { label: 'embedded PostgreSQL, no BACKUP_DIR', env: {} },
    {
      label: 'embedded PostgreSQL, BACKUP_DIR (WAL archived, base backup at start)',
      env: { BACKUP_DIR: backupDir, BACKUP_ARCHIVE_TIMEOUT_SECONDS: '60' },
    },
  ];
  const servers: Array<Awaited<ReturnType<typeof startCandor>>> = [];
  try {
    const running = [];
    // Credentials asked (untimed) from the first server; its keys copied into the second's
    // database before that server starts, so the same credentials answer on both.
    let credentials: string[][] | undefined;
    let state: CredentialState | undefined;
    for (const setup of setups) {
      const dataDir = temp('data');
      const prepared = await prepare({ dataDir, embedded: 'postgres', credentials: state }, secret);
      const server = await startCandor({
        DATA_DIR: dataDir,
        EMBEDDED_DATABASE: 'postgres',
        ...secrets,
        ...setup.env,
      });
      servers.push(server);
      if (!credentials) {
        credentials = await credentialsFor(server.url, prepared);
        state = await readCredentialState(embeddedUrl(dataDir));
      }
      const files = writePairFiles(prepared, credentials);
      const cursor = warmUp(server.url, files, 0, credentials.length).used;
      running.push({
        ...setup,
        dataDir,
        server,
        files,
        cursor,
        runs: [] as Array<ReturnType<typeof ingest>>,
      });
    }
    await baseBackupTaken(backupDir);
    for (let i = 0; i < rounds; i++) {
      for (const r of i % 2 ? [...running].reverse() : running) {
        const run = ingest(r.server.url, r.files, r.cursor);
        r.cursor += run.used;
        r.runs.push(run);
      }
    }
    const rows = running.map((r) => summarise(r.label, r.runs));
    // The archiver's own CPU, which the machine's other load does not inflate: what archiving
    // costs per answer acknowledged by that server (warm-up included) and per segment.
    const archiving = running[1]!;
    const pidFile = fs.readFileSync(
      path.join(archiving.dataDir, 'postgres', 'postmaster.pid'),
      'utf8',
    );
    const db = new pg.Client({
      host: '127.0.0.1',
      port: Number(pidFile.split('\n')[3]),
      user: 'candor',
      database: 'candor',
      password: fs.readFileSync(path.join(archiving.dataDir, 'postgres-password'), 'utf8').trim(),
    });
    await db.connect();
    const { rows: archiver } = await db.query<{ pid: number; segments: number; answers: string }>(
      `select (select pid from pg_stat_activity where backend_type = 'archiver') as pid,
              (select archived_count from pg_stat_archiver)::int as segments,
              (select count(*) from answers) as answers`,
    );
    const { rows: waiting } = await db.query<{ payload: string }>(
      'select payload from answer_inbox',
    );
    await db.end();
    const stat = fs.readFileSync(`/proc/${archiver[0]!.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const archiverUs = (Number(fields[11]) + Number(fields[12])) * 10_000;
    const answers = Number(archiver[0]!.answers) + inboxAnswers(waiting, secret);
    const wal = fs.readdirSync(path.join(backupDir, 'wal')).filter((f) => /^[0-9A-F]{24}$/.test(f));
    const [off, on] = rows as [Row, Row];
    return [
      '| target | requests/s | p50 ms | p99 ms | CPU µs per answer, all / API / PostgreSQL | runs |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.label} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.cpu.total} / ${r.cpu.api} / ${r.cpu.postgres} | ${r.runs.join(', ')} |`,
      ),
      '',
      `With BACKUP_DIR: ${(on.rps / off.rps).toFixed(3)} of the rate without, CPU per answer ` +
        `${(on.cpu.total / off.cpu.total).toFixed(3)}x (all) and ${(on.cpu.postgres / off.cpu.postgres).toFixed(3)}x (PostgreSQL); ` +
        `${wal.length} log segments (16 MB each) archived during the runs and warm-up. ` +
        `The archiver process used ${archiverUs / 1000} ms of CPU for ${archiver[0]!.segments} ` +
        `segments and ${answers} answers: ${(archiverUs / Math.max(1, answers)).toFixed(2)} µs per answer ` +
        `(USER_HZ ticks of 10 ms).`,
    ].join('\n');
  } finally {
    for (const server of servers) await server.stop();
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  }
}
