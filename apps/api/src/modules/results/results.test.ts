import {
  LEAVE_BLANK_CHOICE,
  MirrorSchema,
  MyDataSchema,
  QuestionResultsSchema,
  type QuestionResults,
} from '@candor/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import {
  answerCounts,
  answers,
  choices,
  questions,
  respondents,
  surveys,
} from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import {
  type MemberOptions,
  createMember,
  freshPhone,
  get,
  json,
  post,
  signUp,
} from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { createTestDatabase, engines } from '../../test/database.js';
import { ageBand } from '../respondents/respondents.service.js';
import { createResultsRepository } from './results.repository.js';
import { foldAndPublish } from './results.service.js';

describe('age bands', () => {
  it('bands the age reached in the current year', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(ageBand(2008, now)).toBe('18-24');
    expect(ageBand(2002, now)).toBe('18-24');
    expect(ageBand(2001, now)).toBe('25-34');
    expect(ageBand(1982, now)).toBe('35-44');
    expect(ageBand(1972, now)).toBe('45-54');
    expect(ageBand(1962, now)).toBe('55-64');
    expect(ageBand(1961, now)).toBe('65+');
    expect(ageBand(2010, now)).toBe('under-18');
  });
});

interface Q {
  id: number;
  qid: string;
  type: 'Closed' | 'Open';
  labels: string[];
}

const MINUTE = 60_000;

/** Every published number of a result (overall and breakdown): none may be 1..9. */
function publishedNumbers(r: QuestionResults): number[] {
  const out = [r.respondents, r.blank, ...r.choices.map((c) => c.count)];
  for (const g of r.breakdown?.groups ?? []) {
    out.push(g.respondents, g.blank, ...g.choices.map((c) => c.count));
  }
  return out.filter((n): n is number => n !== null);
}

describe.each(engines)('results on %s', (engine) => {
  let database: Database;
  let app: App;
  const time = { now: Date.parse('2026-11-22T10:00:00Z') };
  const clock = () => new Date(time.now);
  const bySlug = new Map<string, Q[]>();
  const closedOf = (slug: string) => bySlug.get(slug)!.filter((q) => q.type === 'Closed');
  const openOf = (slug: string) => bySlug.get(slug)!.find((q) => q.type === 'Open')!;
  const url = (qid: string, breakdown?: string) =>
    `/api/v1/questions/${qid}/results/${breakdown ? `?breakdown=${breakdown}` : ''}`;
  const tick = () => foldAndPublish(createResultsRepository(database.db), clock());

  /** A new member answers; returns their token. */
  async function answerAs(q: Q, body: object, opts: MemberOptions = {}) {
    const m = await createMember(app, opts);
    const res = await post(app, `/api/v1/questions/${q.qid}/answer/`, body, { token: m.token });
    expect(res.statusCode).toBe(201);
    return m;
  }

  async function resultsFor(q: Q, token: string, breakdown?: string) {
    const res = await get(app, url(q.qid, breakdown), { token });
    expect(res.statusCode, res.body).toBe(200);
    return QuestionResultsSchema.parse(json(res));
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db, { now: new Date(time.now) });
    const rows = await database.db
      .select({ slug: surveys.slug, id: questions.id, qid: questions.qid, type: questions.type })
      .from(questions)
      .innerJoin(surveys, eq(surveys.id, questions.surveyId))
      .orderBy(asc(questions.surveyId), asc(questions.position));
    const labels = await database.db
      .select()
      .from(choices)
      .orderBy(asc(choices.isBlank), asc(choices.position));
    for (const r of rows) {
      const list = bySlug.get(r.slug) ?? [];
      list.push({
        id: r.id,
        qid: r.qid,
        type: r.type,
        labels: labels.filter((c) => c.questionId === r.id).map((c) => c.label),
      });
      bySlug.set(r.slug, list);
    }
    // No background work: each test folds and publishes with tick(), at the time it sets.
    app = await createTestApp(database, { resultsRefreshSeconds: 0 }, { clock });
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('counts verified members per choice, blank apart; under review and suspended do not count', async () => {
    const q = closedOf('taboos')[1]!;
    const [yes, no] = [q.labels[0]!, q.labels[1]!];
    const plan = [
      ...Array<string>(14).fill(yes),
      ...Array<string>(12).fill(no),
      ...Array<string>(10).fill(LEAVE_BLANK_CHOICE),
    ];
    let last = '';
    for (const choice of plan) last = (await answerAs(q, { choice })).token;
    for (const status of ['under_review', 'suspended'] as const) {
      await answerAs(q, { choice: no }, { status });
    }
    await tick();
    const results = await resultsFor(q, last);
    expect(results).toMatchObject({ qid: q.qid, type: 'Closed', respondents: 36, blank: 10 });
    expect(results.snapshot_at).toBe(clock().toISOString());
    expect(results.choices).toEqual(
      q.labels.map((label) => {
        const count = plan.filter((c) => c === label).length;
        return {
          choice: label,
          is_blank: label === LEAVE_BLANK_CHOICE,
          count,
          percent: Math.round((count / 36) * 1000) / 10,
        };
      }),
    );
    // Every answer was folded once; the two that do not count are left out.
    const rows = await database.db.select().from(answers).where(eq(answers.questionId, q.id));
    expect(rows).toHaveLength(38);
    expect(rows.every((r) => r.folded)).toBe(true);
  });

  it('suppresses a cell under 10 people and the one that would give it away', async () => {
    const q = closedOf('taboos')[2]!;
    let token = '';
    for (let i = 0; i < 15; i++) token = (await answerAs(q, { choice: q.labels[0] })).token;
    for (let i = 0; i < 3; i++) await answerAs(q, { choice: q.labels[1] });
    await tick();
    const r = await resultsFor(q, token);
    expect(r.respondents).toBe(18);
    expect(r.choices[0]).toMatchObject({ count: null, percent: null });
    expect(r.choices[1]).toMatchObject({ count: null, percent: null });
    // Choices nobody gave are published as 0: they describe nobody.
    expect(r.choices.slice(2).every((c) => c.count === 0)).toBe(true);
    expect(publishedNumbers(r).some((n) => n > 0 && n < 10)).toBe(false);
  });

  it('publishes nothing while fewer than 10 people answered', async () => {
    const q = closedOf('taboos')[3]!;
    let token = '';
    for (let i = 0; i < 9; i++) token = (await answerAs(q, { choice: q.labels[0] })).token;
    await tick();
    const r = await resultsFor(q, token);
    expect(r).toMatchObject({ respondents: null, blank: null });
    expect(r.choices.every((c) => c.count === null && c.percent === null)).toBe(true);
    expect(r.snapshot_at).not.toBeNull();
  });

  it('moves in steps: a new snapshot after 10 new answers, or 5 minutes after a change', async () => {
    const q = closedOf('taboos')[4]!;
    let token = '';
    for (let i = 0; i < 20; i++) token = (await answerAs(q, { choice: q.labels[0] })).token;
    await tick();
    const first = await resultsFor(q, token);
    expect(first.respondents).toBe(20);

    time.now += MINUTE;
    for (let i = 0; i < 9; i++) await answerAs(q, { choice: q.labels[0] });
    await tick();
    expect(await resultsFor(q, token)).toEqual(first);

    time.now += MINUTE;
    await answerAs(q, { choice: q.labels[0] });
    await tick();
    const second = await resultsFor(q, token);
    expect(second.respondents).toBe(30);
    expect(second.snapshot_at).toBe(clock().toISOString());

    // One more answer waits for five minutes.
    await answerAs(q, { choice: q.labels[0] });
    time.now += 4 * MINUTE;
    await tick();
    expect((await resultsFor(q, token)).respondents).toBe(30);
    time.now += MINUTE;
    await tick();
    expect((await resultsFor(q, token)).respondents).toBe(31);
  });

  it('shows results after answering, or to anyone once the survey closed', async () => {
    const q = closedOf('taboos')[5]!;
    const notYet = await createMember(app);
    expect(json(await get(app, url(q.qid), { token: notYet.token }))).toEqual({
      detail: 'Answer the question to see how everyone answered.',
      code: 'ANSWER_FIRST',
    });
    expect((await get(app, url(q.qid))).statusCode).toBe(401);
    const closed = closedOf('money')[0]!;
    expect((await get(app, url(closed.qid))).statusCode).toBe(200);
    expect((await get(app, url(closed.qid), { token: notYet.token })).statusCode).toBe(200);
    for (const qid of [crypto.randomUUID(), 'nope', closedOf('crime')[0]!.qid]) {
      expect((await get(app, url(qid), { token: notYet.token })).statusCode).toBe(404);
    }
    const bad = await get(app, url(closed.qid, 'religion'));
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).toEqual({ breakdown: ['Break down by gender, age or country.'] });
  });

  it('breaks down by gender, age band and country with the privacy rules applied', async () => {
    const q = closedOf('taboos')[6]!;
    const [a, b] = [q.labels[0]!, q.labels[1]!];
    const people: Array<[MemberOptions, string]> = [];
    // Women: 12 a, 11 b; men: 10 a, 14 b; non-binary: 3 a (too few: suppressed).
    for (let i = 0; i < 12; i++) people.push([{ gender: 'female', country: 'GB' }, a]);
    for (let i = 0; i < 11; i++) people.push([{ gender: 'female', country: 'US' }, b]);
    for (let i = 0; i < 10; i++) people.push([{ gender: 'male', country: 'US' }, a]);
    for (let i = 0; i < 14; i++) people.push([{ gender: 'male', country: 'GB' }, b]);
    for (let i = 0; i < 3; i++) {
      people.push([{ gender: 'non_binary', country: 'NZ', yearOfBirth: 1950 }, a]);
    }
    let token = '';
    for (const [opts, choice] of people) token = (await answerAs(q, { choice }, opts)).token;
    await tick();

    const byGender = await resultsFor(q, token, 'gender');
    const groups = byGender.breakdown!.groups;
    expect(byGender.breakdown!.dimension).toBe('gender');
    expect(groups.map((g) => g.key)).toEqual([
      'female',
      'male',
      'non_binary',
      'other',
      'undisclosed',
    ]);
    expect(groups.find((g) => g.key === 'non_binary')).toMatchObject({
      suppressed: true,
      respondents: null,
    });
    // Nobody said "other" or "undisclosed": published as 0, not hidden.
    expect(groups.find((g) => g.key === 'other')).toMatchObject({ respondents: 0 });
    // The non-binary group could be derived from the overall counts minus the other groups,
    // so at least one more group is hidden as well.
    expect(groups.filter((g) => g.suppressed).length).toBeGreaterThanOrEqual(2);
    for (const g of groups.filter((x) => !x.suppressed && x.respondents)) {
      const truth = people.filter(([o]) => o.gender === g.key);
      expect(g.respondents).toBe(truth.length);
    }
    expect(publishedNumbers(byGender).some((n) => n > 0 && n < 10)).toBe(false);

    // Countries under 10 people are not named: they join "other".
    const byCountry = await resultsFor(q, token, 'country');
    expect(byCountry.breakdown!.groups.map((g) => g.key)).toEqual(['GB', 'US', 'other']);
    expect(publishedNumbers(byCountry).some((n) => n > 0 && n < 10)).toBe(false);
    const byAge = await resultsFor(q, token, 'age');
    expect(byAge.breakdown!.groups.map((g) => g.key)).toContain('65+');
    expect(publishedNumbers(byAge).some((n) => n > 0 && n < 10)).toBe(false);
  });

  it('hides a group in which 95% or more gave the same answer', async () => {
    const q = closedOf('taboos')[7]!;
    let token = '';
    for (let i = 0; i < 20; i++) {
      token = (await answerAs(q, { choice: q.labels[0] }, { gender: 'male' })).token;
    }
    for (let i = 0; i < 12; i++) await answerAs(q, { choice: q.labels[0] }, { gender: 'female' });
    for (let i = 0; i < 11; i++) await answerAs(q, { choice: q.labels[1] }, { gender: 'female' });
    await tick();
    const r = await resultsFor(q, token, 'gender');
    expect(r.breakdown!.groups.find((g) => g.key === 'male')!.suppressed).toBe(true);
  });

  it('counts an account once approved, and stops when it is suspended', async () => {
    const q = closedOf('sex')[1]!;
    let token = '';
    for (let i = 0; i < 12; i++) token = (await answerAs(q, { choice: q.labels[0] })).token;
    const waiting = await answerAs(q, { choice: q.labels[0] }, { status: 'under_review' });
    await tick();
    expect((await resultsFor(q, token)).respondents).toBe(12);
    const moderator = await createMember(app, { role: 'moderator' });
    const approved = await post(
      app,
      `/api/v1/admin/signups/${waiting.uuid}/approve/`,
      {},
      { token: moderator.token },
    );
    expect(approved.statusCode).toBe(200);
    time.now += 5 * MINUTE;
    await tick();
    expect((await resultsFor(q, token)).respondents).toBe(13);
    const live = await createResultsRepository(database.db).liveCounts(q.id);
    expect(live.filter((c) => c.dimension === 'all').reduce((n, c) => n + c.n, 0)).toBe(13);
  });

  it('publishes the common words of open answers, and only approved sample answers', async () => {
    const q = openOf('taboos');
    let token = '';
    for (let i = 0; i < 11; i++) {
      const text = i < 10 ? `Freedom matters, freedom ${i}` : 'Something else entirely';
      token = (await answerAs(q, { text })).token;
    }
    await tick();
    const before = await resultsFor(q, token);
    expect(before).toMatchObject({ respondents: 11, choices: [], samples: [] });
    // Each answer counts a word once; "matters" is in 10 answers, "entirely" in one (hidden).
    expect(before.words).toEqual([
      { word: 'freedom', count: 10 },
      { word: 'matters', count: 10 },
    ]);
    const [first] = await database.db
      .select({ id: answers.id })
      .from(answers)
      .where(eq(answers.questionId, q.id))
      .orderBy(asc(answers.id));
    await database.db
      .update(answers)
      .set({ moderation: 'approved' })
      .where(eq(answers.id, first!.id));
    await createResultsRepository(database.db).publish(clock(), { questionId: q.id, force: true });
    expect((await resultsFor(q, token)).samples).toEqual(['Freedom matters, freedom 0']);
  });

  it('shows the mirror: answers, ratings, share of the same answer and the minority', async () => {
    const q = closedOf('life-and-death')[0]!;
    for (let i = 0; i < 20; i++) await answerAs(q, { choice: q.labels[0] });
    const me = await answerAs(q, { choice: q.labels[1] });
    for (let i = 0; i < 10; i++) await answerAs(q, { choice: q.labels[1] });
    const other = closedOf('sex')[3]!;
    await post(app, `/api/v1/questions/${other.qid}/answer/`, { choice: other.labels[0] }, me);
    await post(app, `/api/v1/questions/${q.qid}/rating/`, { score: 8 }, me);
    await tick();
    const res = await get(app, '/api/v1/user/mirror/', me);
    expect(res.statusCode).toBe(200);
    const mirror = MirrorSchema.parse(json(res));
    expect(mirror.results.map((m) => m.qid)).toEqual([other.qid, q.qid]);
    expect(mirror.results[1]).toMatchObject({
      answer: q.labels[1],
      rating: 8,
      respondents: 31,
      same_percent: 35.5,
      minority: true,
    });
    // Another member's mirror never shows these answers.
    const stranger = await createMember(app);
    expect(json(await get(app, '/api/v1/user/mirror/', stranger))).toEqual({ results: [] });
    expect((await get(app, '/api/v1/user/mirror/')).statusCode).toBe(401);
  });

  it('exports everything stored about a member, then erases it and its answers leave', async () => {
    const q = closedOf('sex')[4]!;
    let token = '';
    for (let i = 0; i < 12; i++) token = (await answerAs(q, { choice: q.labels[0] })).token;
    const phone = freshPhone();
    const password = 'a long and honest passphrase';
    const { access } = await signUp(app, phone, { password });
    const mine = { token: access };
    await post(app, `/api/v1/questions/${q.qid}/answer/`, { choice: q.labels[0] }, mine);
    await post(app, `/api/v1/questions/${q.qid}/rating/`, { score: 3 }, mine);
    await tick();
    expect((await resultsFor(q, token)).respondents).toBe(13);

    const exported = await get(app, '/api/v1/user/export/', mine);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toContain('attachment');
    const data = MyDataSchema.parse(json(exported));
    expect(data.account.phone_number).toBe(phone);
    expect(data.answers).toEqual([expect.objectContaining({ qid: q.qid, answer: q.labels[0] })]);
    expect(data.ratings).toEqual([{ qid: q.qid, score: 3 }]);
    expect(data.sessions.length).toBeGreaterThan(0);
    // Secrets are not "data about the member": no hashes in the export.
    expect(exported.body).not.toMatch(/scrypt|token_hash|password/);

    const wrong = await post(app, '/api/v1/user/delete/', { password: 'not it at all' }, mine);
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong)).toEqual({ password: ['That is not your password.'] });
    const erased = await post(app, '/api/v1/user/delete/', { password }, mine);
    expect(erased.statusCode).toBe(204);

    // The answer left the counters at once, and the next snapshot (5 minutes on) shows it.
    const live = await createResultsRepository(database.db).liveCounts(q.id);
    expect(live.filter((c) => c.dimension === 'all').reduce((n, c) => n + c.n, 0)).toBe(12);
    time.now += 5 * MINUTE;
    await tick();
    expect((await resultsFor(q, token)).respondents).toBe(12);
    const login = await post(app, '/api/token/', { phone_number: phone, password });
    expect(login.statusCode).toBe(400);
    const left = await database.db.select().from(respondents);
    expect(left.length).toBeGreaterThan(0);
    const counts = await database.db
      .select()
      .from(answerCounts)
      .where(and(eq(answerCounts.questionId, q.id), eq(answerCounts.dimension, 'all')));
    expect(counts.every((c) => c.n >= 0)).toBe(true);
  });
  it('counts every answer exactly once while folds race the answers and each other', async () => {
    const q = closedOf('life-and-death')[5]!;
    const repo = createResultsRepository(database.db);
    const genders = ['female', 'male', 'non_binary'] as const;
    const total = 30;
    const folds: Array<Promise<void>> = [];
    for (let i = 0; i < total; i++) {
      await answerAs(
        q,
        { choice: q.labels[i % q.labels.length] },
        { gender: genders[i % 3], yearOfBirth: i % 2 ? 1990 : 1960, country: i % 5 ? 'US' : 'GB' },
      );
      // Folds race the answers and each other, as several API processes would.
      if (i % 4 === 0) folds.push(repo.fold(q.id), repo.fold(q.id));
    }
    await Promise.all(folds);
    await Promise.all([repo.fold(q.id), repo.fold(q.id), repo.fold(q.id)]);
    const rows = await repo.liveCounts(q.id);
    const sum = (dimension: string, bucket?: string) =>
      rows
        .filter((r) => r.dimension === dimension && (bucket === undefined || r.bucket === bucket))
        .reduce((n, r) => n + r.n, 0);
    for (const dimension of ['all', 'gender', 'age', 'country']) {
      expect(sum(dimension), dimension).toBe(total);
    }
    expect(sum('gender', 'male')).toBe(10);
    expect(sum('country', 'GB')).toBe(6);
    expect(sum('age', '65+')).toBe(15);
    const stored = await database.db.select().from(answers).where(eq(answers.questionId, q.id));
    expect(stored.every((a) => a.folded)).toBe(true);
  });
});
