// Results of one question with 10,000 and 1,000,000 answers, on PostgreSQL and on PGlite: the
// results endpoint under load (autocannon, 50 connections, a member's session, 3 runs of 6 s,
// medians) beside the naive live GROUP BY over the answers (the same breakdown, 7 runs, median
// and slowest). The answers are written straight in SQL, counted as a fold counts them, and
// released through the differentially private mechanism.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { and, eq, sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../apps/api/src/db/client';
import { choices, questions, surveys, users } from '../apps/api/src/db/schema';
import { seedSampleContent } from '../apps/api/src/db/seed/seed';
import { deriveKeys, deriveProfileKey } from '../apps/api/src/lib/keys';
import { createTokenService } from '../apps/api/src/lib/tokens';
import { openSessions } from '../apps/api/src/test/sessions';
import { createRespondentsRepository } from '../apps/api/src/modules/respondents/respondents.repository';
import { createRespondentsService } from '../apps/api/src/modules/respondents/respondents.service';
import { createResultsRepository } from '../apps/api/src/modules/results/results.repository';
import { createResultsService } from '../apps/api/src/modules/results/results.service';
import { createPostgresDatabase, median, startCandor } from './lib';

const SIZES = [10_000, 1_000_000];
const RUNS = 3;
const SECONDS = 6;
const NAIVE_RUNS = 7;

interface Prepared {
  qid: string;
  token: string;
  naive: () => Promise<number>;
}

/** Seeds, adds `n` respondents with one answer each to one question, counts and publishes them. */
async function prepare(database: Database, n: number, jwtSecret: string): Promise<Prepared> {
  const { db } = database;
  await database.migrate();
  await seedSampleContent(db);
  const [q] = await db
    .select({ id: questions.id, qid: questions.qid })
    .from(questions)
    .innerJoin(surveys, eq(surveys.id, questions.surveyId))
    .where(and(eq(surveys.slug, 'taboos'), eq(questions.position, 1)));
  const own = await db
    .select({ id: choices.id })
    .from(choices)
    .where(and(eq(choices.questionId, q!.id), eq(choices.isBlank, false)));
  const ids = own.map((c) => c.id);
  // One member, whose session the reads carry.
  const [member] = await db
    .insert(users)
    .values({
      phoneLookup: 'bench:reader',
      country: 'US',
      status: 'active',
      phoneVerifiedAt: new Date(),
    })
    .returning({ uuid: users.uuid });
  // Profiles in the 0007 migration's plain form (sealed below, as the server would). Ids given:
  // a million random 31-bit defaults in one statement would collide (the API retries one).
  await db.execute(sql`
    insert into respondents (id, pseudonym, profile, standing)
    select g + 1, 'bench-' || g,
           'plain:' || (array['female','male','non_binary','undisclosed'])[1 + g % 4] || '|' ||
           (array['18-24','25-34','35-44','45-54','55-64','65+'])[1 + g % 6] || '|' ||
           (array['US','GB','IN','NG','CA','AU','DE'])[1 + g % 7], 'counting'
    from generate_series(0, ${n - 1}) g`);
  await db.execute(sql`
    insert into answers (respondent_id, question_id, choice_id, is_blank, answered_on)
    select r.id, ${q!.id}, (${sql.raw(`array[${ids.join(',')}]`)})[1 + abs(r.id::bigint * 7919) % ${ids.length}],
           false, current_date
    from respondents r`);
  // Counted as the fold counts them, into one open period (the fold itself is measured by
  // answer ingest), then released through the real mechanism.
  await db.execute(sql`delete from results_queue`);
  await db.execute(sql`
    insert into question_tallies (question_id, threshold_noise, pending)
    select ${q!.id}, 0, jsonb_build_object(
      'cells', (select jsonb_object_agg(k, n) from (
                  select d.dimension || '|' || d.bucket || '|c' || a.choice_id as k, count(*) as n
                  from answers a join respondents r on r.id = a.respondent_id
                  cross join lateral (values
                    ('all', ''),
                    ('gender', split_part(substr(r.profile, 7), '|', 1)),
                    ('age', split_part(substr(r.profile, 7), '|', 2)),
                    ('country', split_part(substr(r.profile, 7), '|', 3))) as d(dimension, bucket)
                  where a.question_id = ${q!.id}
                  group by 1) x),
      'words', '{}'::jsonb, 'ratings', to_jsonb(array_fill(0, array[11])),
      'timings', to_jsonb(array_fill(0, array[10])), 'events', ${n}::int)
    on conflict (question_id) do update set pending = excluded.pending`);
  // Sealed as the server would seal them, before it starts (not during the measurement).
  const profileKey = deriveProfileKey({ pseudonymSecret: jwtSecret });
  const respondentsRepository = createRespondentsRepository(db);
  await createRespondentsService(respondentsRepository, { profileKey }).sealLegacyProfiles();
  await db.execute(sql`analyze`);
  const results = createResultsService(createResultsRepository(db), {
    surveys: { findListed: async () => undefined, findQuestion: async () => undefined },
    profileKey,
    refreshSeconds: 0,
  });
  await results.releaseNow(q!.id);
  const tokens = createTokenService(deriveKeys({ jwtSecret }), { accessTtlSeconds: 3600 });
  const [sid] = await openSessions(db, [member!.uuid]);
  const token = await tokens.signAccess({ sub: member!.uuid, role: 'member', sid: sid! });
  const naive = async () => {
    const t = performance.now();
    await db.execute(sql`
      select coalesce(a.choice_id, 0), a.is_blank, count(*)
      from answers a join respondents r on r.id = a.respondent_id
      where a.question_id = ${q!.id} and r.standing = 'counting'
      group by 1, 2, r.profile`);
    return performance.now() - t;
  };
  return { qid: q!.qid, token, naive };
}

async function loadResults(url: string, p: Prepared) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await autocannon({
      url: `${url}/api/v1/questions/${p.qid}/results/?breakdown=gender`,
      connections: 50,
      duration: SECONDS,
      headers: { authorization: `Bearer ${p.token}` },
    });
    runs.push({
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx + r.timeouts,
    });
  }
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

/** One request at a time (no load): the latency a person sees, beside the naive query's. */
async function singleTimes(url: string, p: Prepared) {
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    const res = await fetch(`${url}/api/v1/questions/${p.qid}/results/?breakdown=gender`, {
      headers: { authorization: `Bearer ${p.token}` },
    });
    await res.arrayBuffer();
    times.push(performance.now() - t);
  }
  return median(times);
}

async function naiveTimes(p: Prepared) {
  const times: number[] = [];
  for (let i = 0; i < NAIVE_RUNS; i++) times.push(await p.naive());
  return { p50: median(times), max: Math.max(...times) };
}

const row = (
  label: string,
  n: number,
  api: Awaited<ReturnType<typeof loadResults>>,
  single: number,
  naive: { p50: number; max: number },
) =>
  `| ${label} | ${n.toLocaleString('en')} | ${Math.round(api.rps)} | ${api.p50} | ${api.p99} | ${api.errors} | ${single.toFixed(2)} | ${naive.p50.toFixed(1)} | ${naive.max.toFixed(1)} | ${(naive.p50 / single).toFixed(0)}x |`;

export async function resultsReadBench(): Promise<string> {
  const secret = crypto.randomBytes(32).toString('hex');
  const env = { JWT_SECRET: secret, PSEUDONYM_SECRET: secret, RESULTS_REFRESH_SECONDS: '2' };
  const lines = [
    '| engine | answers | results req/s (50 conn.) | p50 ms | p99 ms | errors | one request alone, ms | naive GROUP BY alone, ms | its slowest ms | naive / API alone |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const n of SIZES) {
    const scratch = await createPostgresDatabase();
    const database = await openDatabase({ databaseUrl: scratch.url, dataDir: null });
    try {
      const p = await prepare(database, n, secret);
      const server = await startCandor({ DATABASE_URL: scratch.url, ...env });
      try {
        const single = await singleTimes(server.url, p);
        const api = await loadResults(server.url, p);
        lines.push(row('PostgreSQL', n, api, single, await naiveTimes(p)));
      } finally {
        await server.stop();
      }
    } finally {
      await database.close();
      await scratch.drop();
    }
  }
  for (const n of SIZES) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-bench-results-'));
    try {
      const database = await openDatabase({ dataDir, embedded: 'pglite' });
      const p = await prepare(database, n, secret);
      const naive = await naiveTimes(p);
      await database.close();
      const server = await startCandor({ DATA_DIR: dataDir, EMBEDDED_DATABASE: 'pglite', ...env });
      try {
        const single = await singleTimes(server.url, p);
        lines.push(row('PGlite', n, await loadResults(server.url, p), single, naive));
      } finally {
        await server.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return lines.join('\n');
}
