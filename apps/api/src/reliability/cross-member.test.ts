import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/client.js';
import { seedSampleContent } from '../db/seed/seed.js';
import { createMember, get, json, post, send, signUp } from '../test/accounts.js';
import { createTestApp } from '../test/app.js';
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
    const q = closed[0]!;
    const key = crypto.randomUUID();
    const headers = { 'idempotency-key': key };
    const first = await post(
      app,
      `/api/v1/questions/${q.qid}/answer/`,
      { choice: q.choices[0] },
      { ...a, headers },
    );
    expect(first.statusCode).toBe(201);
    const other = await post(
      app,
      `/api/v1/questions/${q.qid}/answer/`,
      { choice: q.choices[1] },
      { ...b, headers },
    );
    expect(other.statusCode).toBe(201);
    expect(json(other).answer).toBe(q.choices[1]);
    expect((await attempted(a.token)).find((x) => x.qid === q.qid)?.answer).toBe(q.choices[0]);
    expect((await attempted(b.token)).find((x) => x.qid === q.qid)?.answer).toBe(q.choices[1]);
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
    await post(app, `/api/v1/questions/${q.qid}/answer/`, { choice: q.choices[0] }, a);
    await post(app, `/api/v1/questions/${q.qid}/rating/`, { score: 9 }, a);
    // B has answered nothing: sees none of A's answers, cannot rate on A's answer.
    expect(await attempted(b.token)).toEqual([]);
    const rating = await post(app, `/api/v1/questions/${q.qid}/rating/`, { score: 1 }, b);
    expect(rating.statusCode).toBe(409);
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
