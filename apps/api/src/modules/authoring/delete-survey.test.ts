/**
 * Deleting a survey that has answers (issue 31, point 3; decision 010): only once it is closed,
 * only with its exact name, and then with everything answered to it: answers, ratings, timings,
 * releases, queue rows, respondents left with nothing, credential keys and issuances, and what
 * still waits in the inbox (the mixer drops it instead of failing its batch). Read back as a
 * thief with the table files would, on PostgreSQL: no dead row version keeps an answer.
 */
import { AdminSurveySchema, AuditEntryListSchema } from '@candor/contracts';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import {
  answerInbox,
  answers,
  credentialIssuances,
  credentialKeys,
  questionTallies,
  ratings,
  respondents,
  resultsQueue,
  surveys,
  timings,
} from '../../db/schema.js';
import { createMember, get, json, post, send } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { surveyBody } from '../../test/authoring.js';
import { obtainCredential, redeem } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

const ADMIN = '/api/v1/admin';
/** Both drivers answer `{rows}` (node-postgres and PGlite). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

interface Made {
  gid: string;
  id: number;
  name: string;
  closed: { id: number; qid: string };
  open: { id: number; qid: string };
}

describe.each(engines)('deleting a survey with its answers on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };
  const staff = () => ({ token: admin.token });
  const counted = async (table: typeof answers | typeof ratings | typeof timings, ids: number[]) =>
    (await database.db.select({ n: count() }).from(table).where(inArray(table.questionId, ids)))[0]!
      .n;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    if (engine === 'postgres') {
      await database.db.execute(sql`create extension if not exists pageinspect`);
      // Only the app's own vacuum may clear the dead rows here.
      for (const table of ['answers', 'respondents', 'answer_inbox']) {
        await database.db.execute(
          sql`alter table ${sql.identifier(table)} set (autovacuum_enabled = false, toast.autovacuum_enabled = false)`,
        );
      }
    }
    app = await createTestApp(database, {
      contentCacheSeconds: 0,
      resultsRefreshSeconds: 0,
      mixing: { minPeople: 50, maxWaitSeconds: 3600 },
    });
    admin = await createMember(app, { role: 'admin' });
  }, 120_000);

  afterAll(async () => {
    await closeAll(app, database);
  });

  /** A published survey with a closed and an open question, made through the admin API. */
  async function made(name: string): Promise<Made> {
    const created = await post(app, `${ADMIN}/surveys/`, surveyBody({ name }), staff());
    const { gid } = AdminSurveySchema.parse(json(created));
    for (const question of [
      { type: 'Closed', question: 'Have you ever hidden a debt?', choices: ['Yes', 'No'] },
      { type: 'Open', question: 'What did you hide?', max_length: 300 },
    ]) {
      expect(
        (await post(app, `${ADMIN}/surveys/${gid}/questions/`, question, staff())).statusCode,
      ).toBe(201);
    }
    const published = await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, staff());
    const [closed, open] = AdminSurveySchema.parse(json(published)).questions;
    const ids = await database.db
      .select({ id: surveys.id })
      .from(surveys)
      .where(eq(surveys.gid, gid));
    const qids = rowsOf<{ id: number; qid: string }>(
      await database.db.execute(
        sql`select id, qid::text as qid from questions where survey_id = ${ids[0]!.id} order by position`,
      ),
    );
    expect(qids.map((q) => q.qid)).toEqual([closed!.qid, open!.qid]);
    return { gid, id: ids[0]!.id, name, closed: qids[0]!, open: qids[1]! };
  }

  /** `people` members each answer both questions (the open one with `text(i)`) and rate one. */
  async function answered(s: Made, people: number, text: (i: number) => string) {
    for (let i = 0; i < people; i++) {
      const member = await createMember(app);
      const credential = await obtainCredential(app, member.token, s.gid);
      const closed = await redeem(app, s.closed.qid, credential, { choice: i % 2 ? 'Yes' : 'No' });
      expect(closed.statusCode, closed.body).toBe(201);
      const open = await redeem(app, s.open.qid, credential, { text: text(i) });
      expect(open.statusCode, open.body).toBe(201);
      const rated = await post(
        app,
        `/api/v1/questions/${s.closed.qid}/rating/`,
        { score: 7 },
        { headers: { 'candor-credential': credential } },
      );
      expect(rated.statusCode, rated.body).toBeLessThan(300);
    }
  }

  const act = (gid: string, verb: string) =>
    post(app, `${ADMIN}/surveys/${gid}/${verb}/`, {}, staff());
  const remove = (gid: string, name: string) =>
    post(app, `${ADMIN}/surveys/${gid}/delete/`, { name }, staff());

  it('deletes a closed survey with its answers, releases and respondents, and only once its exact name is typed', async () => {
    const kept = await made('Kept survey');
    const gone = await made('Hidden debts');
    await answered(kept, 6, (i) => `kept canary ${i}`);
    await answered(gone, 6, (i) => `deleted canary ${i}`);
    expect(await app.credentials.mix(true)).toBeGreaterThan(0);
    await app.results.fold();
    // Two more answers wait in the inbox (fewer people than a mix takes).
    await answered(gone, 2, (i) => `waiting canary ${i}`);
    expect((await database.db.select({ n: count() }).from(answerInbox))[0]!.n).toBeGreaterThan(0);
    const keptIds = [kept.closed.id, kept.open.id];
    const goneIds = [gone.closed.id, gone.open.id];
    const keptAnswers = await counted(answers, keptIds);
    expect(keptAnswers).toBe(12);
    expect(await counted(answers, goneIds)).toBe(12);
    const respondentsBefore = (await database.db.select({ n: count() }).from(respondents))[0]!.n;

    // Open: refused, with the reason; nothing is deleted.
    const open = await remove(gone.gid, gone.name);
    expect(open.statusCode).toBe(409);
    expect(json(open)).toMatchObject({ code: 'INVALID_STATE' });
    expect(json<{ detail: string }>(open).detail).toMatch(/Close the survey/);

    expect((await act(gone.gid, 'close')).statusCode).toBe(200);
    await app.results.tick();
    const released = await database.db
      .select({ n: count() })
      .from(questionTallies)
      .where(inArray(questionTallies.questionId, goneIds));
    expect(released[0]!.n).toBe(2);

    // Closed: the name must be typed exactly; the plain DELETE (drafts) asks for it too.
    for (const wrong of ['', 'hidden debts', 'Hidden debts!', 'Kept survey']) {
      const res = await remove(gone.gid, wrong);
      expect(res.statusCode, wrong).toBe(400);
      expect(json(res)).toEqual({ name: [expect.stringContaining('Hidden debts')] });
    }
    const bare = await send(app, 'DELETE', `${ADMIN}/surveys/${gone.gid}/`, {}, staff());
    expect(bare.statusCode).toBe(400);
    expect(json(bare)).toEqual({ name: [expect.any(String)] });
    expect(await counted(answers, goneIds)).toBe(12);
    // Not by a member or a moderator.
    for (const role of ['member', 'moderator'] as const) {
      const other = await createMember(app, { role });
      const res = await post(
        app,
        `${ADMIN}/surveys/${gone.gid}/delete/`,
        { name: gone.name },
        { token: other.token },
      );
      expect(res.statusCode).toBe(403);
    }

    const done = await remove(gone.gid, ` ${gone.name} `);
    expect(done.statusCode, done.body).toBe(204);
    expect((await get(app, `/api/v1/surveys/${gone.gid}/`)).statusCode).toBe(404);
    expect((await get(app, `${ADMIN}/surveys/${gone.gid}/`, staff())).statusCode).toBe(404);
    expect((await remove(gone.gid, gone.name)).statusCode).toBe(404);
    for (const table of [answers, ratings, timings] as const) {
      expect(await counted(table, goneIds)).toBe(0);
    }
    const left = async (table: typeof questionTallies | typeof resultsQueue) =>
      (
        await database.db
          .select({ n: count() })
          .from(table)
          .where(inArray(table.questionId, goneIds))
      )[0]!.n;
    expect(await left(questionTallies)).toBe(0);
    expect(await left(resultsQueue)).toBe(0);
    for (const table of [credentialKeys, credentialIssuances] as const) {
      const rows = await database.db
        .select({ n: count() })
        .from(table)
        .where(eq(table.surveyId, gone.id));
      expect(rows[0]!.n).toBe(0);
    }
    // Its six respondents are gone; the kept survey's stay.
    const respondentsAfter = (await database.db.select({ n: count() }).from(respondents))[0]!.n;
    expect(respondentsAfter).toBe(respondentsBefore - 6);
    expect(await counted(answers, keptIds)).toBe(keptAnswers);

    // What waited in the inbox leaves it with the next mix, which writes none of it (before,
    // its missing question failed the whole batch, and every later one with it).
    await answered(kept, 1, () => 'kept after');
    await app.credentials.mix(true);
    expect((await database.db.select({ n: count() }).from(answerInbox))[0]!.n).toBe(0);
    expect(await counted(answers, goneIds)).toBe(0);
    expect(await counted(answers, keptIds)).toBe(keptAnswers + 2);

    // Audited with its name, and no count (staff never see true counts).
    const trail = AuditEntryListSchema.parse(
      json(await get(app, `${ADMIN}/audit-log/?page_size=100`, staff())),
    ).results;
    const entry = trail.find(
      (e) => e.action === 'survey.delete' && e.target === `survey:${gone.gid}`,
    );
    expect(entry?.details).toEqual({ name: gone.name, answered: true });

    if (engine === 'postgres') {
      // A copy of the table files holds none of its answers, dead rows included.
      await app.erasureVacuum.settled();
      const tuples = rowsOf<{ t_data: Buffer | string }>(
        await database.db.execute(sql`
          select i.t_data
          from generate_series(0, pg_relation_size('answers'::regclass) / current_setting('block_size')::int - 1) b,
               lateral heap_page_items(get_raw_page('answers', b::int)) i
          where i.t_data is not null`),
      ).map((r) =>
        typeof r.t_data === 'string' ? Buffer.from(r.t_data.replace(/^\\x/, ''), 'hex') : r.t_data,
      );
      const holding = (canary: string) =>
        tuples.filter((t) => Buffer.from(t).includes(Buffer.from(canary))).length;
      expect(holding('kept canary 0')).toBe(1);
      for (let i = 0; i < 6; i++) expect(holding(`deleted canary ${i}`)).toBe(0);
    }
  }, 180_000);

  it('never deletes a survey that a reopen raced back open', async () => {
    const s = await made('Raced delete');
    for (let round = 0; round < 4; round++) {
      expect((await act(s.gid, 'close')).statusCode).toBe(200);
      const [reopened, deleted] = await Promise.all([act(s.gid, 'reopen'), remove(s.gid, s.name)]);
      const exists = (await get(app, `${ADMIN}/surveys/${s.gid}/`, staff())).statusCode === 200;
      if (deleted.statusCode === 204) {
        expect(reopened.statusCode).not.toBe(200);
        expect(exists).toBe(false);
        return;
      }
      expect(deleted.statusCode).toBe(409);
      expect(reopened.statusCode).toBe(200);
      expect(exists).toBe(true);
    }
  }, 120_000);
});
