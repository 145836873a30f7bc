// One publication cycle over 1,000 questions holding 1,000,000 answers (issue 29's numbers):
// the results service's real tick (fold, trigger tests, releases with the discrete Gaussian
// noise of every cell, sealed and stored), on PostgreSQL and on PGlite, then the shaping every
// published snapshot gets on its first read (shares, 95% intervals, randomized-response
// debiasing, each breakdown). The answers are counted into each question's open period as the
// fold counts them (the fold itself is measured by answer ingest). Baseline, in the same run:
// the same tick with nothing pending (every question tested, none released).
// Usage: npx tsx bench/run.ts publish-cycle   (BENCH_PUBLISH_QUESTIONS, BENCH_PUBLISH_ANSWERS)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../apps/api/src/db/client';
import { deriveProfileKey } from '../apps/api/src/lib/keys';
import type { CatalogQuestion } from '../apps/api/src/modules/surveys/surveys.service';
import { createResultsRepository } from '../apps/api/src/modules/results/results.repository';
import { createResultsService, toResults } from '../apps/api/src/modules/results/results.service';
import { BreakdownDimensionSchema } from '@candor/contracts';
import { cpuMeter } from './cpu';
import { createPostgresDatabase, median } from './lib';

const QUESTIONS = Number(process.env.BENCH_PUBLISH_QUESTIONS ?? 1_000);
const ANSWERS = Number(process.env.BENCH_PUBLISH_ANSWERS ?? 1_000_000);
const RUNS = 3;
/** One question in ten asks with randomized response (decision 028), so debiasing is shaped. */
const RR_EVERY = 10;
const CHOICES = ['Never', 'Once', 'A few times', 'Often'];

interface Prepared {
  questions: CatalogQuestion[];
  /** Puts every question back to its primed open period: 1,000 answers pending, nothing published. */
  prime: () => Promise<void>;
  /** Nothing pending, nothing published: the baseline tick's state. */
  empty: () => Promise<void>;
}

async function prepare(database: Database): Promise<Prepared> {
  const { db } = database;
  await database.migrate();
  await db.execute(sql`
    insert into surveys (slug, name, release_date, published_at)
    values ('bench-publish', 'Bench publish', now(), now())`);
  await db.execute(sql`
    insert into questions (survey_id, position, type, text, rr_weight)
    select s.id, g, 'Closed', 'Bench question ' || g, case when g % ${RR_EVERY} = 0 then 3 end
    from surveys s, generate_series(1, ${QUESTIONS}) g where s.slug = 'bench-publish'`);
  await db.execute(sql`
    insert into choices (question_id, position, label, is_blank)
    select q.id, c.n, coalesce(c.label, 'Leave blank'), c.label is null
    from questions q
    cross join unnest(${sql.param([...CHOICES, null])}::text[]) with ordinality as c(label, n)`);
  const rows = (
    (await db.execute(sql`
      select q.id, q.qid, q.rr_weight, c.id as choice_id, c.label, c.is_blank
      from questions q join choices c on c.question_id = q.id order by q.id, c.position`)) as {
      rows: Array<{
        id: number;
        qid: string;
        rr_weight: number | null;
        choice_id: number;
        label: string;
        is_blank: boolean;
      }>;
    }
  ).rows;
  const byId = new Map<number, CatalogQuestion>();
  for (const r of rows) {
    let q = byId.get(r.id);
    if (!q) {
      q = {
        id: r.id,
        qid: r.qid,
        type: 'Closed',
        maxLength: null,
        rrWeight: r.rr_weight,
        twinQid: null,
        surveyGid: '',
        surveyId: 0,
        variant: 'v1_medium',
        closed: false,
        choices: [],
        choiceByLabel: new Map(),
        choiceById: new Map(),
      };
      byId.set(r.id, q);
    }
    const choice = { id: r.choice_id, label: r.label, isBlank: r.is_blank };
    q.choices.push(choice);
    q.choiceByLabel.set(r.label, choice);
    q.choiceById.set(r.choice_id, choice);
  }
  // Each question's share of the answers, counted into its open period as the fold counts them:
  // by choice, in every dimension, from a spread of genders, age bands and countries.
  const perQuestion = Math.round(ANSWERS / QUESTIONS);
  await db.execute(sql`create table bench_pending (question_id int primary key, pending jsonb)`);
  await db.execute(sql`
    with given as (
      select q.id as question_id, g,
             (select c.id from choices c where c.question_id = q.id and not c.is_blank
              order by c.position offset (g * 7919 % 13) % 4 limit 1) as choice_id,
             (array['female','male','non_binary','undisclosed'])[1 + g % 4] as gender,
             (array['18-24','25-34','35-44','45-54','55-64','65+'])[1 + g % 6] as age,
             (array['US','GB','IN','NG','CA','AU','DE'])[1 + g % 7] as country
      from questions q cross join generate_series(1, ${perQuestion}) g
    ), cells as (
      select question_id, d.dimension || '|' || d.bucket || '|c' || choice_id as k, count(*) as n
      from given cross join lateral (values
        ('all', ''), ('gender', gender), ('age', age), ('country', country)) as d(dimension, bucket)
      group by 1, 2
    )
    insert into bench_pending (question_id, pending)
    select question_id, jsonb_build_object(
      'cells', jsonb_object_agg(k, n), 'words', '{}'::jsonb,
      'ratings', to_jsonb(array_fill(0, array[11])),
      'timings', to_jsonb(array_fill(0, array[10])), 'events', ${perQuestion}::int)
    from cells group by question_id`);
  await db.execute(sql`analyze`);
  return {
    questions: [...byId.values()],
    async prime() {
      await db.execute(sql`delete from question_tallies`);
      await db.execute(sql`
        insert into question_tallies (question_id, threshold_noise, pending)
        select question_id, 0, pending from bench_pending`);
    },
    async empty() {
      await db.execute(sql`delete from question_tallies`);
      await db.execute(sql`
        insert into question_tallies (question_id, threshold_noise)
        select question_id, 0 from bench_pending`);
    },
  };
}

interface Cycle {
  wallMs: number;
  /** This process's CPU (the service; PGlite's database too, which runs in it). */
  nodeCpuMs: number;
  /** PostgreSQL's processes (0 on PGlite). */
  postgresCpuMs: number;
  released: number;
}

async function timed(run: () => Promise<number>): Promise<Cycle> {
  const meter = cpuMeter();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const released = await run();
  const wallMs = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return {
    wallMs,
    nodeCpuMs: (used.user + used.system) / 1000,
    postgresCpuMs: meter.stop(1).postgres / 1000,
    released,
  };
}

async function measure(database: Database, profileKey: Buffer) {
  const p = await prepare(database);
  const repo = createResultsRepository(database.db);
  const results = createResultsService(repo, {
    surveys: { findListed: async () => undefined, findQuestion: async () => undefined },
    profileKey,
    refreshSeconds: 0,
  });
  const baseline: Cycle[] = [];
  const cycles: Cycle[] = [];
  const shaping: Cycle[] = [];
  for (let i = 0; i < RUNS; i++) {
    await p.empty();
    baseline.push(await timed(async () => (await results.tick()).length));
    await p.prime();
    cycles.push(await timed(async () => (await results.tick()).length));
    const snapshots = await repo.readSnapshots(p.questions.map((q) => q.id));
    shaping.push(
      await timed(async () => {
        for (const q of p.questions) {
          const snapshot = snapshots.get(q.id);
          const stored = snapshot && { snapshot, publishedAt: new Date() };
          toResults(q, stored, undefined);
          for (const d of BreakdownDimensionSchema.options) toResults(q, stored, d);
        }
        return p.questions.length;
      }),
    );
  }
  const med = (cs: Cycle[], f: (c: Cycle) => number) => median(cs.map(f));
  return { baseline, cycles, shaping, med };
}

const fmt = (ms: number) => (ms >= 100 ? Math.round(ms).toLocaleString('en') : ms.toFixed(1));

export async function publishCycleBench(): Promise<string> {
  const secret = crypto.randomBytes(32).toString('hex');
  const profileKey = deriveProfileKey({ pseudonymSecret: secret });
  const lines = [
    `${QUESTIONS.toLocaleString('en')} questions, ${ANSWERS.toLocaleString('en')} answers pending; medians of ${RUNS} cycles (each run's figures in brackets).`,
    '',
    '| engine | what | released | wall ms | Node CPU ms | PostgreSQL CPU ms | CPU ms in all | runs (CPU ms in all) |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const row = (engine: string, what: string, cs: Cycle[]) => {
    const all = cs.map((c) => c.nodeCpuMs + c.postgresCpuMs);
    const m = (f: (c: Cycle) => number) => median(cs.map(f));
    lines.push(
      `| ${engine} | ${what} | ${m((c) => c.released)} | ${fmt(m((c) => c.wallMs))} | ${fmt(m((c) => c.nodeCpuMs))} | ${fmt(m((c) => c.postgresCpuMs))} | **${fmt(median(all))}** | ${all.map(fmt).join(', ')} |`,
    );
  };
  const report = (engine: string, r: Awaited<ReturnType<typeof measure>>) => {
    row(engine, 'baseline: a tick, nothing pending', r.baseline);
    row(engine, 'a tick releasing every question', r.cycles);
    row(engine, 'first reads: shaping all + 3 breakdowns', r.shaping);
  };
  const scratch = await createPostgresDatabase();
  const pg = await openDatabase({ databaseUrl: scratch.url, dataDir: null });
  try {
    report('PostgreSQL', await measure(pg, profileKey));
  } finally {
    await pg.close();
    await scratch.drop();
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-bench-publish-'));
  try {
    const lite = await openDatabase({ dataDir, embedded: 'pglite' });
    try {
      report('PGlite', await measure(lite, profileKey));
    } finally {
      await lite.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return lines.join('\n');
}
