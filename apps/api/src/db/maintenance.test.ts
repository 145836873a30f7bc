import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResultsRepository } from '../modules/results/results.repository.js';
import { createTestDatabase, engines } from '../test/database.js';
import type { Database } from './client.js';
import { autovacuumRuns, createMaintenance, dueTables } from './maintenance.js';
import { seedSampleContent } from './seed/seed.js';

const MEMBERS = 5_000;
const QUESTIONS = 9;

describe.each(engines)('database maintenance on %s', (engine) => {
  let database: Database;
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

  // A member's own answers, newest first: the read that went to a full backwards scan of
  // `answers` in the soak while the table had never been analyzed.
  const ownAnswersPlan = async () =>
    (
      await rows<{ 'QUERY PLAN': string }>(sql`
        explain select q.qid, s.gid, c.label, a.text, a.is_blank, a.answered_on
        from answers a
        join questions q on q.id = a.question_id
        join surveys s on s.id = q.survey_id
        left join choices c on c.id = a.choice_id
        where a.respondent_id = 17 order by a.id desc limit 20 offset 0`)
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    // Many members with a few answers each, then folded: as after a busy day.
    await database.db.execute(sql`
      insert into respondents (pseudonym, gender, age_band, country, counts)
      select 'p' || g, 'female', '25-34', 'GB', true from generate_series(1, ${MEMBERS}) g`);
    await database.db.execute(sql`
      insert into answers (respondent_id, question_id, choice_id, is_blank, answered_on)
      select r.id, q.id, (select c.id from choices c where c.question_id = q.id limit 1), false,
             current_date
      from respondents r
      cross join (select id from questions where type = 'Closed' order by id limit ${QUESTIONS}) q`);
    await createResultsRepository(database.db).fold();
  });

  afterAll(async () => {
    await database?.close();
  });

  it('knows whether the database vacuums by itself', async () => {
    const runs = await autovacuumRuns(database.db);
    if (engine === 'pglite') expect(runs).toBe(false);
    else {
      const [setting] = await rows<{ autovacuum: string }>(sql`show autovacuum`);
      expect(runs).toBe(setting!.autovacuum === 'on');
    }
  });

  it('vacuums and analyzes the tables autovacuum would, and then nothing is due', async () => {
    // The control: without statistics the planner walks the whole table backwards by id,
    // expecting to meet this member's rows early (if a planner stops doing so, drop this line).
    expect(await ownAnswersPlan()).toMatch(/Backward using answers_pkey/);
    const due = await dueTables(database.db);
    // Every answer was inserted, then updated by the fold: as many dead row versions as live.
    expect(due).toContainEqual({ table: 'answers', vacuum: true, analyze: true });
    expect(due).toContainEqual({ table: 'respondents', vacuum: true, analyze: true });

    if (await autovacuumRuns(database.db)) return; // the server's own autovacuum does it
    const done: string[] = [];
    const maintenance = createMaintenance(database.db, {
      intervalSeconds: 0,
      onWork: (work) => done.push(work.table),
    });
    expect((await maintenance.runOnce()).map((w) => w.table)).toEqual(done);
    expect(done).toContain('answers');

    const [answers] = await rows<{ dead: number; analyzed: boolean; tuples: number }>(sql`
      select t.n_dead_tup::int as dead, t.last_analyze is not null as analyzed,
             c.reltuples::int as tuples
      from pg_stat_user_tables t join pg_class c on c.oid = t.relid
      where t.relname = 'answers'`);
    expect(answers).toEqual({ dead: 0, analyzed: true, tuples: MEMBERS * QUESTIONS });
    expect(await dueTables(database.db)).toEqual([]);
    expect(await maintenance.runOnce()).toEqual([]);

    // With statistics the planner finds one member's few rows through an index on them.
    const plan = await ownAnswersPlan();
    expect(plan).toMatch(/Index Cond: \(respondent_id = 17\)/);
    expect(plan).not.toMatch(/Backward using answers_pkey/);
  });
});
