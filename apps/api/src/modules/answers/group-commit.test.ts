import crypto from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { answers, choices, questions, respondents, resultsQueue } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { createMember } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { memberDevice } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { createAnswersRepository } from './answers.repository.js';

/** Rows stored by one statement share its transaction id (`xmin`): how many commits wrote them. */
async function commitsOf(database: Database, questionId: number): Promise<number> {
  const rows = await database.db.execute(
    sql`select count(distinct xmin::text)::int as n from answers where question_id = ${questionId}`,
  );
  const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as Array<{
    n: number;
  }>;
  return list[0]!.n;
}

describe.each(engines)('group commit of answers on %s', (engine) => {
  let database: Database;
  let app: App;
  let closed: Array<{ id: number; qid: string; labels: string[] }>;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    app = await createTestApp(database, { resultsRefreshSeconds: 0 });
    const rows = await database.db
      .select({ id: questions.id, qid: questions.qid })
      .from(questions)
      .where(eq(questions.type, 'Closed'));
    const labels = await database.db
      .select({ questionId: choices.questionId, label: choices.label })
      .from(choices)
      .where(eq(choices.isBlank, false));
    closed = rows.map((r) => ({
      ...r,
      labels: labels.filter((c) => c.questionId === r.id).map((c) => c.label),
    }));
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  /**
   * `count` respondents made in SQL, a batching repository, and an answer of theirs to a closed
   * question (its first choice), for tests of the batch writer itself.
   */
  async function batchOf(q: { id: number }, count: number, name: string) {
    const [choice] = await database.db
      .select({ id: choices.id })
      .from(choices)
      .where(and(eq(choices.questionId, q.id), eq(choices.isBlank, false)));
    const made = await database.db
      .insert(respondents)
      .values(
        Array.from({ length: count }, (_, i) => ({
          pseudonym: `${name}-${engine}-${i}`,
          profile: 'x',
        })),
      )
      .returning({ id: respondents.id });
    return {
      ids: made.map((r) => r.id),
      repo: createAnswersRepository(database.db, { maxRows: 100, inFlight: 1 }),
      row: (respondentId: number, questionId = q.id) => ({
        respondentId,
        questionId,
        choiceId: choice!.id,
        isBlank: false,
        answeredOn: '2026-11-23',
      }),
    };
  }

  it('writes credential answers that arrive together in a few commits once mixed, each acknowledged once', async () => {
    const q = closed[0]!;
    const members = await Promise.all(Array.from({ length: 120 }, () => createMember(app)));
    const devices = members.map((m) => memberDevice(app, m));
    await Promise.all(devices.map((d) => d.credentialOf(q.qid)));
    const replies = await Promise.all(
      devices.map((d, i) => d.answer(q.qid, { choice: q.labels[i % q.labels.length] })),
    );
    expect(replies.map((r) => r.statusCode)).toEqual(members.map(() => 201));
    await app.credentials.mix(true);
    // Every acknowledged answer is there, once.
    const [stored] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(answers)
      .where(eq(answers.questionId, q.id));
    expect(stored!.n).toBe(120);
    // The mixer writes them in batches: one statement per answer would be 120 commits.
    expect(await commitsOf(database, q.id)).toBeLessThan(40);
  });

  it('keeps the semantics of each request arriving together: replays, conflicts, idempotency keys', async () => {
    const q = closed[1]!;
    const [yes, no] = q.labels as [string, string];
    const same = memberDevice(app, await createMember(app));
    const other = memberDevice(app, await createMember(app));
    const keyed = memberDevice(app, await createMember(app));
    const crowd = await Promise.all(
      Array.from({ length: 20 }, async () => memberDevice(app, await createMember(app))),
    );
    await Promise.all([same, other, keyed, ...crowd].map((d) => d.credentialOf(q.qid)));
    const key = crypto.randomUUID();
    const replies = await Promise.all([
      same.answer(q.qid, { choice: yes }),
      same.answer(q.qid, { choice: yes }),
      other.answer(q.qid, { choice: yes }),
      other.answer(q.qid, { choice: no }),
      keyed.answer(q.qid, { choice: yes }, { key }),
      keyed.answer(q.qid, { choice: yes }, { key }),
      ...crowd.map((d) => d.answer(q.qid, { choice: no })),
    ]);
    const status = replies.map((r) => r.statusCode);
    // The same answer twice: one stored, one replayed.
    expect(status.slice(0, 2).sort()).toEqual([200, 201]);
    // Two different answers at once: one stored, the other refused, as one after the other.
    expect(status.slice(2, 4).sort()).toEqual([201, 409]);
    // The same Idempotency-Key: one stored, the other a replay of it.
    expect(status.slice(4, 6).sort()).toEqual([200, 201]);
    expect(status.slice(6)).toEqual(crowd.map(() => 201));
    // A different answer under the same key is refused: a credential's answer is never changed.
    expect((await keyed.answer(q.qid, { choice: no }, { key })).statusCode).toBe(409);
    await app.credentials.mix(true);
    const [stored] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(answers)
      .where(eq(answers.questionId, q.id));
    expect(stored!.n).toBe(23);
  });

  it('fails only the bad row of a batch, never the others', async () => {
    const { ids, repo, row } = await batchOf(closed[2]!, 10, 'batch');
    const results = await Promise.allSettled([
      ...ids.map((id) => repo.insertAnswer(row(id))),
      // A question that does not exist (deleted a moment ago): a foreign key refuses it.
      repo.insertAnswer(row(ids[0]!, 2_000_000_000)),
    ]);
    expect(results.slice(0, 10).map((r) => r.status === 'fulfilled' && r.value)).toEqual(
      ids.map(() => true),
    );
    expect(results[10]!.status).toBe('rejected');
    const stored = await database.db
      .select({ id: answers.respondentId })
      .from(answers)
      .where(inArray(answers.respondentId, ids));
    expect(stored).toHaveLength(10);
  });

  it('stores every value of a batch as sent, whatever its characters, in one commit', async () => {
    const [open] = await database.db
      .select({ id: questions.id })
      .from(questions)
      .where(eq(questions.type, 'Open'))
      .limit(1);
    const texts = [
      'plain',
      'a, b',
      'she said "no"',
      'back\\slash \\" both',
      '{braces}',
      'NULL',
      '',
      'émoji 🙈 and 日本語',
      "it's",
      null,
    ];
    const made = await database.db
      .insert(respondents)
      .values(texts.map((_, i) => ({ pseudonym: `texts-${engine}-${i}`, profile: 'x' })))
      .returning({ id: respondents.id });
    const repo = createAnswersRepository(database.db, { maxRows: 100, inFlight: 1 });
    const stored = await Promise.all(
      made.map((r, i) =>
        repo.insertAnswer({
          respondentId: r.id,
          questionId: open!.id,
          text: texts[i],
          isBlank: texts[i] === null,
          answeredOn: '2026-11-2' + String(i % 3),
          idempotencyKey: i % 2 ? `key-${String(i)}` : null,
          moderation: texts[i] === null ? null : i % 2 ? 'pending' : 'approved',
        }),
      ),
    );
    expect(stored).toEqual(made.map(() => true));
    const rows = await database.db
      .select({
        respondentId: answers.respondentId,
        text: answers.text,
        isBlank: answers.isBlank,
        answeredOn: answers.answeredOn,
        idempotencyKey: answers.idempotencyKey,
        moderation: answers.moderation,
        commit: sql<string>`xmin::text`,
      })
      .from(answers)
      .where(
        inArray(
          answers.respondentId,
          made.map((r) => r.id),
        ),
      );
    const byRespondent = new Map(rows.map((r) => [r.respondentId, r]));
    made.forEach((r, i) => {
      expect(byRespondent.get(r.id)).toMatchObject({
        text: texts[i],
        isBlank: texts[i] === null,
        answeredOn: '2026-11-2' + String(i % 3),
        idempotencyKey: i % 2 ? `key-${String(i)}` : null,
        moderation: texts[i] === null ? null : i % 2 ? 'pending' : 'approved',
      });
    });
    expect(new Set(rows.map((r) => r.commit)).size).toBe(1);
  });

  it('queues each row a batch stored for the results once, and no row it skipped', async () => {
    const q = closed[3]!;
    const { ids, repo, row } = await batchOf(q, 8, 'queue');
    // The first member answered before, and that answer was counted (its queue row is gone).
    expect(await repo.insertAnswer(row(ids[0]!))).toBe(true);
    await database.db.delete(resultsQueue).where(eq(resultsQueue.respondentId, ids[0]!));
    const stored = await Promise.all([...ids, ids[1]!].map((id) => repo.insertAnswer(row(id))));
    expect(stored).toEqual([false, true, true, true, true, true, true, true, false]);
    expect(await commitsOf(database, q.id)).toBe(2);
    const queued = await database.db
      .select({ respondentId: resultsQueue.respondentId, kind: resultsQueue.kind })
      .from(resultsQueue)
      .where(and(eq(resultsQueue.questionId, q.id), inArray(resultsQueue.respondentId, ids)));
    expect(queued.map((r) => r.respondentId).sort()).toEqual(ids.slice(1).sort());
    expect(new Set(queued.map((r) => r.kind))).toEqual(new Set(['answer']));
  });
});
