import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { questions, surveys } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { createMember, json, post } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { memberDevice } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { memoryLog } from '../../test/log.js';

const CANARY = 'canary confession 9c41';

describe.each(engines)('answers stay out of the logs on %s', (engine) => {
  let database: Database;
  let app: App;
  const log = memoryLog('trace');

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    app = await createTestApp(database, { logLevel: 'trace' }, { logger: log.logger });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('logs answering, its errors, a rating and a timing without the answer or the key', async () => {
    const [open] = await database.db
      .select({ qid: questions.qid })
      .from(questions)
      .innerJoin(surveys, eq(surveys.id, questions.surveyId))
      .where(eq(surveys.slug, 'taboos'))
      .orderBy(questions.position)
      .then((rows) => rows.slice(-1));
    const member = await createMember(app);
    const { token } = member;
    // The member's device holds the survey's credential (asked with the session) and answers
    // and rates with it, without the session.
    const device = memberDevice(app, member);
    const credential = await device.credentialOf(open!.qid);
    const key = crypto.randomUUID();
    const tooLong = await device.answer(open!.qid, { text: `${CANARY} ${'x'.repeat(2000)}` });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).not.toContain(CANARY);
    const res = await device.answer(open!.qid, { text: CANARY }, { key });
    expect(res.statusCode).toBe(201);
    const conflict = await device.answer(open!.qid, { text: `${CANARY} again` });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).not.toContain(CANARY);
    expect((await device.rate(open!.qid, 7)).statusCode).toBe(200);
    const timing = json<{ id: string }>(
      await post(app, '/api/v1/questions/answer-time-start/', { qid: open!.qid }, { token }),
    );
    expect(log.text).toContain('/answer/');
    expect(log.text).toContain('/rating/');
    // The key, the credential (two requests), three answers, a rating and a timing.
    expect(log.text.match(/incoming request/g)).toHaveLength(7);
    const [prepared, signature] = credential.split('.') as [string, string];
    for (const secret of [CANARY, key, token, timing.id, prepared, signature]) {
      expect(log.text).not.toContain(secret);
    }
  });

  it('redacts answers even when a body is logged on purpose', () => {
    const out = memoryLog();
    out.logger.info({ req: { body: { choice: 'Yes, once', text: CANARY } } }, 'request');
    out.logger.info({ answer: { choice: 'Yes, once', text: CANARY, answer: CANARY } }, 'x');
    expect(out.text).not.toContain(CANARY);
    expect(out.text).not.toContain('Yes, once');
    expect(out.text).toContain('[Redacted]');
  });

  it('logs a failed query by its code and stack, never its parameters', async () => {
    const failure = await database.db
      .execute(sql`select ${CANARY}::int as n`)
      .then(() => undefined)
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    // Drizzle's own message carries the parameters: that is what must not be logged.
    expect((failure as Error).message).toContain(CANARY);
    const out = memoryLog();
    out.logger.error({ err: failure }, 'unhandled error');
    expect(out.text).not.toContain(CANARY);
    expect(out.text).toContain('22P02'); // invalid_text_representation: enough to debug
  });
});

describe('what the answer tables can hold (the privacy page says so)', () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });

  afterAll(async () => {
    await closeAll(database);
  });

  it('no table of answers, ratings, timings, results or page views has a user, phone, IP or time column', async () => {
    const result = await database.db.execute(sql`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = 'public'
        and table_name in ('respondents', 'answers', 'ratings', 'timings', 'answer_counts',
                           'answer_words', 'question_tallies', 'page_views')`);
    const columns = (
      result as {
        rows: Array<{ table_name: string; column_name: string; data_type: string }>;
      }
    ).rows;
    expect(columns.length).toBeGreaterThan(20);
    const identifying = columns.filter((c) => /user|phone|ip|uuid|token$/.test(c.column_name));
    expect(identifying).toEqual([]);
    // Next to an answer only a day is kept; a time exists only for a published snapshot.
    const times = columns.filter((c) => c.data_type.startsWith('timestamp'));
    expect(times.map((c) => `${c.table_name}.${c.column_name}`)).toEqual([
      'question_tallies.published_at',
    ]);
  });
});
