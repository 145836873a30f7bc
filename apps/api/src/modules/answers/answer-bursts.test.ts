import crypto from 'node:crypto';
import { type SQL, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { answerInbox, answers, choices, questions } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { createMember } from '../../test/accounts.js';
import { deriveCredentialKeys } from '../../lib/keys.js';
import { openJson, sealJson } from '../../lib/profile-seal.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { memberDevice } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

/** Rows stored by one commit share its transaction id (`xmin`): how many commits wrote them. */
async function commitsOf(database: Database, rows: SQL): Promise<number> {
  const result = await database.db.execute(
    sql`select count(distinct xmin::text)::int as n from ${rows}`,
  );
  const list = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    n: number;
  }>;
  return list[0]!.n;
}

/** A question's answers, and every stored receipt. */
const answersTo = (questionId: number) => sql`answers where question_id = ${questionId}`;
const receipts = sql`redemptions`;

describe.each(engines)('answers arriving together on %s', (engine) => {
  let database: Database;
  let app: App;
  let closed: Array<{ id: number; qid: string; labels: string[] }>;
  const secrets = testSecrets();
  const { inbox } = deriveCredentialKeys(secrets);

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    app = await createTestApp(database, { resultsRefreshSeconds: 0 }, { secrets });
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
    expect(await commitsOf(database, answersTo(q.id))).toBeLessThan(40);
  });

  it('acknowledges credential answers that arrive together after a few commits (group commit)', async () => {
    const q = closed[2]!;
    const devices = await Promise.all(
      Array.from({ length: 120 }, async () => memberDevice(app, await createMember(app))),
    );
    await Promise.all(devices.map((d) => d.credentialOf(q.qid)));
    const before = await commitsOf(database, receipts);
    const replies = await Promise.all(
      devices.map((d, i) => d.answer(q.qid, { choice: q.labels[i % q.labels.length] })),
    );
    expect(replies.map((r) => r.statusCode)).toEqual(devices.map(() => 201));
    // Receipts and inbox rows are written when the answer is acknowledged: one statement and
    // one commit per answer would be 120 commits.
    const commits = (await commitsOf(database, receipts)) - before;
    expect(commits).toBeGreaterThan(0);
    expect(commits).toBeLessThan(40);
    // Each commit's answers wait sealed together, in one inbox row.
    const rows = await database.db.select().from(answerInbox);
    expect(rows.length).toBe(commits);
    const entries = rows.map((r) => openJson(inbox, r.payload) as unknown[]);
    expect(entries.flat()).toHaveLength(120);
    // A row sealed before (one answer, not in a list) is still mixed: an inbox left by an older
    // build when it was upgraded.
    await database.db.delete(answerInbox);
    await database.db
      .insert(answerInbox)
      .values(entries.flat().map((entry) => ({ payload: sealJson(inbox, entry) })));
    await app.credentials.mix(true);
    const [stored] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(answers)
      .where(eq(answers.questionId, q.id));
    expect(stored!.n).toBe(120);
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
});
