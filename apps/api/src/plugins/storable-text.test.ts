import { and, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/client.js';
import { answerInbox, auditLog, genres, questions, surveys } from '../db/schema.js';
import { seedSampleContent } from '../db/seed/seed.js';
import { createMember, get, json, post, send } from '../test/accounts.js';
import { createTestApp } from '../test/app.js';
import { memberDevice } from '../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../test/database.js';
import { unstorablePath } from './storable-text.js';

describe('unstorablePath', () => {
  it('names the first string with a NUL byte or half a surrogate pair, keys included', () => {
    expect(unstorablePath({ a: 'fine 👩‍👩‍👧', b: ['x', { c: 'y\u0000' }] })).toBe('b.1.c');
    expect(unstorablePath({ name: '\ud800' })).toBe('name');
    expect(unstorablePath({ name: 'x \udfff' })).toBe('name');
    expect(unstorablePath({ '\u0000': 1 })).toBe('');
    expect(unstorablePath('\ud83d\ude00')).toBeUndefined();
    expect(unstorablePath(null)).toBeUndefined();
  });
});

describe.each(engines)('text PostgreSQL cannot store, on %s (issue 34, finding 7)', (engine) => {
  let database: Database;
  let app: App;
  let admin: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    app = await createTestApp(database, { resultsRefreshSeconds: 0 });
    admin = (await createMember(app, { role: 'admin' })).token;
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('refuses a lone surrogate or a NUL byte in a staff text with a 400 and saves nothing', async () => {
    const audits = (await database.db.select().from(auditLog)).length;
    const genreCount = (await database.db.select().from(genres)).length;
    for (const name of ['\ud800', 'Money\u0000Talks', 'x\udfff']) {
      const res = await post(app, '/api/v1/admin/genres/', { genre_name: name }, { token: admin });
      expect(res.statusCode).toBe(400);
      expect(json(res).genre_name).toEqual([expect.stringMatching(/cannot be stored/)]);
    }
    expect(await database.db.select().from(genres)).toHaveLength(genreCount);
    expect(await database.db.select().from(auditLog)).toHaveLength(audits);
    // A whole emoji is fine, and is audited with the change.
    const ok = await post(
      app,
      '/api/v1/admin/genres/',
      { genre_name: 'Taboo 🤫' },
      { token: admin },
    );
    expect(ok.statusCode).toBe(201);
    expect(await database.db.select().from(auditLog)).toHaveLength(audits + 1);
  });

  it('refuses them in queries, paths and members’ answers as well, never a 500', async () => {
    const search = await get(app, `/api/v1/admin/users/?search=${encodeURIComponent('+1\u0000')}`, {
      token: admin,
    });
    expect(search.statusCode).toBe(400);
    const member = await createMember(app);
    const path = await send(
      app,
      'GET',
      `/api/v1/surveys/${encodeURIComponent('\u0000')}/video-survey`,
      undefined,
      {
        token: member.token,
      },
    );
    expect(path.statusCode).toBe(400);
    // An answer redeemed with the member's credential (no session) to an open question.
    const [open] = await database.db
      .select({ qid: questions.qid })
      .from(questions)
      .innerJoin(surveys, eq(surveys.id, questions.surveyId))
      .where(
        and(
          eq(questions.type, 'Open'),
          isNotNull(surveys.publishedAt),
          isNull(surveys.closedAt),
          lte(surveys.releaseDate, new Date()),
        ),
      )
      .limit(1);
    const device = memberDevice(app, member);
    const inbox = (await database.db.select().from(answerInbox)).length;
    const answer = await device.answer(open!.qid, { text: 'an answer\u0000' });
    expect(answer.statusCode).toBe(400);
    expect(json(answer).text).toBeDefined();
    expect(await database.db.select().from(answerInbox)).toHaveLength(inbox);
    // The same credential then answers the same question with storable text.
    expect((await device.answer(open!.qid, { text: 'an answer' })).statusCode).toBe(201);
  });
});
