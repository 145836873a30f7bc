// A survey going viral: 10,000 members answer one 15-question survey as fast as they can (50 at
// a time, each member's answers one after another, as the answering screen sends them), through
// the full HTTP API, each with the survey's anonymous credential (decision 020; asked before the
// burst, as the app does at login, and not timed). Per deployment: answers/s, errors, p50 and p99, then how long until every
// answer is folded into the results and what the published snapshots show (decision 011: a
// question's next update comes when its new answers pass 20 x 2^k, so a burst's tail waits).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/api/src/db/client';
import { choices, questions, surveys, users } from '../apps/api/src/db/schema';
import { seedSampleContent } from '../apps/api/src/db/seed/seed';
import { deriveKeys } from '../apps/api/src/lib/keys';
import { createTokenService } from '../apps/api/src/lib/tokens';
import { obtainCredentialsOverHttp } from '../apps/api/src/test/credentials';
import { openSessions } from '../apps/api/src/test/sessions';
import { createPostgresDatabase, startCandor } from './lib';

const MEMBERS = Number(process.env.BENCH_VIRAL_MEMBERS ?? 10_000);
const QUESTIONS = 15;
const CONNECTIONS = 50;
/** After the last answer: how long to watch the results settle. */
const SETTLE_MS = 30_000;
const MIX_MAX_WAIT_SECONDS = 10;

interface Prepared {
  tokens: string[];
  /** The survey the 15 questions belong to. */
  gid: string;
  /** The survey's questions: qid and a body choosing one of its answers. */
  targets: Array<{ id: number; qid: string; labels: string[] }>;
}

/** Migrates and seeds; the open survey with the most closed questions gets 15 of them. */
async function prepare(
  where: { databaseUrl?: string; dataDir?: string; embedded?: 'postgres' },
  jwtSecret: string,
): Promise<Prepared> {
  const database = await openDatabase({
    databaseUrl: where.databaseUrl,
    dataDir: where.dataDir ?? null,
    embedded: where.embedded,
  });
  try {
    await database.migrate();
    await seedSampleContent(database.db);
    const open = await database.db
      .select({
        id: questions.id,
        qid: questions.qid,
        surveyId: questions.surveyId,
        gid: surveys.gid,
      })
      .from(questions)
      .innerJoin(surveys, sql`${surveys.id} = ${questions.surveyId}`)
      .where(
        sql`${questions.type} = 'Closed' and ${surveys.publishedAt} is not null
            and ${surveys.releaseDate} <= now() and ${surveys.closedAt} is null`,
      )
      .orderBy(questions.surveyId, questions.position);
    const bySurvey = new Map<number, typeof open>();
    for (const q of open) bySurvey.set(q.surveyId, [...(bySurvey.get(q.surveyId) ?? []), q]);
    const chosen = [...bySurvey.values()].sort((a, b) => b.length - a.length)[0] ?? [];
    if (chosen.length < QUESTIONS) throw new Error(`no open survey has ${QUESTIONS} questions`);
    const labels = await database.db.select().from(choices).orderBy(choices.id);
    const targets = chosen.slice(0, QUESTIONS).map((q) => ({
      id: q.id,
      qid: q.qid,
      labels: labels.filter((c) => c.questionId === q.id && !c.isBlank).map((c) => c.label),
    }));
    await database.db.execute(sql`
      insert into users (phone_lookup, country, status, phone_verified_at)
      select 'bench:' || g,
             (array['US','GB','IN','NG'])[1 + g % 4], 'active', now()
      from generate_series(1, ${MEMBERS}) g`);
    const uuids = (await database.db.select({ uuid: users.uuid }).from(users)).map((u) => u.uuid);
    const tokens = createTokenService(deriveKeys({ jwtSecret }), { accessTtlSeconds: 3600 });
    const sids = await openSessions(database.db, uuids);
    return {
      tokens: await Promise.all(
        uuids.map((sub, i) => tokens.signAccess({ sub, role: 'member', sid: sids[i]! })),
      ),
      gid: chosen[0]!.gid,
      targets,
    };
  } finally {
    await database.close();
  }
}

interface Burst {
  seconds: number;
  created: number;
  errors: number;
  latencies: number[];
}

/** Each member's credential for the survey, 50 members at a time (before the burst, untimed). */
async function obtainAll(baseUrl: string, prepared: Prepared): Promise<string[]> {
  const credentials: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let m = next++; m < prepared.tokens.length; m = next++) {
        const held = await obtainCredentialsOverHttp(baseUrl, prepared.tokens[m]!, [prepared.gid]);
        credentials[m] = held.get(prepared.gid)!;
      }
    }),
  );
  return credentials;
}

/** The class a device sends with its answers, varied over the members. */
const PROFILES = [
  { gender: 'female', age_band: '25-34', country: 'US' },
  { gender: 'male', age_band: '35-44', country: 'GB' },
  { gender: 'female', age_band: '18-24', country: 'IN' },
  { gender: 'male', age_band: '45-54', country: 'NG' },
];

/** 50 members at a time, each answering the 15 questions in order, until all have. */
async function burst(baseUrl: string, prepared: Prepared, credentials: string[]): Promise<Burst> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const { hostname, port } = new URL(baseUrl);
  const latencies: number[] = [];
  let created = 0;
  let errors = 0;
  const post = (credential: string, qid: string, body: string) =>
    new Promise<number>((resolve) => {
      const req = http.request(
        {
          agent,
          hostname,
          port,
          method: 'POST',
          path: `/api/v1/questions/${qid}/answer/`,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'candor-credential': credential,
            'idempotency-key': crypto.randomUUID(),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(body);
    });
  let nextMember = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let m = nextMember++; m < prepared.tokens.length; m = nextMember++) {
        for (const [i, q] of prepared.targets.entries()) {
          const body = JSON.stringify({
            choice: q.labels[(m + i) % q.labels.length],
            profile: PROFILES[m % PROFILES.length],
          });
          const t = performance.now();
          const status = await post(credentials[m]!, q.qid, body);
          latencies.push(performance.now() - t);
          if (status === 201) created++;
          else errors++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { seconds, created, errors, latencies };
}

interface Settled {
  /** Seconds after the last answer until every answer was mixed (the inbox empty). */
  mixedAfter: number;
  /** Seconds after the last answer until every answer was counted (inbox and queue empty). */
  foldedAfter: number;
  /** Seconds after the last answer of the last new snapshot seen. */
  lastUpdateAfter: number;
  /** Answers in the published totals of the 15 questions, when watching stopped. */
  published: number;
}

/** Watches the queue and the 15 questions' published totals after the burst. */
async function settle(databaseUrl: string, ids: number[]): Promise<Settled> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const t0 = performance.now();
  let mixedAfter = NaN;
  let foldedAfter = NaN;
  let lastUpdateAfter = 0;
  let last = -1;
  try {
    while (performance.now() - t0 < SETTLE_MS || Number.isNaN(foldedAfter)) {
      const { rows } = await client.query<{ waiting: number; queued: number; published: number }>(
        `select (select count(*)::int from answer_inbox) as waiting,
                (select count(*)::int from results_queue) as queued,
                coalesce((select sum(v::numeric)::int from question_tallies t,
                  jsonb_array_elements_text(t.snapshot->'cells'->'all'->'') v
                  where t.question_id = any($1)), 0) as published`,
        [ids],
      );
      const now = (performance.now() - t0) / 1000;
      if (rows[0]!.waiting === 0 && Number.isNaN(mixedAfter)) mixedAfter = now;
      if (rows[0]!.waiting === 0 && rows[0]!.queued === 0 && Number.isNaN(foldedAfter)) {
        foldedAfter = now;
      }
      if (rows[0]!.published !== last) {
        last = rows[0]!.published;
        lastUpdateAfter = now;
      }
      if (now > 300) throw new Error('answers still queued 5 minutes after the burst');
      await new Promise((r) => setTimeout(r, 250));
    }
    return { mixedAfter, foldedAfter, lastUpdateAfter, published: last };
  } finally {
    await client.end();
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

export async function viralBench(): Promise<string> {
  const secret = crypto.randomBytes(32).toString('hex');
  const secrets = {
    JWT_SECRET: secret,
    PSEUDONYM_SECRET: secret,
    ACCESS_TOKEN_TTL: '3600',
    // The burst's last few answers (fewer than MIX_MIN_PEOPLE credentials) wait at most this
    // long to be mixed, not the default's 10 minutes.
    MIX_MAX_WAIT_SECONDS: String(MIX_MAX_WAIT_SECONDS),
  };
  const deployments: Array<{ label: string; env: Record<string, string>; embedded?: boolean }> = [
    { label: 'PostgreSQL, 1 process', env: { WEB_CONCURRENCY: '1' } },
    { label: 'PostgreSQL, 2 processes (the default: one per core)', env: { WEB_CONCURRENCY: '2' } },
    { label: 'embedded default (its own PostgreSQL), 1 process', env: {}, embedded: true },
  ];
  const lines = [
    `| deployment | answers | answers/s | p50 ms | p99 ms | errors | mixed after | counted after | last update after | in the published totals |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const d of deployments) {
    const scratch = d.embedded ? undefined : await createPostgresDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-viral-'));
    try {
      const prepared = await prepare(
        scratch ? { databaseUrl: scratch.url } : { dataDir, embedded: 'postgres' },
        secret,
      );
      const server = await startCandor({
        ...secrets,
        ...d.env,
        ...(scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: dataDir }),
      });
      let result: Burst;
      let settled: Settled;
      try {
        const credentials = await obtainAll(server.url, prepared);
        result = await burst(server.url, prepared, credentials);
        // The embedded server's URL: host, port and password from its folder.
        const url =
          scratch?.url ??
          (() => {
            const pid = fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
            const password = fs.readFileSync(path.join(dataDir, 'postgres-password'), 'utf8');
            return `postgres://candor:${encodeURIComponent(password.trim())}@127.0.0.1:${pid.split('\n')[3]}/candor`;
          })();
        settled = await settle(
          url,
          prepared.targets.map((t) => t.id),
        );
      } finally {
        await server.stop();
      }
      const total = prepared.tokens.length * QUESTIONS;
      lines.push(
        `| ${d.label} | ${result.created.toLocaleString('en')} of ${total.toLocaleString('en')} | ${Math.round(result.created / result.seconds)} | ${pct(result.latencies, 50).toFixed(1)} | ${pct(result.latencies, 99).toFixed(1)} | ${result.errors} | ${settled.mixedAfter.toFixed(1)} s | ${settled.foldedAfter.toFixed(1)} s | ${settled.lastUpdateAfter.toFixed(1)} s | ${settled.published.toLocaleString('en')} (${((100 * settled.published) / total).toFixed(0)}%) |`,
      );
    } finally {
      await scratch?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return [
    ...lines,
    '',
    `${MEMBERS.toLocaleString('en')} members x ${QUESTIONS} closed questions of one survey, ${CONNECTIONS} members at a time; ` +
      `answers redeemed with each member's credential for the survey, asked before the burst (untimed); ` +
      `"mixed after": seconds from the last answer until the inbox was empty (MIX_MAX_WAIT_SECONDS=${MIX_MAX_WAIT_SECONDS}); ` +
      `"counted after": until the inbox and the results queue were empty; ` +
      `"last update after": until the last new snapshot seen in ${SETTLE_MS / 1000} s of watching; ` +
      `the published totals are noisy (decision 011). Median is not taken: one burst per deployment.`,
  ].join('\n');
}
