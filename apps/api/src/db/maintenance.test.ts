import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
    const runs = await autovacuumRuns(database.db, engine);
    // PGlite says `autovacuum = on` but has no worker to do it.
    if (engine === 'pglite') expect(runs).toBe(false);
    else {
      const [setting] = await rows<{ autovacuum: string }>(sql`show autovacuum`);
      expect(runs).toBe(setting!.autovacuum === 'on');
    }
  });

  it('picks a table by the thresholds: 50 rows plus 10% (analyze) or 20% (vacuum) of it', async () => {
    await database.db.execute(sql`create table maint_probe (id int primary key, v int)`);
    await database.db.execute(
      sql`insert into maint_probe select g, 0 from generate_series(1, 1000) g`,
    );
    await database.db.execute(sql`vacuum (analyze) maint_probe`);
    const probe = async () =>
      (await dueTables(database.db)).find((t) => t.table === 'maint_probe') ?? null;
    // Statistics reach the shared counters within a second or so on PostgreSQL: wait for them.
    const after = async (updated: number, expected: object | null) => {
      await database.db.execute(sql`update maint_probe set v = v + 1 where id <= ${updated}`);
      await vi.waitFor(async () => expect(await probe()).toEqual(expected), { timeout: 5000 });
    };
    await after(140, null); // 140 changed, 140 dead: neither threshold (150, 250)
    await after(20, { table: 'maint_probe', vacuum: false, analyze: true, freeze: false }); // 160 changed
    await after(100, { table: 'maint_probe', vacuum: true, analyze: true, freeze: false }); // 260 dead
    await database.db.execute(sql`drop table maint_probe`);
  });

  it('vacuums and analyzes the tables autovacuum would, and then nothing is due', async () => {
    // The control: without statistics the planner walks the whole table backwards by id,
    // expecting to meet this member's rows early (if a planner stops doing so, drop this line).
    expect(await ownAnswersPlan()).toMatch(/Backward using answers_pkey/);
    const due = await dueTables(database.db);
    // Every answer was inserted, then updated by the fold: as many dead row versions as live.
    expect(due).toContainEqual({ table: 'answers', vacuum: true, analyze: true, freeze: false });
    expect(due).toContainEqual({
      table: 'respondents',
      vacuum: true,
      analyze: true,
      freeze: false,
    });

    if (await autovacuumRuns(database.db, engine)) return; // the server's own autovacuum does it
    const done: string[] = [];
    const maintenance = createMaintenance(database, {
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

  it('freezes a table whose oldest transaction id is past the freeze age', async () => {
    await database.db.execute(sql`create table maint_old (id int primary key)`);
    await database.db.execute(sql`insert into maint_old select g from generate_series(1, 100) g`);
    // Later transactions age it (each statement outside a transaction takes an id of its own).
    for (let i = 0; i < 50; i++)
      await database.db.execute(sql`insert into maint_old values (${1000 + i})`);
    await database.db.execute(sql`create table maint_young (id int primary key)`);
    const ageOf = async (table: string) =>
      (
        await rows<{ age: number }>(
          sql`select age(relfrozenxid)::int as age from pg_class where relname = ${table}`,
        )
      )[0]!.age;
    const old = await ageOf('maint_old');
    const young = await ageOf('maint_young');
    expect(old).toBeGreaterThan(young);
    // A freeze age between the two: the old table is due for a freezing vacuum, the young is not.
    const freezeMaxAge = young + 1;
    expect(await dueTables(database.db, { freezeMaxAge })).toContainEqual({
      table: 'maint_old',
      vacuum: true,
      analyze: expect.any(Boolean),
      freeze: true,
    });
    expect((await dueTables(database.db, { freezeMaxAge })).map((t) => t.table)).not.toContain(
      'maint_young',
    );
    if (await autovacuumRuns(database.db, engine)) return;
    const maintenance = createMaintenance(database, { intervalSeconds: 0, freezeMaxAge });
    expect((await maintenance.runOnce()).map((w) => w.table)).toContain('maint_old');
    // Frozen: the table's oldest unfrozen id is now newer than its newest row (a vacuum that
    // froze nothing could move it up to the oldest row's at most).
    const [frozen] = await rows<{ table: number; newestRow: number }>(sql`
      select age(c.relfrozenxid)::int as table, min(age(t.xmin))::int as "newestRow"
      from maint_old t, pg_class c where c.relname = 'maint_old' group by c.relfrozenxid`);
    expect(frozen!.table).toBeLessThan(frozen!.newestRow);
    await database.db.execute(sql`drop table maint_old, maint_young`);
  });
});
