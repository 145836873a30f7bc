import crypto from 'node:crypto';
import {
  type AnswerResponse,
  AnswerResponseSchema,
  AttemptedQuestionListSchema,
  LEAVE_BLANK_CHOICE,
  type QuestionResults,
  QuestionResultsSchema,
} from '@candor/contracts';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import {
  answerInbox,
  answers,
  choices,
  questions,
  ratings,
  surveys,
  timings,
} from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { type MemberOptions, createMember, get, json, post } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { memberDevice, redeem } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { breakdownUnlocks } from '../results/results.service.js';
import { answerJson } from './answers.routes.js';

describe('answerJson', () => {
  const results: QuestionResults = {
    qid: crypto.randomUUID(),
    type: 'Closed',
    rr_weight: null,
    honesty_gap: null,
    respondents: 120,
    blank: 10,
    margin: 4,
    choices: [{ choice: 'Yes', count: 110, percent: 100, margin: 4, is_blank: false, sent: null }],
    dominated: true,
    breakdown: null,
    breakdown_unlocks: {
      gender: { group_minimum: 20, unlocks_at: 40 },
      age: { group_minimum: 20, unlocks_at: 40 },
      country: { group_minimum: 20, unlocks_at: 40 },
    },
    words: [],
    samples: [],
    updates: 2,
    next_update_after: 80,
    snapshot_at: '2026-11-24T10:00:00.000Z',
  };
  const gid = crypto.randomUUID();
  const body = (extra: object = {}): AnswerResponse => ({
    qid: results.qid,
    gid,
    answer: 'Yes',
    is_blank: false,
    date: '2026-11-24',
    results,
    ...extra,
  });
  const contract = (b: AnswerResponse) => JSON.stringify(AnswerResponseSchema.parse(b));

  it('writes what the contract serializer writes, with results or without', () => {
    expect(answerJson(body())).toBe(contract(body()));
    expect(answerJson(body({ results: null }))).toBe(contract(body({ results: null })));
    expect(JSON.parse(answerJson(body()))).toEqual(body());
  });

  it('drops keys the contract does not name, in the reply and in its results', () => {
    const leaky = body({ userId: 7, results: { ...results, pending: { cells: {} } } });
    expect(JSON.parse(answerJson(leaky))).toEqual(body());
  });

  it('checks each published results object once, and every reply', () => {
    const shared = { ...results };
    const parse = vi.spyOn(QuestionResultsSchema, 'parse');
    answerJson(body({ results: shared }));
    answerJson(body({ results: shared, answer: 'No' }));
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockRestore();
    expect(() => answerJson(body({ date: 'yesterday' }))).toThrow();
    expect(() => answerJson(body({ results: { ...results, respondents: -1 } }))).toThrow();
  });
});

const NOT_FOUND = { detail: 'Not found.', code: 'NOT_FOUND' };
const UNAUTHENTICATED = {
  detail: 'Authentication credentials were not provided or are not valid.',
  code: 'UNAUTHENTICATED',
};
const ALREADY_ANSWERED = {
  detail: 'You have already answered this question.',
  code: 'ALREADY_ANSWERED',
};
const SURVEY_CLOSED = {
  detail: 'This survey is closed: it no longer takes answers.',
  code: 'SURVEY_CLOSED',
};
const CREDENTIAL_INVALID = {
  detail:
    'This answer credential was not issued for this survey: it is forged, damaged or for another survey.',
  code: 'CREDENTIAL_INVALID',
};
const NOT_ANSWERED = { detail: 'Answer the question before rating it.', code: 'NOT_ANSWERED' };
const HOUR_MS = 3_600_000;

const answerUrl = (qid: string) => `/api/v1/questions/${qid}/answer/`;
const ratingUrl = (qid: string) => `/api/v1/questions/${qid}/rating/`;
const ATTEMPTED = '/api/v1/questions/my-attempted-questions/';

interface Q {
  id: number;
  qid: string;
  gid: string;
  type: 'Closed' | 'Open';
  maxLength: number | null;
  /** Labels in the question's order, leave-blank last. */
  labels: string[];
}

describe.each(engines)('answers API on %s', (engine) => {
  let database: Database;
  let app: App;
  const time = { now: Date.parse('2026-11-22T10:00:00Z') };
  const clock = () => new Date(time.now);
  const today = () => new Date(time.now).toISOString().slice(0, 10);
  const all = new Map<string, Q[]>();
  let draftQid: string;

  /** The questions of a seeded survey, in order. */
  const questionsOf = (slug: string) => all.get(slug)!;
  const closedOf = (slug: string) => questionsOf(slug).filter((q) => q.type === 'Closed');
  const openOf = (slug: string) => questionsOf(slug).find((q) => q.type === 'Open')!;
  const member = (opts: MemberOptions = {}) => createMember(app, opts);
  /** A new member's device: answers and rates with the survey's credential, no session. */
  const device = async (opts: MemberOptions = {}) => memberDevice(app, await member(opts));
  const inboxSize = async () => (await database.db.select().from(answerInbox)).length;
  const put = (url: string, token?: string, payload?: string, contentType = 'application/json') =>
    app.inject({
      method: 'PUT',
      url,
      ...(payload !== undefined ? { payload, headers: { 'content-type': contentType } } : {}),
      ...(token
        ? {
            headers: {
              authorization: `Bearer ${token}`,
              ...(payload !== undefined ? { 'content-type': contentType } : {}),
            },
          }
        : {}),
    });
  const storedAnswers = (questionId: number) =>
    database.db.select().from(answers).where(eq(answers.questionId, questionId));

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db, { now: new Date(time.now) });
    // A draft survey (never published) with one question.
    const [draft] = await database.db
      .insert(surveys)
      .values({ slug: 'draft', name: 'Draft', releaseDate: new Date(time.now - HOUR_MS) })
      .returning({ id: surveys.id });
    const [draftQuestion] = await database.db
      .insert(questions)
      .values({ surveyId: draft!.id, position: 1, type: 'Open', text: 'Draft?', maxLength: 100 })
      .returning({ qid: questions.qid });
    draftQid = draftQuestion!.qid;

    const rows = await database.db
      .select({
        slug: surveys.slug,
        gid: surveys.gid,
        id: questions.id,
        qid: questions.qid,
        type: questions.type,
        maxLength: questions.maxLength,
      })
      .from(questions)
      .innerJoin(surveys, eq(surveys.id, questions.surveyId))
      .orderBy(asc(questions.surveyId), asc(questions.position));
    const choiceRows = await database.db
      .select()
      .from(choices)
      .orderBy(asc(choices.questionId), asc(choices.position));
    for (const r of rows) {
      const list = all.get(r.slug) ?? [];
      list.push({
        id: r.id,
        qid: r.qid,
        gid: r.gid,
        type: r.type,
        maxLength: r.maxLength,
        labels: choiceRows.filter((c) => c.questionId === r.id).map((c) => c.label),
      });
      all.set(r.slug, list);
    }
    app = await createTestApp(database, { resultsRefreshSeconds: 0 }, { clock });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  describe('answering', () => {
    it('stores a closed answer once and replies 201 with the results of a v1 survey', async () => {
      const q = closedOf('time-travel')[0]!;
      const res = await (await device()).answerNow(q.qid, { choice: q.labels[1] });
      expect(res.statusCode).toBe(201);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = AnswerResponseSchema.parse(json(res));
      expect(body).toEqual({
        qid: q.qid,
        gid: q.gid,
        answer: q.labels[1],
        is_blank: false,
        date: today(),
        // No update has been published yet (results.test.ts).
        results: {
          qid: q.qid,
          type: 'Closed',
          rr_weight: null,
          honesty_gap: null,
          respondents: null,
          blank: null,
          margin: null,
          choices: q.labels.map((label) => ({
            choice: label,
            count: null,
            percent: null,
            margin: null,
            is_blank: label === LEAVE_BLANK_CHOICE,
            sent: null,
          })),
          dominated: false,
          breakdown: null,
          // From the question's choices and the update to come, never from answers.
          breakdown_unlocks: breakdownUnlocks(
            {
              type: 'Closed',
              choices: q.labels.map((label, id) => ({
                id,
                label,
                isBlank: label === LEAVE_BLANK_CHOICE,
              })),
            },
            undefined,
          ),
          words: [],
          samples: [],
          updates: 0,
          // The first update comes at about 20 answers: public, never from answers.
          next_update_after: 20,
          snapshot_at: null,
        },
      });
      const [row, ...more] = await storedAnswers(q.id);
      expect(more).toHaveLength(0);
      expect(row).toMatchObject({ text: null, isBlank: false, answeredOn: today() });
      // Nothing in the row names the account: only a respondent id.
      expect(Object.keys(row!)).not.toContain('userId');
    });

    it('replies with results null for a survey without instant feedback (v2)', async () => {
      const q = closedOf('sex')[0]!;
      const res = await (await device()).answer(q.qid, { choice: q.labels[0] });
      expect(res.statusCode).toBe(201);
      expect(json(res)).toMatchObject({ answer: q.labels[0], results: null });
    });

    it('stores open text trimmed, and empty or blank text as left blank', async () => {
      const q = openOf('taboos');
      const written = await (await device()).answerNow(q.qid, { text: '  Death, mostly.  ' });
      expect(written.statusCode).toBe(201);
      expect(json(written)).toMatchObject({ answer: 'Death, mostly.', is_blank: false });
      expect(json(written).results).toMatchObject({ type: 'Open', choices: [] });
      const blank = await (await device()).answerNow(q.qid, { text: '   ' });
      expect(blank.statusCode).toBe(201);
      expect(json(blank)).toMatchObject({ answer: '', is_blank: true });
      const rows = await storedAnswers(q.id);
      expect(rows.map((r) => [r.text, r.isBlank, r.choiceId])).toEqual(
        expect.arrayContaining([
          ['Death, mostly.', false, null],
          [null, true, null],
        ]),
      );
    });

    it('takes the leave-blank choice as a blank answer', async () => {
      const q = closedOf('time-travel')[1]!;
      const res = await (await device()).answer(q.qid, { choice: LEAVE_BLANK_CHOICE });
      expect(res.statusCode).toBe(201);
      expect(json(res)).toMatchObject({ answer: LEAVE_BLANK_CHOICE, is_blank: true });
    });

    it('requires a valid credential', async () => {
      const q = closedOf('time-travel')[0]!;
      const inbox = await inboxSize();
      // Without one, a session or not: refused before anything is read (slice 5).
      const { token } = await createMember(app);
      for (const call of [{}, { token }]) {
        const none = await post(app, answerUrl(q.qid), { choice: q.labels[0] }, call);
        expect(none.statusCode).toBe(401);
        expect(json(none)).toMatchObject({ code: 'CREDENTIAL_REQUIRED' });
        expect(json(none).detail).toMatch(/never with a session/);
      }
      // A credential of another survey, and one whose signature was never the server's.
      const other = await (await device()).credentialOf(closedOf('sex')[0]!.qid);
      const forged = `${crypto.randomBytes(64).toString('base64url')}.${other.split('.')[1]!}`;
      for (const credential of [other, forged]) {
        const res = await redeem(app, q.qid, credential, { choice: q.labels[0] });
        expect(res.statusCode).toBe(403);
        expect(json(res)).toEqual(CREDENTIAL_INVALID);
      }
      expect(await inboxSize()).toBe(inbox);
      await app.credentials.mix(true);
      expect(await storedAnswers(q.id)).toHaveLength(1);
    });

    it('refuses invalid answers with field errors, storing nothing', async () => {
      const closed = closedOf('consent')[0]!;
      const open = openOf('taboos');
      const d = await device();
      const before = (await storedAnswers(open.id)).length;
      const inbox = await inboxSize();
      const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
        [closed.qid, { choice: 'Not one of them' }, { choice: ['Choose one of the answers.'] }],
        [closed.qid, {}, { choice: ['Choose one of the answers.'] }],
        [closed.qid, { choice: 3 }, { choice: ['Choose one of the answers.'] }],
        [
          closed.qid,
          { choice: closed.labels[0], text: 'why' },
          { text: ['This question takes one of its answers, not text.'] },
        ],
        [open.qid, {}, { text: ['Write your answer as text.'] }],
        [
          open.qid,
          { choice: LEAVE_BLANK_CHOICE },
          { choice: ['This question takes a written answer, not a choice.'] },
        ],
        [open.qid, { text: 'x'.repeat(281) }, { text: ['Use at most 280 characters.'] }],
        [open.qid, { text: 'x'.repeat(2001) }, { text: ['Use at most 2000 characters.'] }],
      ];
      for (const [qid, body, expected] of cases) {
        const res = await d.answer(qid, body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 50)).toBe(400);
        expect(json(res)).toEqual(expected);
      }
      const extra = await d.answer(closed.qid, { choice: closed.labels[0], extra: 1 });
      expect(extra.statusCode).toBe(400);
      const badKey = await d.answer(closed.qid, { choice: closed.labels[0] }, { key: 'short' });
      expect(badKey.statusCode).toBe(400);
      expect(json(badKey)).toEqual({ 'idempotency-key': ['Use a UUID as the Idempotency-Key.'] });
      const notJson = await app.inject({
        method: 'POST',
        url: answerUrl(closed.qid),
        payload: '{"choice":',
        headers: {
          'candor-credential': await d.credentialOf(closed.qid),
          'content-type': 'application/json',
        },
      });
      expect(notJson.statusCode).toBe(400);
      // The error never echoes what was written.
      expect((await d.answer(open.qid, { text: `secret ${'x'.repeat(300)}` })).body).not.toContain(
        'secret',
      );
      expect(await inboxSize()).toBe(inbox);
      await app.credentials.mix(true);
      expect(await storedAnswers(closed.id)).toHaveLength(0);
      expect(await storedAnswers(open.id)).toHaveLength(before);
    });

    it.each([
      ['an unknown qid', () => crypto.randomUUID()],
      ['a malformed qid', () => 'not-a-uuid'],
      ['a question of a scheduled survey', () => closedOf('crime')[0]!.qid],
      ['a question of a draft survey', () => draftQid],
    ])('answers 404 for %s', async (_label, qidOf) => {
      // A valid credential (of a listed survey) names no question of its own.
      const credential = await (await device()).credentialOf(closedOf('time-travel')[0]!.qid);
      const res = await redeem(app, qidOf(), credential, { choice: 'Never' });
      expect(res.statusCode).toBe(404);
      expect(json(res)).toEqual(NOT_FOUND);
    });

    it('refuses answers to a closed survey, and a credential for it', async () => {
      const q = closedOf('money')[0]!;
      const d = await device();
      // No credential is issued for a closed survey; another survey's is refused as closed.
      await expect(d.credentialOf(q.qid)).rejects.toThrow(/key: 409/);
      const credential = await d.credentialOf(closedOf('time-travel')[0]!.qid);
      const res = await redeem(app, q.qid, credential, { choice: q.labels[0] });
      expect(res.statusCode).toBe(409);
      expect(json(res)).toEqual(SURVEY_CLOSED);
      await app.credentials.mix(true);
      expect(await storedAnswers(q.id)).toHaveLength(0);
    });

    it('replays a retry: same key or same answer -> 200 and the same body; another answer -> 409', async () => {
      const q = closedOf('sex')[1]!;
      const d = await device();
      const key = crypto.randomUUID();
      const first = await d.answer(q.qid, { choice: q.labels[0] }, { key });
      expect(first.statusCode).toBe(201);
      const again = await d.answer(q.qid, { choice: q.labels[0] }, { key });
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      // The same answer from another attempt (no key, another key) is the same answer.
      const noKey = await d.answer(q.qid, { choice: q.labels[0] });
      expect(noKey.statusCode).toBe(200);
      expect(noKey.body).toBe(first.body);
      // A credential's answer never changes: the same key with another answer is refused too.
      const changedBody = await d.answer(q.qid, { choice: q.labels[1] }, { key });
      expect(changedBody.statusCode).toBe(409);
      expect(json(changedBody)).toEqual(ALREADY_ANSWERED);
      const other = await d.answer(q.qid, { choice: q.labels[1] }, { key: crypto.randomUUID() });
      expect(other.statusCode).toBe(409);
      expect(json(other)).toEqual(ALREADY_ANSWERED);
      // A day later the replay still says the day it was answered.
      time.now += 24 * HOUR_MS;
      const later = await d.answer(q.qid, { choice: q.labels[0] }, { key });
      expect(later.statusCode).toBe(200);
      expect(json(later).date).toBe(json(first).date);
      await app.credentials.mix(true);
      expect(await storedAnswers(q.id)).toHaveLength(1);
    });

    it('stores one answer for 50 concurrent identical submits, without a 5xx', async () => {
      const q = closedOf('taboos')[0]!;
      const d = await device();
      await d.credentialOf(q.qid);
      const key = crypto.randomUUID();
      const replies = await Promise.all(
        Array.from({ length: 50 }, () => d.answer(q.qid, { choice: q.labels[2] }, { key })),
      );
      const statuses = replies.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 200)).toHaveLength(49);
      await app.credentials.mix(true);
      expect(await storedAnswers(q.id)).toHaveLength(1);
      expect(new Set(replies.map((r) => json(r).answer))).toEqual(new Set([q.labels[2]]));
    });

    it('keeps the first of 50 concurrent different answers: one 201, the rest 200 or 409', async () => {
      const q = closedOf('taboos')[1]!;
      const d = await device();
      await d.credentialOf(q.qid);
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          d.answer(q.qid, { choice: q.labels[i % q.labels.length] }),
        ),
      );
      const statuses = replies.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
      await app.credentials.mix(true);
      const [stored, ...more] = await storedAnswers(q.id);
      expect(more).toHaveLength(0);
      const winner = replies.find((r) => r.statusCode === 201)!;
      for (const r of replies.filter((x) => x.statusCode === 200)) expect(r.body).toBe(winner.body);
      expect(stored!.choiceId).not.toBeNull();
    });
  });

  describe('ratings', () => {
    it('rates an answered question 0 to 10, and rating again changes it', async () => {
      const q = closedOf('life-and-death')[0]!;
      const d = await device();
      expect((await d.answer(q.qid, { choice: q.labels[0] })).statusCode).toBe(201);
      const first = await d.rate(q.qid, 0);
      expect(first.statusCode).toBe(200);
      expect(json(first)).toEqual({ qid: q.qid, score: 0 });
      // A moment later (the mixer keeps a credential's newest rating by its time).
      time.now += 1000;
      const second = await d.rate(q.qid, 10);
      expect(json(second)).toEqual({ qid: q.qid, score: 10 });
      await app.credentials.mix(true);
      const rows = await database.db.select().from(ratings).where(eq(ratings.questionId, q.id));
      expect(rows.map((r) => r.score)).toEqual([10]);
    });

    it('refuses scores outside 0..10 on the score field', async () => {
      const q = closedOf('life-and-death')[1]!;
      const d = await device();
      await d.answer(q.qid, { choice: q.labels[0] });
      const credential = await d.credentialOf(q.qid);
      for (const score of [-1, 11, 5.5, '5', null]) {
        const res = await post(
          app,
          ratingUrl(q.qid),
          { score },
          { headers: { 'candor-credential': credential } },
        );
        expect(res.statusCode).toBe(400);
        expect(json(res)).toEqual({ score: ['Rate from 0 to 10.'] });
      }
    });

    it('refuses a rating before the credential answered, unknown questions and anonymous callers', async () => {
      const q = closedOf('life-and-death')[2]!;
      const d = await device();
      const early = await d.rate(q.qid, 5);
      expect(early.statusCode).toBe(409);
      expect(json(early)).toEqual(NOT_ANSWERED);
      // Someone else's answer does not let this credential rate.
      const other = await device();
      expect((await other.answer(q.qid, { choice: q.labels[0] })).statusCode).toBe(201);
      expect((await d.rate(q.qid, 5)).statusCode).toBe(409);
      // The credential answered another question of the survey: still not this one.
      await d.answer(closedOf('life-and-death')[3]!.qid, { choice: LEAVE_BLANK_CHOICE });
      expect(json(await d.rate(q.qid, 5))).toEqual(NOT_ANSWERED);
      const credential = await d.credentialOf(q.qid);
      const unknown = await post(
        app,
        ratingUrl(crypto.randomUUID()),
        { score: 5 },
        { headers: { 'candor-credential': credential } },
      );
      expect(json(unknown)).toEqual(NOT_FOUND);
      expect((await post(app, ratingUrl(q.qid), { score: 5 })).statusCode).toBe(401);
    });
  });

  describe('timings', () => {
    const start = (kind: 'answer' | 'graph', qid: string, token?: string) =>
      post(app, `/api/v1/questions/${kind}-time-start/`, { qid }, token ? { token } : {});
    const end = (kind: 'answer' | 'graph', id: string, token?: string, payload?: string) =>
      put(`/api/v1/questions/${kind}-time-end/${encodeURIComponent(id)}`, token, payload);
    const timingsOf = (questionId: number) =>
      database.db.select().from(timings).where(eq(timings.questionId, questionId));

    it('checks the id and stores nothing beside the account (an answer time goes with its credential)', async () => {
      const q = closedOf('time-travel')[2]!;
      const { token } = await member();
      const started = await start('answer', q.qid, token);
      expect(started.statusCode).toBe(201);
      const { id } = json<{ id: string }>(started);
      expect(id).not.toContain(token);
      time.now += 1500;
      const ended = await end('answer', id, token, '{}');
      expect(ended.statusCode).toBe(200);
      expect(json(ended)).toEqual({ id });
      // Twice (a retry): answered alike.
      expect((await end('answer', id, token)).statusCode).toBe(200);
      // Nothing stored: a row beside the account's respondent would name a question it answered.
      expect(await timingsOf(q.id)).toHaveLength(0);
      const oldWay = await database.db.execute(
        sql`select 1 from respondents where pseudonym not like 'cred:%'`,
      );
      expect((oldWay as { rows: unknown[] }).rows).toEqual([]);
      // The credential path's durations only: no column of the table holds a time.
      const columns = (await database.db.execute(
        sql`select data_type from information_schema.columns where table_name = 'timings'`,
      )) as { rows: Array<{ data_type: string }> };
      for (const c of columns.rows) {
        expect(c.data_type).not.toMatch(/time|date/);
      }
    });

    it('accepts an end with no body, an empty JSON body or {}', async () => {
      const q = closedOf('time-travel')[2]!;
      const { token } = await member();
      for (const payload of [undefined, '', '{}']) {
        const { id } = json<{ id: string }>(await start('graph', q.qid, token));
        time.now += 10;
        const res = await end('graph', id, token, payload);
        expect(res.statusCode, String(payload)).toBe(200);
      }
      // Still Fastify's safe parser underneath: prototype poisoning and bad JSON are refused.
      for (const payload of ['{"__proto__": {"admin": true}}', '{"a":']) {
        const { id } = json<{ id: string }>(await start('graph', q.qid, token));
        const res = await end('graph', id, token, payload);
        expect(res.statusCode, payload).toBe(400);
      }
    });

    it("answers 404 for another member's id, the other kind, a forged or a garbage id", async () => {
      const q = closedOf('time-travel')[2]!;
      const owner = await member();
      const other = await member();
      const { id } = json<{ id: string }>(await start('answer', q.qid, owner.token));
      const [kind, qid, startMs, who, mac] = id.split('.');
      const forged = [kind, qid, (parseInt(startMs!, 36) - 5000).toString(36), who, mac].join('.');
      for (const [label, kindUsed, idUsed, token] of [
        ['another member', 'answer', id, other.token],
        ['the other kind', 'graph', id, owner.token],
        ['a forged start', 'answer', forged, owner.token],
        ['garbage', 'answer', 'garbage', owner.token],
        ['a long garbage', 'answer', 'x.'.repeat(90), owner.token],
      ] as const) {
        const res = await end(kindUsed, idUsed, token);
        expect(res.statusCode, label).toBe(404);
        expect(json(res)).toEqual(NOT_FOUND);
      }
      expect((await end('answer', id, owner.token)).statusCode).toBe(200);
    });

    it('drops a duration over an hour without bothering the client', async () => {
      const q = closedOf('consent')[4]!;
      const { uuid, token, sid } = await member();
      const { id } = json<{ id: string }>(await start('answer', q.qid, token));
      time.now += HOUR_MS + 1;
      const fresh = await app.tokens.signAccess({ sub: uuid, role: 'member', sid });
      expect((await end('answer', id, fresh)).statusCode).toBe(200);
      expect(await timingsOf(q.id)).toHaveLength(0);
    });

    it('requires a member on all four calls, and a known question', async () => {
      const q = closedOf('time-travel')[2]!;
      const { token } = await member();
      const { id } = json<{ id: string }>(await start('answer', q.qid, token));
      expect((await start('answer', q.qid)).statusCode).toBe(401);
      expect((await start('graph', q.qid)).statusCode).toBe(401);
      expect((await end('answer', id)).statusCode).toBe(401);
      expect((await end('graph', id)).statusCode).toBe(401);
      expect(json(await start('answer', crypto.randomUUID(), token))).toEqual(NOT_FOUND);
      expect(json(await start('graph', draftQid, token))).toEqual(NOT_FOUND);
      const bad = await start('answer', 'nope', token);
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(json(bad))).toEqual(['qid']);
    });
  });

  describe('my attempted questions', () => {
    it("lists none of a member's credential answers: nothing beside the account holds them", async () => {
      // The list holds an account's answers of before credentials; those given with a
      // credential are on the device (and in its vault), never found from the account.
      const [q1, q2, q3] = closedOf('sex').slice(5, 8) as [Q, Q, Q];
      const open = openOf('sex');
      const me = await member();
      const other = await member();
      const mine = memberDevice(app, me);
      const theirs = memberDevice(app, other);
      expect((await mine.answer(q1.qid, { choice: q1.labels[0] })).statusCode).toBe(201);
      expect((await mine.answer(q2.qid, { choice: LEAVE_BLANK_CHOICE })).statusCode).toBe(201);
      expect((await mine.answer(open.qid, { text: 'Mine.' })).statusCode).toBe(201);
      expect((await theirs.answer(q3.qid, { choice: q3.labels[0] })).statusCode).toBe(201);
      expect((await theirs.answer(q1.qid, { choice: q1.labels[1] })).statusCode).toBe(201);
      await app.credentials.mix(true);

      const res = await get(app, ATTEMPTED, { token: me.token });
      expect(res.statusCode).toBe(200);
      expect(AttemptedQuestionListSchema.parse(json(res))).toEqual({
        count: 0,
        next: null,
        previous: null,
        results: [],
      });
      expect(json(await get(app, ATTEMPTED, { token: other.token })).count).toBe(0);
      // Their answer to q1 is theirs: mine stays as it was.
      expect(json(await mine.answer(q1.qid, { choice: q1.labels[1] }))).toEqual(ALREADY_ANSWERED);
    });

    it('is empty for a member who never answered, refuses anonymous callers and bad pages', async () => {
      const { token } = await member();
      const empty = json(await get(app, ATTEMPTED, { token }));
      expect(empty).toEqual({ count: 0, next: null, previous: null, results: [] });
      expect(json(await get(app, ATTEMPTED))).toEqual(UNAUTHENTICATED);
      const bad = await get(app, `${ATTEMPTED}?page_size=101`, { token });
      expect(bad.statusCode).toBe(400);
      expect(json(bad)).toEqual({ page_size: ['Must be 100 or less.'] });
    });
  });
});
