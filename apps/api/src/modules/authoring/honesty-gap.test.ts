import {
  type AdminSurvey,
  AdminSurveySchema,
  type QuestionInput,
  QuestionResultsSchema,
  SurveyDetailSchema,
  SurveyReachSchema,
} from '@candor/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { questions } from '../../db/schema.js';
import { createMember, get, json, post, send } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { memberDevice } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { seededNoise } from '../../test/noise.js';
import { surveyBody } from '../../test/authoring.js';

/**
 * The honesty gap's pairs (decision 029): one question asked directly and again with
 * randomized response, each person asked one of the two.
 */

const ADMIN = '/api/v1/admin';

/** The survey's own words (the rest as in every authoring test). */
const HONEST = {
  name: 'Honest or not',
  cover_headline: 'Would you say it?',
  intro_screen_text: 'One question, asked two ways.',
  outro_screen_text: 'Thank you.',
};

const ask = (extra: Partial<QuestionInput> = {}): QuestionInput => ({
  type: 'Closed',
  question: 'Have you ever driven after drinking?',
  choices: ['Yes', 'No'],
  randomise_answers: false,
  ...extra,
});

describe.each(engines)('honesty-gap pairs on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };
  const secrets = testSecrets();

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(
      database,
      { resultsRefreshSeconds: 0, contentCacheSeconds: 0 },
      { secrets, noise: seededNoise(29) },
    );
    admin = await createMember(app, { role: 'admin' });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  const call = () => ({ token: admin.token });
  const fieldErrors = (res: { json: () => unknown }) =>
    res.json() as Record<string, string[] | undefined>;
  const adminSurvey = (res: { json: () => unknown }) => AdminSurveySchema.parse(res.json());
  const addQuestion = (gid: string, body: QuestionInput) =>
    post(app, `${ADMIN}/surveys/${gid}/questions/`, body, call());
  const editQuestion = (qid: string, body: QuestionInput) =>
    send(app, 'PUT', `${ADMIN}/questions/${qid}/`, body, call());

  /** A draft with a direct question and its randomized twin; returns both qids. */
  async function pair() {
    const created = await post(app, `${ADMIN}/surveys/`, surveyBody(HONEST), call());
    const gid = adminSurvey(created).gid;
    const direct = adminSurvey(await addQuestion(gid, ask())).questions[0]!;
    const res = await addQuestion(gid, ask({ rr_weight: 3, twin_qid: direct.qid }));
    expect(res.statusCode, res.body).toBe(201);
    const randomized = adminSurvey(res).questions[1]!;
    expect(randomized.twin_qid).toBe(direct.qid);
    return { gid, direct: direct.qid, randomized: randomized.qid };
  }

  it('checks a pair with the reason, in the draft and again when publishing', async () => {
    const gid = adminSurvey(await post(app, `${ADMIN}/surveys/`, surveyBody(HONEST), call())).gid;
    const direct = adminSurvey(await addQuestion(gid, ask())).questions[0]!;
    const open = adminSurvey(
      await addQuestion(gid, { type: 'Open', question: 'Why?', rr_weight: null }),
    ).questions[1]!;

    const refusals: Array<[Partial<QuestionInput>, RegExp]> = [
      [{ twin_qid: direct.qid }, /Only a question that randomizes/],
      [{ rr_weight: 3, twin_qid: open.qid }, /ordinary question with choices: question 2/],
      [{ rr_weight: 3, twin_qid: crypto.randomUUID() }, /Pick a question of this survey/],
      [{ rr_weight: 3, twin_qid: direct.qid, choices: ['Yes', 'No', 'Maybe'] }, /same choices/],
    ];
    for (const [extra, message] of refusals) {
      const res = await addQuestion(gid, ask(extra));
      expect(res.statusCode, res.body).toBe(400);
      expect(fieldErrors(res).twin_qid?.[0] ?? '').toMatch(message);
    }

    const twin = adminSurvey(
      await addQuestion(gid, ask({ rr_weight: 9, twin_qid: direct.qid, choices: ['No', 'Yes'] })),
    ).questions[2]!;
    // One randomized twin per question.
    const second = await addQuestion(gid, ask({ rr_weight: 3, twin_qid: direct.qid }));
    expect(json(second).twin_qid).toEqual([
      'Question 1 is asked again by another question already.',
    ]);
    // Nor may a question ask itself again.
    const itself = await editQuestion(twin.qid, ask({ rr_weight: 9, twin_qid: twin.qid }));
    expect(fieldErrors(itself).twin_qid?.[0]).toMatch(/cannot ask itself/);

    // A draft may still change the direct question; publishing checks the pair as it stands.
    expect(
      (await editQuestion(direct.qid, ask({ choices: ['Yes', 'No', 'Unsure'] }))).statusCode,
    ).toBe(200);
    const refused = await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, call());
    expect(refused.statusCode).toBe(400);
    expect(json(refused).non_field_errors).toEqual([
      "Question 3: Give both questions the same choices as question 1: the gap compares each answer's share.",
    ]);
    await editQuestion(direct.qid, ask());
    const published = await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, call());
    expect(published.statusCode, published.body).toBe(200);

    // Published: the pair and its choices stay (ANSWERS_EXIST, with the reason).
    for (const [qid, body] of [
      [twin.qid, ask({ rr_weight: 9, twin_qid: null })],
      [direct.qid, ask({ choices: ['Yes', 'No', 'Sometimes'] })],
    ] as const) {
      const res = await editQuestion(qid, body);
      expect(res.statusCode, res.body).toBe(409);
      expect(json(res).code).toBe('ANSWERS_EXIST');
    }
    const late = await addQuestion(gid, ask({ rr_weight: 3, twin_qid: direct.qid }));
    expect(late.statusCode).toBe(409);
    expect(json(late).detail).toMatch(/start with nobody answered/);

    // Members' devices learn the pair from both sides; a person is asked one of the two.
    const detail = SurveyDetailSchema.parse(
      json(await get(app, `${ADMIN}/surveys/${gid}/preview/`, call())),
    );
    expect(detail.questions.map((q) => q.twin_qid)).toEqual([twin.qid, null, direct.qid]);
    expect(detail.questions_count).toBe(2);
    expect(detail.instructions).toMatch(/^2 questions\./);
  });

  it('duplicates a published survey into a draft with its questions and its pair, never its answers', async () => {
    const { gid, direct, randomized } = await pair();
    expect((await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, call())).statusCode).toBe(200);
    const res = await post(app, `${ADMIN}/surveys/${gid}/duplicate/`, {}, call());
    expect(res.statusCode, res.body).toBe(201);
    const copy = adminSurvey(res);
    const from = adminSurvey(await get(app, `${ADMIN}/surveys/${gid}/`, call()));
    expect(copy.gid).not.toBe(gid);
    expect(copy).toMatchObject({ name: 'Honest or not (copy)', state: 'draft', answers_count: 0 });
    expect(copy.date_published).toBeNull();
    const content = (q: AdminSurvey['questions'][number]) => [
      q.type,
      q.question,
      q.choices,
      q.rr_weight,
    ];
    expect(copy.questions.map(content)).toEqual(from.questions.map(content));
    // The pair is the copy's own: the randomized copy asks the copied direct question again.
    const [copiedDirect, copiedRandomized] = copy.questions;
    expect(copiedRandomized!.twin_qid).toBe(copiedDirect!.qid);
    expect([copiedDirect!.qid, copiedRandomized!.qid]).not.toContain(direct);
    expect(from.questions.find((q) => q.qid === randomized)!.twin_qid).toBe(direct);
    expect(copy.questions.every((q) => !q.locked && q.answers_count === 0)).toBe(true);
    const missing = await post(
      app,
      `${ADMIN}/surveys/${crypto.randomUUID()}/duplicate/`,
      {},
      call(),
    );
    expect(missing.statusCode).toBe(404);
  });

  it('pairs a question once when two pairings race (never an error of the server)', async () => {
    const gid = adminSurvey(await post(app, `${ADMIN}/surveys/`, surveyBody(HONEST), call())).gid;
    const direct = adminSurvey(await addQuestion(gid, ask())).questions[0]!;
    const burst = await Promise.all(
      [3, 9, 19].map((w) => addQuestion(gid, ask({ rr_weight: w, twin_qid: direct.qid }))),
    );
    expect(burst.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    for (const res of burst.filter((r) => r.statusCode === 400)) {
      expect(fieldErrors(res).twin_qid?.[0]).toMatch(/asked again by another question already/);
    }
  });

  it('takes one answer per credential for a pair: a second, to either question, is refused', async () => {
    const { gid, direct, randomized } = await pair();
    await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, call());

    const one = memberDevice(app, await createMember(app));
    expect((await one.answer(randomized, { choice: 'Yes' })).statusCode).toBe(201);
    // The same answer again is a replay; the other question of the pair is refused.
    expect((await one.answer(randomized, { choice: 'Yes' })).statusCode).toBe(200);
    const other = await one.answer(direct, { choice: 'Yes' });
    expect(other.statusCode).toBe(409);
    expect(json(other).code).toBe('ALREADY_ANSWERED');

    // A burst to both at once: exactly one is taken.
    for (let i = 0; i < 3; i++) {
      const device = memberDevice(app, await createMember(app));
      await device.credentialFor(gid);
      const burst = await Promise.all(
        [direct, randomized, direct, randomized].map((qid) => device.answer(qid, { choice: 'No' })),
      );
      const taken = burst.filter((r) => r.statusCode === 201);
      expect(taken).toHaveLength(1);
      expect(burst.filter((r) => r.statusCode === 409).length).toBeGreaterThanOrEqual(2);
    }

    // Withdrawing a credential that answered one of the pair works, and closes both.
    const leaving = memberDevice(app, await createMember(app));
    expect((await leaving.answer(direct, { choice: 'No' })).statusCode).toBe(201);
    expect((await leaving.withdraw(gid)).statusCode).toBe(200);
    expect(json(await leaving.answer(randomized, { choice: 'No' })).code).toBe('ANSWERS_WITHDRAWN');
  });

  it('publishes the gap on both questions, from their published rows', async () => {
    const { gid, direct, randomized } = await pair();
    await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, call());
    // 40 asked directly, 40 with randomized response; every device sends 'Yes' as drawn.
    for (let i = 0; i < 80; i++) {
      const device = memberDevice(app, await createMember(app));
      const qid = i % 2 ? randomized : direct;
      expect(
        (await device.answer(qid, { choice: i % 2 || i % 4 === 0 ? 'Yes' : 'No' })).statusCode,
      ).toBe(201);
    }
    await app.credentials.mix(true);
    while ((await app.results.fold()) > 0) {
      // Until the queue is empty.
    }
    for (const qid of [direct, randomized]) {
      const [row] = await database.db.select().from(questions).where(eq(questions.qid, qid));
      await app.results.releaseNow(row!.id);
    }
    const read = async (qid: string) =>
      QuestionResultsSchema.parse(json(await get(app, `/api/v1/questions/${qid}/results/`)));
    const [d, r] = [await read(direct), await read(randomized)];
    expect(d.honesty_gap).toEqual(r.honesty_gap);
    const gap = r.honesty_gap!;
    expect(gap).toMatchObject({
      direct_qid: direct,
      randomized_qid: randomized,
      direct_respondents: d.respondents,
      randomized_respondents: r.respondents,
    });
    expect(gap.choices.map((c) => c.choice)).toEqual(['Yes', 'No']);
    const yes = gap.choices[0]!;
    const share = (res: typeof d) => res.choices.find((c) => c.choice === 'Yes')!;
    // The randomized arm's estimate less the direct arm's share, margins added as variances.
    expect(yes.points).toBeCloseTo(share(r).percent! - share(d).percent!, 0);
    expect(yes.margin).toBeCloseTo(Math.hypot(share(r).margin!, share(d).margin!), 0);
    expect(yes.low).toBeCloseTo(yes.points! - yes.margin!, 0);
    expect(yes.high).toBeCloseTo(yes.points! + yes.margin!, 0);
    // All 'Yes' sent at m = 3 with 2 choices estimates 100% against about half directly.
    expect(yes.points!).toBeGreaterThan(20);

    // How far people got: the pair is one place (each person met one of its questions), its
    // two published counts added up, and their noise variances too.
    const reach = SurveyReachSchema.parse(
      json(await get(app, `${ADMIN}/surveys/${gid}/reach/`, call())),
    );
    expect(reach.steps).toHaveLength(1);
    const [place] = reach.steps;
    expect(place).toMatchObject({ qid: direct, pair_qid: randomized, kept_percent: 100 });
    expect(Math.abs(place!.respondents! - d.respondents! - r.respondents!)).toBeLessThanOrEqual(1);
    expect(place!.respondents_margin).toBeGreaterThan(0);

    // The operators' CSV gives each answer's gap on both questions' overall rows, as numbers
    // (a negative gap is not mistaken for a formula and quoted away).
    const csv = (await get(app, `${ADMIN}/surveys/${gid}/export.csv`, call())).body;
    const no = gap.choices[1]!;
    expect(no.points!).toBeLessThan(0);
    for (const qid of [direct, randomized]) {
      const line = csv.split('\r\n').find((l) => l.includes(qid) && l.includes('"all","","No"'));
      const cells = line!.slice(1, -1).split('","');
      expect(cells.slice(-3)).toEqual([no.points, no.low, no.high].map(String));
    }
  });
});
