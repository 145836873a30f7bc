import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeAll, createTestDatabase, engines } from '../test/database.js';
import type { Database } from './client.js';
import { autovacuumRuns, createMaintenance, dueTables, freezeDue } from './maintenance.js';
import { createAuthLimitsRepository } from '../modules/auth/auth-limits.repository.js';
import { authLimits } from './schema.js';
import { seedSampleContent } from './seed/seed.js';

const MEMBERS = 5_000;
const QUESTIONS = 9;

describe.each(engines)('database maintenance on %s', (engine) => {
  let database: Database;
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as { rows: T[] }).rows;

  let member = 0;
  // A member's own answers, newest first (the mirror's and the answer list's read).
  const ownAnswersPlan = async () =>
    (
      await rows<{ 'QUERY PLAN': string }>(sql`
        explain select q.qid, s.gid, c.label, a.text, a.is_blank, a.answered_on
        from answers a
        join questions q on q.id = a.question_id
        join surveys s on s.id = q.survey_id
        left join choices c on c.id = a.choice_id
        where a.respondent_id = ${sql.raw(String(member))}
        order by a.answered_on desc, q.survey_id desc, q.position desc limit 20 offset 0`)
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    // The server's own autovacuum (on PostgreSQL) must not do first what these tests look for.
    for (const table of ['answers', 'results_queue']) {
      await database.db.execute(
        sql`alter table ${sql.identifier(table)} set (autovacuum_enabled = off)`,
      );
    }
    // Many members with a few answers each, then folded (the queue emptied): a busy day. Their
    // ids are given: 5,000 random ones in one statement would collide about once in 170 runs.
    await database.db.execute(sql`
      insert into respondents (id, pseudonym, profile, standing)
      select g, 'p' || g, 'sealed', 'counting' from generate_series(1, ${MEMBERS}) g`);
    await database.db.execute(sql`
      insert into answers (respondent_id, question_id, choice_id, is_blank, answered_on)
      select r.id, q.id, (select c.id from choices c where c.question_id = q.id limit 1), false,
             current_date
      from respondents r
      cross join (select id from questions where type = 'Closed' order by id limit ${QUESTIONS}) q`);
    await database.db.execute(sql`delete from results_queue`);
    member = (await rows<{ id: number }>(sql`select id from respondents limit 1`))[0]!.id;
  });

  afterAll(async () => {
    await closeAll(database);
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
    await database.db.execute(
      sql`create table maint_probe (id int primary key, v int) with (autovacuum_enabled = off)`,
    );
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
    await after(20, { table: 'maint_probe', vacuum: false, analyze: true }); // 160 changed
    await after(100, { table: 'maint_probe', vacuum: true, analyze: true }); // 260 dead
    await database.db.execute(sql`drop table maint_probe`);
  });

  it('vacuums and analyzes the tables autovacuum would, and then nothing is due', async () => {
    const due = await dueTables(database.db);
    // Answers are only inserted (never updated: no dead versions); the queue's rows all died.
    expect(due.find((t) => t.table === 'answers')).toMatchObject({ analyze: true });
    expect(due).toContainEqual({ table: 'results_queue', vacuum: true, analyze: true });

    if (await autovacuumRuns(database.db, engine)) return; // the server's own autovacuum does it
    const done: string[] = [];
    const maintenance = createMaintenance(database, {
      intervalSeconds: 0,
      onWork: (work) => done.push(work.table),
    });
    expect((await maintenance.runOnce()).tables.map((w) => w.table)).toEqual(done);
    expect(done).toContain('answers');

    const [answers] = await rows<{ dead: number; analyzed: boolean; tuples: number }>(sql`
      select t.n_dead_tup::int as dead, t.last_analyze is not null as analyzed,
             c.reltuples::int as tuples
      from pg_stat_user_tables t join pg_class c on c.oid = t.relid
      where t.relname = 'answers'`);
    expect(answers).toEqual({ dead: 0, analyzed: true, tuples: MEMBERS * QUESTIONS });
    expect(await dueTables(database.db)).toEqual([]);
    expect(await maintenance.runOnce()).toEqual({ tables: [], froze: false });

    // With statistics the planner finds one member's few rows through an index on them.
    expect(await ownAnswersPlan()).toMatch(/Index Cond: \(respondent_id = /);
  });

  // Ages are counted across the whole cluster, which other test files share on PostgreSQL: each
  // check compares two ages read in one statement, or an age before and after, never a guess.
  const ages = async () =>
    (
      await rows<{ database: number; table: number; newestRow: number; multixact: number }>(sql`
        select age(d.datfrozenxid)::int as database, mxid_age(d.datminmxid)::int as multixact,
               age(c.relfrozenxid)::int as table, min(age(t.xmin))::int as "newestRow"
        from maint_old t, pg_class c, pg_database d
        where c.relname = 'maint_old' and d.datname = current_database()
        group by d.datfrozenxid, d.datminmxid, c.relfrozenxid`)
    )[0]!;

  it('freezes the whole database once it is past the freeze age', async () => {
    await database.db.execute(sql`create table maint_old (id int primary key, v int)`);
    // Rows written by many transactions (each statement outside a transaction is one).
    for (let i = 0; i < 20; i++) {
      await database.db.execute(sql`insert into maint_old values (${i}, 0)`);
    }
    if (await autovacuumRuns(database.db, engine)) return; // the server's own autovacuum does it
    const run = (limits: object) =>
      createMaintenance(database, { intervalSeconds: 0, ...limits }).runOnce();
    // Not yet: the server's freeze ages are in the hundreds of millions.
    expect((await run({})).froze).toBe(false);
    expect(await freezeDue(database.db)).toEqual({ here: false, elsewhere: [] });

    const before = await ages();
    // A plain vacuum leaves the table's oldest unfrozen id at its oldest row's at best.
    expect(before.table).toBeGreaterThanOrEqual(before.newestRow);
    const aging: string[][] = [];
    const pass = await createMaintenance(database, {
      intervalSeconds: 0,
      freezeMaxAge: 0,
      onAging: (names) => aging.push(names),
    }).runOnce();
    expect(pass.froze).toBe(true);
    const after = await ages();
    // Frozen: the table's oldest unfrozen id is now newer than its newest row, and the database's
    // (the oldest over its tables and catalogs, what the wraparound guard reads) moved on.
    expect(after.table).toBeLessThan(after.newestRow);
    expect(after.database).toBeLessThan(before.database);
    // The other databases (PGlite: template0 and template1) are out of reach: reported instead.
    const [current] = await rows<{ name: string }>(sql`select current_database() as name`);
    expect(aging).toHaveLength(1);
    expect(aging[0]).not.toContain(current!.name);
    if (engine === 'pglite') expect(aging[0]).toEqual(['template0', 'template1']);
  });

  it('freezes it past the multixact freeze age too', async () => {
    // A multixact from one session: a row share-locked, then updated under a savepoint.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select * from maint_old where id = 1 for share`);
      await tx.execute(sql`savepoint s`);
      await tx.execute(sql`update maint_old set v = v + 1 where id = 1`);
    });
    expect((await ages()).multixact).toBeGreaterThan(0);
    const limits = { freezeMaxAge: 2 ** 31 - 1, multixactFreezeMaxAge: 0 };
    expect((await freezeDue(database.db, limits)).here).toBe(true);
    if (await autovacuumRuns(database.db, engine)) return;
    expect(
      (await createMaintenance(database, { intervalSeconds: 0, ...limits }).runOnce()).froze,
    ).toBe(true);
  });

  it('sweeps expired account limits at every pass, autovacuum or not, and goes on past a failure', async () => {
    const limits = createAuthLimitsRepository(database.db);
    const now = new Date();
    const at = (ms: number) => new Date(now.getTime() + ms);
    await database.db.insert(authLimits).values([
      { key: 'maint:gone-1', count: 3, lastAt: at(-7_200_000), endsAt: at(-3_600_000) },
      { key: 'maint:gone-2', count: 1, lastAt: at(-60_000), endsAt: at(-1) },
      { key: 'maint:live', count: 2, lastAt: at(-60_000), endsAt: at(600_000) },
    ]);
    const errors: unknown[] = [];
    await createMaintenance(database, {
      intervalSeconds: 0,
      tidy: () => limits.sweep(now),
      onError: (err) => errors.push(err),
    }).runOnce();
    const keys = (await database.db.select({ key: authLimits.key }).from(authLimits))
      .map((r) => r.key)
      .filter((k) => k.startsWith('maint:'));
    expect(keys).toEqual(['maint:live']);
    expect(errors).toEqual([]);
    // A tidying that fails is reported; the pass still runs.
    const pass = await createMaintenance(database, {
      intervalSeconds: 0,
      tidy: () => Promise.reject(new Error('tidy failed')),
      onError: (err) => errors.push(err),
    }).runOnce();
    expect(pass).toHaveProperty('froze');
    expect(errors).toHaveLength(1);
  });
});
