import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/client.js';
import { seedSampleContent } from '../db/seed/seed.js';
import { eq } from 'drizzle-orm';
import { answers, choices, questions } from '../db/schema.js';
import { createMember, get, json, post, send, signUp } from '../test/accounts.js';
import { createTestApp } from '../test/app.js';
import { memberDevice } from '../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../test/database.js';

// Every member-held id (idempotency keys, timing ids, refresh tokens) used by another member:
// nothing of one member is read, replayed, ended or changed by another.

interface Q {
  qid: string;
  type: string;
  choices: string[];
}

describe.each(engines)('one member with another member’s ids, on %s', (engine) => {
  let database: Database;
  let app: App;
  let closed: Q[];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    app = await createTestApp(database, { resultsRefreshSeconds: 0 });
    const list = json<{ results: Array<{ status: string; questions: Q[] }> }>(
      await get(app, '/api/v1/surveys/open-closed-random-video-surveys?page_size=100'),
    );
    closed = list.results
      .filter((s) => s.status === 'Open')
      .flatMap((s) => s.questions)
      .filter((q) => q.type === 'Closed');
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  const attempted = async (token: string) =>
    json<{ results: Array<{ qid: string; answer: string }> }>(
      await get(app, '/api/v1/questions/my-attempted-questions/?page_size=100', { token }),
    ).results;

  it("never replays another member's answer for their Idempotency-Key", async () => {
    const [a, b] = [await createMember(app), await createMember(app)];
    const [da, db] = [memberDevice(app, a), memberDevice(app, b)];
    const q = closed[0]!;
    const key = crypto.randomUUID();
    const first = await da.answer(q.qid, { choice: q.choices[0] }, { key });
    expect(first.statusCode, first.body).toBe(201);
    // B's device sends the same key with B's own credential: a new answer, not A's replayed.
    const other = await db.answer(q.qid, { choice: q.choices[1] }, { key });
    expect(other.statusCode, other.body).toBe(201);
    expect(json(other).answer).toBe(q.choices[1]);
    // Each key replays its own credential's answer only.
    const againA = await da.answer(q.qid, { choice: q.choices[0] }, { key });
    expect(againA.statusCode).toBe(200);
    expect(json(againA).answer).toBe(q.choices[0]);
    const againB = await db.answer(q.qid, { choice: q.choices[1] }, { key });
    expect(againB.statusCode).toBe(200);
    expect(json(againB).answer).toBe(q.choices[1]);
    // Once mixed, both answers are stored, each under its own respondent.
    await app.credentials.mix(true);
    const stored = await app.db
      .select({ respondent: answers.respondentId, label: choices.label })
      .from(answers)
      .innerJoin(questions, eq(questions.id, answers.questionId))
      .innerJoin(choices, eq(choices.id, answers.choiceId))
      .where(eq(questions.qid, q.qid));
    expect(stored.map((r) => r.label).sort()).toEqual([q.choices[0], q.choices[1]].sort());
    expect(new Set(stored.map((r) => r.respondent)).size).toBe(2);
  });

  it("cannot end another member's timing, nor read their answers, export or ratings", async () => {
    const [a, b] = [await createMember(app), await createMember(app)];
    const q = closed[1]!;
    for (const kind of ['answer', 'graph'] as const) {
      const started = await post(app, `/api/v1/questions/${kind}-time-start/`, { qid: q.qid }, a);
      expect(started.statusCode, started.body).toBe(201);
      const { id } = json<{ id: string }>(started);
      const stolen = await send(
        app,
        'PUT',
        `/api/v1/questions/${kind}-time-end/${encodeURIComponent(id)}`,
        {},
        b,
      );
      expect(stolen.statusCode, `${kind} ${stolen.body}`).toBe(404);
      const own = await send(
        app,
        'PUT',
        `/api/v1/questions/${kind}-time-end/${encodeURIComponent(id)}`,
        {},
        a,
      );
      expect(own.statusCode, own.body).toBe(200);
    }
    const [da, db] = [memberDevice(app, a), memberDevice(app, b)];
    expect((await da.answerNow(q.qid, { choice: q.choices[0] })).statusCode).toBe(201);
    expect((await da.rate(q.qid, 9)).statusCode).toBe(200);
    // B has answered nothing: sees none of A's answers, cannot rate on A's answer with B's own
    // credential for the survey.
    expect(await attempted(b.token)).toEqual([]);
    const rating = await db.rate(q.qid, 1);
    expect(rating.statusCode).toBe(409);
    expect(json(rating).code).toBe('NOT_ANSWERED');
    const exported = await get(app, '/api/v1/user/export/', b);
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain(a.uuid);
    expect(exported.body).not.toContain(q.qid);
  });

  it("cannot use another member's refresh token to become them after logging out", async () => {
    const a = await signUp(app, '+12025550177');
    const b = await signUp(app, '+12025550178');
    // B presents A's refresh token: it is A's session, so this is theft; after A logs out it is dead.
    await post(app, '/api/v1/user/logout/', { refresh: a.refresh }, { token: a.access });
    const stolen = await post(
      app,
      '/api/token/refresh/',
      { refresh: a.refresh },
      { token: b.access },
    );
    expect(stolen.statusCode).toBe(401);
    // And B's own session is untouched.
    expect((await post(app, '/api/token/refresh/', { refresh: b.refresh })).statusCode).toBe(200);
  });
});
