// Withdrawal from the device (decision 020, slice 4): with the survey's credential and no
// session, every answer and rating it gave leaves the counts and the database, those still
// waiting to be mixed included, and the credential answers nothing more.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { answerInbox, answers, respondents } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { deriveProfileKey } from '../../lib/keys.js';
import { createMember, post } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { obtainCredential, redeem, releasedSurveys } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { pendingOf, pendingTotal } from '../../test/results.js';
import { credentialTag } from './credentials.service.js';

interface Q {
  id: number;
  qid: string;
  labels: string[];
}
interface S {
  gid: string;
  questions: Q[];
}

const tagOf = (credential: string) =>
  credentialTag(Buffer.from(credential.split('.')[0]!, 'base64url'));

describe.each(engines)('withdrawing answers with their credential on %s', (engine) => {
  let database: Database;
  let app: App;
  const secrets = testSecrets();
  const profileKey = deriveProfileKey(secrets);
  const open: S[] = [];

  const withdraw = (gid: string, credential?: string) =>
    post(
      app,
      `/api/v1/surveys/${gid}/answers/withdrawal/`,
      {},
      credential ? { headers: { 'candor-credential': credential } } : {},
    );
  const respondentOf = async (credential: string) =>
    (
      await database.db
        .select({ id: respondents.id })
        .from(respondents)
        .where(eq(respondents.pseudonym, tagOf(credential)))
    )[0]?.id;
  const answersOf = async (questionId: number) =>
    (
      await database.db
        .select({ n: count() })
        .from(answers)
        .where(eq(answers.questionId, questionId))
    )[0]!.n;
  /** Members who each answer the first two questions of `s` with a credential. */
  async function answering(s: S, people: number): Promise<string[]> {
    const members = await Promise.all(Array.from({ length: people }, () => createMember(app)));
    const credentials = await Promise.all(
      members.map((m) => obtainCredential(app, m.token, s.gid)),
    );
    for (const [i, c] of credentials.entries()) {
      for (const q of s.questions.slice(0, 2)) {
        const res = await redeem(app, q.qid, c, { choice: q.labels[i % q.labels.length] });
        expect(res.statusCode).toBe(201);
      }
    }
    return credentials;
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db, { now: new Date() });
    open.push(
      ...(await releasedSurveys(database.db)).filter((s) => !s.closed && s.questions.length >= 3),
    );
    app = await createTestApp(
      database,
      { resultsRefreshSeconds: 0, mixing: { minPeople: 5, maxWaitSeconds: 600 } },
      { secrets },
    );
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('takes mixed and counted answers out of the counts and the database; the credential answers nothing more', async () => {
    const s = open[0]!;
    const [q1, q2, q3] = s.questions;
    const credentials = await answering(s, 6);
    const mine = credentials[0]!;
    expect(await app.credentials.mix(true)).toBeGreaterThan(0);
    await app.results.fold();
    const before = pendingTotal(await pendingOf(database.db, q1!.id, profileKey));
    const stored = await answersOf(q1!.id);
    const id = await respondentOf(mine);
    expect(id).toBeDefined();

    const res = await withdraw(s.gid, mine);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ gid: s.gid, withdrawn: true });
    // Gone from the database, and one fewer in the open period's true change.
    expect(await respondentOf(mine)).toBeUndefined();
    expect(await answersOf(q1!.id)).toBe(stored - 1);
    expect(await answersOf(q2!.id)).toBe(stored - 1);
    expect(pendingTotal(await pendingOf(database.db, q1!.id, profileKey))).toBe(before - 1);
    // Another's answers stay.
    expect(await respondentOf(credentials[1]!)).toBeDefined();

    // The credential answers nothing more, a question it skipped included: a withdrawal is
    // not a way to answer again.
    for (const q of [q1!, q3!]) {
      const again = await redeem(app, q.qid, mine, { choice: q.labels[0] });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'ANSWERS_WITHDRAWN' });
    }
    const rating = await post(
      app,
      `/api/v1/questions/${q1!.qid}/rating/`,
      { score: 7 },
      {
        headers: { 'candor-credential': mine },
      },
    );
    expect(rating.json()).toMatchObject({ code: 'ANSWERS_WITHDRAWN' });
    // Again: the same reply, and nothing else changes.
    expect((await withdraw(s.gid, mine)).json()).toEqual({ gid: s.gid, withdrawn: true });
    expect(await answersOf(q1!.id)).toBe(stored - 1);
  }, 120_000);

  it('drops what waits to be mixed, and a mix running at the same time writes none of it', async () => {
    const s = open[1] ?? open[0]!;
    await app.credentials.mix(true);
    const credentials = await answering(s, 8);
    const [waiting, racing] = credentials;
    expect(
      (await database.db.select({ n: count() }).from(answerInbox))[0]!.n,
    ).toBeGreaterThanOrEqual(16);
    // One withdrawn while its answers wait; one withdrawn while the mix runs.
    expect((await withdraw(s.gid, waiting)).statusCode).toBe(200);
    const [mixed, raced] = await Promise.all([app.credentials.mix(true), withdraw(s.gid, racing)]);
    expect(raced.statusCode).toBe(200);
    expect(mixed).toBeGreaterThan(0);
    await app.credentials.mix(true);
    expect(await respondentOf(waiting!)).toBeUndefined();
    expect(await respondentOf(racing!)).toBeUndefined();
    expect(await respondentOf(credentials[2]!)).toBeDefined();
    expect((await database.db.select({ n: count() }).from(answerInbox))[0]!.n).toBe(0);
  }, 120_000);

  it('refuses a forged credential, another survey’s, and none at all, changing nothing', async () => {
    const [s, other] = [open[0]!, open[1] ?? open[0]!];
    const [theirs] = await answering(other, 1);
    const people = async () => (await database.db.select({ n: count() }).from(respondents))[0]!.n;
    const before = await people();
    const forged = `${Buffer.alloc(64, 1).toString('base64url')}.${Buffer.alloc(256, 2).toString('base64url')}`;
    expect((await withdraw(s.gid, forged)).statusCode).toBe(403);
    if (other.gid !== s.gid) expect((await withdraw(s.gid, theirs)).statusCode).toBe(403);
    expect((await withdraw(s.gid)).statusCode).toBe(400);
    expect((await withdraw('no-such-survey', theirs)).statusCode).toBe(404);
    expect(await people()).toBe(before);
  }, 60_000);
});
