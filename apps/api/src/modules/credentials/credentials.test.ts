import crypto from 'node:crypto';
import type { CredentialKey, CredentialResponse } from '@candor/contracts';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import {
  answerInbox,
  answers,
  credentialIssuances,
  questions,
  redemptions,
  respondents,
  timings,
} from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { deriveProfileKey, derivePseudonymKey, hmacHex } from '../../lib/keys.js';
import { openProfile } from '../../lib/profile-seal.js';
import { createMember, get, json, post, send } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { blindForTest, obtainCredential, redeem, releasedSurveys } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { writeOldWay } from '../../test/old-way.js';
import { severOldRespondents } from '../respondents/sever.js';
import { credentialTag } from './credentials.service.js';
import { pendingOf, pendingTotal } from '../../test/results.js';

interface Q {
  id: number;
  qid: string;
  labels: string[];
}
interface S {
  id: number;
  gid: string;
  questions: Q[];
}

/** Spearman's rank correlation of two equally long lists of distinct numbers. */
function spearman(a: number[], b: number[]): number {
  const rank = (xs: number[]) => {
    const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
    const r = new Array<number>(xs.length);
    order.forEach(([, i], k) => (r[i] = k));
    return r;
  };
  const ra = rank(a);
  const rb = rank(b);
  const n = a.length;
  const d2 = ra.reduce((sum, r, i) => sum + (r - rb[i]!) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

describe.each(engines)('anonymous answer credentials on %s', (engine) => {
  let database: Database;
  let app: App;
  const secrets = testSecrets();
  const listed: S[] = [];
  let closed: S;

  const issue = (token: string | undefined, requests: unknown) =>
    post(app, '/api/v1/credentials/', { requests }, token ? { token } : {});
  const keyOf = async (gid: string) =>
    json<CredentialKey>(await get(app, `/api/v1/surveys/${gid}/credential-key/`));
  const blinded = async (gid: string) =>
    blindForTest(Buffer.from((await keyOf(gid)).public_key, 'base64url'));

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db, { now: new Date() });
    const all = await releasedSurveys(database.db);
    listed.push(...all.filter((s) => !s.closed));
    closed = all.find((s) => s.closed)!;
    app = await createTestApp(
      database,
      { resultsRefreshSeconds: 0, mixing: { minPeople: 5, maxWaitSeconds: 600 } },
      { secrets },
    );
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  describe('issuing', () => {
    it('publishes one key per survey, the same to every reader, and none for a closed survey', async () => {
      const [a, b] = await Promise.all([keyOf(listed[0]!.gid), keyOf(listed[0]!.gid)]);
      expect(a.key_id).toBe(b.key_id);
      expect(a.suite).toBe('RSABSSA-SHA384-PSS-Randomized');
      expect((await keyOf(listed[1]!.gid)).key_id).not.toBe(a.key_id);
      const res = await get(app, `/api/v1/surveys/${closed.gid}/credential-key/`);
      expect(res.statusCode).toBe(409);
      expect(json(res).code).toBe('SURVEY_CLOSED');
      expect(
        (await get(app, `/api/v1/surveys/${crypto.randomUUID()}/credential-key/`)).statusCode,
      ).toBe(404);
    });

    it('signs once per member and survey: a retry gets the same signature, another request none', async () => {
      const { token } = await createMember(app);
      const gid = listed[0]!.gid;
      const first = await blinded(gid);
      const request = [{ gid, blinded_msg: first.blindedMsg.toString('base64url') }];
      const one = json<CredentialResponse>(await issue(token, request));
      const again = json<CredentialResponse>(await issue(token, request));
      expect(one.credentials).toHaveLength(1);
      expect(again.credentials).toEqual(one.credentials);
      const other = await blinded(gid);
      const second = await issue(token, [
        { gid, blinded_msg: other.blindedMsg.toString('base64url') },
      ]);
      expect(second.statusCode).toBe(200);
      expect(json<CredentialResponse>(second)).toMatchObject({
        credentials: [],
        refused: [{ gid, code: 'CREDENTIAL_ISSUED' }],
      });
      // The first one works.
      const credential = await first.finalize(
        Buffer.from(one.credentials[0]!.blind_sig, 'base64url'),
      );
      const q = listed[0]!.questions[0]!;
      expect((await redeem(app, q.qid, credential, { choice: q.labels[0] })).statusCode).toBe(201);
    });

    it('signs one credential when a burst of different requests for one survey arrives at once', async () => {
      const { token } = await createMember(app);
      const gid = listed[1]!.gid;
      const devices = await Promise.all(Array.from({ length: 12 }, () => blinded(gid)));
      const replies = await Promise.all(
        devices.map((d) =>
          issue(token, [{ gid, blinded_msg: d.blindedMsg.toString('base64url') }]),
        ),
      );
      const issued = replies.flatMap((r) => json<CredentialResponse>(r).credentials);
      expect(issued).toHaveLength(1);
      const rows = await database.db
        .select()
        .from(credentialIssuances)
        .where(eq(credentialIssuances.surveyId, listed[1]!.id));
      expect(rows.filter((r) => r.blindSig === issued[0]!.blind_sig)).toHaveLength(1);
    });

    it('refuses a credential to an account that answered the survey before credentials, and takes no answer with a session', async () => {
      const s = listed[2]!;
      const q = s.questions[1]!;
      // An answer as the logged-in member gave it before credentials (no route takes one now),
      // severed from the account as every start does (its marker is what refuses).
      const before = await createMember(app);
      await writeOldWay(app, secrets, before.uuid, [{ qid: q.qid, choice: q.labels[0] }]);
      expect(
        await severOldRespondents(database, {
          pseudonymKey: derivePseudonymKey(secrets),
          profileKey: deriveProfileKey(secrets),
        }),
      ).toMatchObject({ old: 1, respondents: 1 });
      const device = await blinded(s.gid);
      const refused = json<CredentialResponse>(
        await issue(before.token, [
          { gid: s.gid, blinded_msg: device.blindedMsg.toString('base64url') },
        ]),
      );
      expect(refused).toMatchObject({ credentials: [], refused: [{ code: 'ALREADY_ANSWERED' }] });
      // The session answers nothing, with or without a credential held (it was 201 before).
      const after = await createMember(app);
      await obtainCredential(app, after.token, s.gid);
      for (const who of [before, after]) {
        for (const [path, body] of [
          ['answer', { choice: q.labels[0] }],
          ['rating', { score: 5 }],
        ] as const) {
          const res = await post(app, `/api/v1/questions/${q.qid}/${path}/`, body, {
            token: who.token,
          });
          expect([res.statusCode, json(res).code]).toEqual([401, 'CREDENTIAL_REQUIRED']);
        }
      }
    });

    it('refuses visitors, accounts under review, closed or unknown surveys and malformed requests', async () => {
      const gid = listed[0]!.gid;
      const device = await blinded(gid);
      const request = [{ gid, blinded_msg: device.blindedMsg.toString('base64url') }];
      expect((await issue(undefined, request)).statusCode).toBe(401);
      const waiting = await createMember(app, { status: 'under_review' });
      const refused = await issue(waiting.token, request);
      expect(refused.statusCode).toBe(403);
      expect(json(refused).detail).toMatch(/wait on this device/);
      const { token } = await createMember(app);
      const mixed = json<CredentialResponse>(
        await issue(token, [
          { gid: closed.gid, blinded_msg: device.blindedMsg.toString('base64url') },
          { gid: crypto.randomUUID(), blinded_msg: device.blindedMsg.toString('base64url') },
          { gid, blinded_msg: Buffer.alloc(256, 255).toString('base64url') },
          { gid: listed[2]!.gid, blinded_msg: Buffer.alloc(10, 1).toString('base64url') },
        ]),
      );
      expect(mixed.credentials).toEqual([]);
      expect(mixed.refused.map((r) => r.code)).toEqual([
        'SURVEY_CLOSED',
        'NOT_FOUND',
        'VALIDATION_FAILED',
        'VALIDATION_FAILED',
      ]);
      for (const bad of [
        [],
        [{ gid, blinded_msg: 'not base64!' }],
        [{ gid: 'x', blinded_msg: 'AA' }],
      ]) {
        expect((await issue(token, bad)).statusCode).toBe(400);
      }
    });
  });

  describe('redeeming', () => {
    it('takes an answer with no session, writes nothing beside an account, and counts it once mixed', async () => {
      const { token, uuid } = await createMember(app, { gender: 'male', country: 'GB' });
      const s = listed[2]!;
      const q = s.questions[0]!;
      const credential = await obtainCredential(app, token, s.gid);
      const before = await pendingOf(app.db, q.id, deriveProfileKey(secrets));
      const res = await redeem(
        app,
        q.qid,
        credential,
        { choice: q.labels[0] },
        {
          profile: { gender: 'male', age_band: '35-44', country: 'GB' },
        },
      );
      expect(res.statusCode).toBe(201);
      expect(json(res)).toMatchObject({
        qid: q.qid,
        gid: s.gid,
        answer: q.labels[0],
        is_blank: false,
      });
      // Acknowledged: sealed in the inbox, not yet an answer.
      expect(await database.db.select().from(answerInbox)).not.toHaveLength(0);
      await app.credentials.mix(true);
      expect(await database.db.select().from(answerInbox)).toHaveLength(0);
      const stored = await database.db
        .select({
          pseudonym: respondents.pseudonym,
          profile: respondents.profile,
          standing: respondents.standing,
        })
        .from(answers)
        .innerJoin(respondents, eq(respondents.id, answers.respondentId))
        .where(eq(answers.questionId, q.id));
      expect(stored).toHaveLength(1);
      // Not the account's pseudonym: the secrets cannot turn the account into this respondent.
      expect(stored[0]!.pseudonym).not.toBe(hmacHex(derivePseudonymKey(secrets), uuid));
      expect(stored[0]!.pseudonym).toMatch(/^cred:/);
      expect(stored[0]!.standing).toBe('counting');
      // Fewer than 10 holders from GB: the country is not stored.
      expect(openProfile(deriveProfileKey(secrets), stored[0]!.profile)).toEqual({
        gender: 'male',
        ageBand: '35-44',
        country: 'other',
      });
      await app.results.tick();
      const after = await pendingOf(app.db, q.id, deriveProfileKey(secrets));
      expect(pendingTotal(after) - pendingTotal(before)).toBeGreaterThanOrEqual(0);
    });

    it('refuses a forged, damaged, wrong-survey or session-carrying credential, and changes nothing', async () => {
      const { token } = await createMember(app);
      const s = listed[3]!;
      const q = s.questions[0]!;
      const credential = await obtainCredential(app, token, s.gid);
      const [prepared, sig] = credential.split('.') as [string, string];
      const flipped = Buffer.from(sig, 'base64url');
      flipped[10]! ^= 1;
      const forged = `${crypto.randomBytes(64).toString('base64url')}.${sig}`;
      const other = listed[4]!.questions[0]!;
      const inbox = (await database.db.select().from(answerInbox)).length;
      for (const [qid, c] of [
        [q.qid, forged],
        [q.qid, `${prepared}.${flipped.toString('base64url')}`],
        [other.qid, credential],
      ] as const) {
        const res = await redeem(app, qid, c, { choice: q.labels[0] });
        expect(res.statusCode).toBe(403);
        expect(json(res).code).toBe('CREDENTIAL_INVALID');
      }
      const malformed = await redeem(app, q.qid, 'no-dot', { choice: q.labels[0] });
      expect(malformed.statusCode).toBe(400);
      const withSession = await post(
        app,
        `/api/v1/questions/${q.qid}/answer/`,
        { choice: q.labels[0] },
        {
          token,
          headers: { 'candor-credential': credential },
        },
      );
      expect(withSession.statusCode).toBe(400);
      expect(JSON.stringify(json(withSession))).toMatch(/without a session/);
      const noProfile = await redeem(
        app,
        q.qid,
        credential,
        { choice: q.labels[0] },
        { profile: null },
      );
      expect(noProfile.statusCode).toBe(400);
      expect(json(noProfile)).toHaveProperty('profile');
      const closedQ = closed.questions[0]!;
      const closedRes = await redeem(app, closedQ.qid, credential, { choice: closedQ.labels[0] });
      expect(json(closedRes).code).toBe('SURVEY_CLOSED');
      expect((await database.db.select().from(answerInbox)).length).toBe(inbox);
      expect((await redeem(app, q.qid, credential, { choice: q.labels[0] })).statusCode).toBe(201);
    });

    it('takes one answer per credential and question: a replay or a retried key is 200, another answer 409', async () => {
      const { token } = await createMember(app);
      const s = listed[5] ?? listed[0]!;
      const [q1, q2] = s.questions as [Q, Q];
      const credential = await obtainCredential(app, token, s.gid);
      const key = crypto.randomUUID();
      // A burst of the same request (a double tap, a retry after a lost reply): one is stored.
      const burst = await Promise.all(
        Array.from({ length: 10 }, () =>
          redeem(app, q1.qid, credential, { choice: q1.labels[0] }, { key }),
        ),
      );
      expect(burst.map((r) => r.statusCode).sort()).toEqual([
        200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
      ]);
      const replay = await redeem(app, q1.qid, credential, { choice: q1.labels[0] });
      expect(replay.statusCode).toBe(200);
      const changed = await redeem(app, q1.qid, credential, { choice: q1.labels[1] }, { key });
      expect(changed.statusCode).toBe(409);
      expect(json(changed).code).toBe('ALREADY_ANSWERED');
      expect((await redeem(app, q2.qid, credential, { choice: q2.labels[1] })).statusCode).toBe(
        201,
      );
      await app.credentials.mix(true);
      const rows = await database.db
        .select({ q: answers.questionId, respondent: answers.respondentId })
        .from(answers)
        .innerJoin(respondents, eq(respondents.id, answers.respondentId))
        .where(
          sql`${respondents.pseudonym} like 'cred:%' and ${answers.questionId} in (${q1.id}, ${q2.id})`,
        );
      const mine = rows.filter((r) => r.respondent === rows.find((x) => x.q === q2.id)!.respondent);
      expect(mine.map((r) => r.q).sort()).toEqual([q1.id, q2.id].sort());
      // Every receipt has one length: lengths tell no answer from another.
      const lengths = await database.db
        .select({
          n: sql<number>`octet_length(${redemptions.key}) + octet_length(${redemptions.answerMac}) + octet_length(${redemptions.idempotencyMac})`,
        })
        .from(redemptions);
      expect(new Set(lengths.map((l) => l.n)).size).toBe(1);
    });
  });

  describe('waiting to be mixed', () => {
    it('is unreadable to a copy of the database, and survives the server that acknowledged it', async () => {
      const { token } = await createMember(app);
      const s = listed[3]!;
      const [q] = await database.db
        .select({ id: questions.id, qid: questions.qid })
        .from(questions)
        .where(and(eq(questions.surveyId, s.id), eq(questions.type, 'Open')));
      const credential = await obtainCredential(app, token, s.gid);
      const secret = `a distinctive answer ${crypto.randomUUID()}`;
      expect((await redeem(app, q!.qid, credential, { text: secret })).statusCode).toBe(201);
      // Every column of the tables the request wrote, as text: no answer, no credential.
      const dump = JSON.stringify([
        await database.db.select().from(answerInbox),
        await database.db.select().from(redemptions),
      ]);
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(credential.split('.')[0]);
      expect(dump).not.toContain(q!.qid);
      // The server that acknowledged it goes; another one, with the same secrets, mixes it.
      await app.close();
      app = await createTestApp(
        database,
        { resultsRefreshSeconds: 0, mixing: { minPeople: 5, maxWaitSeconds: 600 } },
        { secrets },
      );
      await app.credentials.mix(true);
      const stored = await database.db
        .select({ text: answers.text })
        .from(answers)
        .where(eq(answers.questionId, q!.id));
      expect(stored.map((a) => a.text)).toContain(secret);
    });
  });

  describe('ratings and answer times', () => {
    it('rates only what the credential answered, keeps the newest score, and stores the answer time as a duration', async () => {
      const { token } = await createMember(app);
      const s = listed[4]!;
      const q = s.questions[1]!;
      const credential = await obtainCredential(app, token, s.gid);
      const rate = (score: number) =>
        post(
          app,
          `/api/v1/questions/${q.qid}/rating/`,
          { score },
          {
            headers: { 'candor-credential': credential },
          },
        );
      const early = await rate(5);
      expect(early.statusCode).toBe(409);
      expect(json(early).code).toBe('NOT_ANSWERED');
      expect(
        (await redeem(app, q.qid, credential, { choice: q.labels[0], duration_ms: 4200 }))
          .statusCode,
      ).toBe(201);
      expect(json(await rate(3))).toEqual({ qid: q.qid, score: 3 });
      expect((await rate(7)).statusCode).toBe(200);
      expect((await rate(11)).statusCode).toBe(400);
      const other = listed[5]?.questions[0] ?? listed[0]!.questions[2]!;
      expect(
        (
          await post(
            app,
            `/api/v1/questions/${other.qid}/rating/`,
            { score: 1 },
            {
              headers: { 'candor-credential': credential },
            },
          )
        ).statusCode,
      ).toBe(403);
      await app.credentials.mix(true);
      const result = await database.db.execute(sql`
        select rt.score, tm.duration_ms from ratings rt
        join respondents r on r.id = rt.respondent_id
        left join timings tm on tm.respondent_id = r.id and tm.question_id = rt.question_id
        where rt.question_id = ${q.id} and r.pseudonym like 'cred:%'`);
      const [row] = (result as { rows: Array<{ score: number; duration_ms: number }> }).rows;
      expect(row).toEqual({ score: 7, duration_ms: 4200 });
    });
  });

  describe("the spec's timing calls", () => {
    it('store nothing beside the account for a survey it answers with its credential', async () => {
      const member = await createMember(app);
      const s = listed[3]!;
      const q = s.questions[0]!;
      const credential = await obtainCredential(app, member.token, s.gid);
      expect((await redeem(app, q.qid, credential, { choice: q.labels[0] })).statusCode).toBe(201);
      const timingRows = async () =>
        (
          await database.db.select({ n: count() }).from(timings).where(eq(timings.questionId, q.id))
        )[0]!.n;
      const before = await timingRows();
      // The seed's calls, as an old client would make them with the session, both kinds.
      for (const kind of ['answer', 'graph'] as const) {
        const started = await post(
          app,
          `/api/v1/questions/${kind}-time-start/`,
          { qid: q.qid },
          { token: member.token },
        );
        expect(started.statusCode, started.body).toBe(201);
        const { id } = json<{ id: string }>(started);
        const ended = await send(
          app,
          'PUT',
          `/api/v1/questions/${kind}-time-end/${encodeURIComponent(id)}`,
          undefined,
          member,
        );
        expect(ended.statusCode, ended.body).toBe(200);
      }
      // Nothing ties the account to the question: no timing row, no respondent of its own.
      expect(await timingRows()).toBe(before);
      const pseudonym = hmacHex(derivePseudonymKey(secrets), member.uuid);
      const [own] = await database.db
        .select({ n: count() })
        .from(respondents)
        .where(eq(respondents.pseudonym, pseudonym));
      expect(own!.n).toBe(0);
    });
  });

  describe('mixing', () => {
    it('waits for enough people, then writes answers in an order unrelated to their arrival', async () => {
      const s = listed[6] ?? listed[1]!;
      const q = s.questions.at(-1)!;
      await app.credentials.mix(true);
      const members = await Promise.all(Array.from({ length: 60 }, () => createMember(app)));
      const credentials = await Promise.all(
        members.map((m) => obtainCredential(app, m.token, s.gid)),
      );
      // One after another: the order a server log, or a copy of the database, would date.
      for (const [i, c] of credentials.slice(0, 4).entries()) {
        expect((await redeem(app, q.qid, c, { choice: q.labels[i % 2] })).statusCode).toBe(201);
      }
      expect(await app.credentials.mix()).toBe(0); // 4 people: they wait (at least 5 here)
      for (const [i, c] of credentials.slice(4).entries()) {
        expect((await redeem(app, q.qid, c, { choice: q.labels[i % 2] })).statusCode).toBe(201);
      }
      expect(await app.credentials.mix()).toBe(60);
      // The physical order of the rows, as a pg_dump copies them.
      const written = await database.db.execute(sql`
        select r.pseudonym from answers a join respondents r on r.id = a.respondent_id
        where a.question_id = ${q.id} and r.pseudonym like 'cred:%' order by a.ctid`);
      const tagOf = (c: string) => credentialTag(Buffer.from(c.split('.')[0]!, 'base64url'));
      const arrival = new Map(credentials.map((c, i) => [tagOf(c), i]));
      const order = (written as { rows: Array<{ pseudonym: string }> }).rows.map((r) =>
        arrival.get(r.pseudonym)!,
      );
      expect(order).toHaveLength(60);
      // Under independence |rho| > 0.5 at n = 60 has a chance below 1e-4; arrival order is 1.
      expect(
        Math.abs(
          spearman(
            order,
            order.map((_, i) => i),
          ),
        ),
      ).toBeLessThan(0.5);
    }, 120_000);
  });
});
