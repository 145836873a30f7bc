import {
  AdminGenreListSchema,
  AdminGenreSchema,
  AdminSurveyListSchema,
  AdminSurveySchema,
  AuditEntryListSchema,
  LEAVE_BLANK_CHOICE,
  type QuestionInput,
  SurveyDetailSchema,
  type SurveyInput,
  SurveyListSchema,
} from '@candor/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { choices, questions, surveys } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { createMember, get, json, post, send } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { memberDevice } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { seededNoise } from '../../test/noise.js';
import { surveyBody } from '../../test/authoring.js';

const ADMIN = '/api/v1/admin';

const closedQuestion = (extra: Partial<QuestionInput> = {}): QuestionInput => ({
  type: 'Closed',
  question: 'Have you ever lied about your salary?',
  choices: ['Yes', 'No', 'Maybe'],
  randomise_answers: false,
  timer_seconds: 30,
  video_link_1: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  ...extra,
});

describe.each(engines)('survey authoring on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };
  const secrets = testSecrets();

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    app = await createTestApp(
      database,
      { resultsRefreshSeconds: 0, contentCacheSeconds: 0 },
      { secrets },
    );
    admin = await createMember(app, { role: 'admin' });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  const call = () => ({ token: admin.token });
  const adminSurvey = (res: { json: () => unknown }) => AdminSurveySchema.parse(res.json());

  async function draft(extra: Partial<SurveyInput> = {}) {
    const res = await post(app, `${ADMIN}/surveys/`, surveyBody(extra), call());
    expect(res.statusCode, res.body).toBe(201);
    return adminSurvey(res);
  }

  async function addQuestion(gid: string, body: QuestionInput) {
    const res = await post(app, `${ADMIN}/surveys/${gid}/questions/`, body, call());
    expect(res.statusCode, res.body).toBe(201);
    return adminSurvey(res);
  }

  async function auditTargets(): Promise<string[]> {
    const res = await get(app, `${ADMIN}/audit-log/?page_size=100`, call());
    return AuditEntryListSchema.parse(json(res)).results.map((e) => `${e.action} ${e.target}`);
  }

  it('authors a survey end to end: draft, questions, order, preview, publish, close, reopen', async () => {
    const genres = AdminGenreListSchema.parse(json(await get(app, `${ADMIN}/genres/`, call())));
    const money = genres.results.find((g) => g.genre_name === 'Money') ?? genres.results[0]!;
    const created = await draft({ genres: [money.unique_GID] });
    expect(created).toMatchObject({
      name: 'Money talk',
      state: 'draft',
      date_published: null,
      closed_at: null,
      closes_at: null,
      questions_count: 0,
      genres: [{ unique_GID: money.unique_GID }],
    });

    // A draft is nowhere in public.
    expect((await get(app, `/api/v1/surveys/${created.gid}/video-survey`)).statusCode).toBe(404);

    const withVideo = await addQuestion(created.gid, closedQuestion());
    const both = await addQuestion(created.gid, {
      type: 'Open',
      question: 'What would you do with a raise nobody knew about?',
      max_length: 200,
      rr_weight: null,
    });
    expect(both.questions.map((q) => q.position)).toEqual([1, 2]);
    const [video, open] = both.questions;
    expect(video).toMatchObject({
      choices: ['Yes', 'No', 'Maybe'],
      timer_seconds: 30,
      video_link_1: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      answers_count: 0,
      locked: false,
      locked_choices: [],
    });
    expect(open).toMatchObject({ type: 'Open', choices: [], max_length: 200 });
    expect(withVideo.questions).toHaveLength(1);

    // Reorder: the open question first.
    const twice = await send(
      app,
      'PUT',
      `${ADMIN}/surveys/${created.gid}/question-order/`,
      { qids: [open!.qid, open!.qid] },
      call(),
    );
    expect(twice.statusCode).toBe(400);
    expect(json(twice)).toEqual({ qids: ['List each question once.'] });
    const reordered = adminSurvey(
      await send(
        app,
        'PUT',
        `${ADMIN}/surveys/${created.gid}/question-order/`,
        { qids: [open!.qid, video!.qid] },
        call(),
      ),
    );
    expect(reordered.questions.map((q) => q.qid)).toEqual([open!.qid, video!.qid]);

    // The preview is the respondent's shape: the leave-blank choice added, the timer as text.
    const preview = SurveyDetailSchema.parse(
      json(await get(app, `${ADMIN}/surveys/${created.gid}/preview/`, call())),
    );
    expect(preview.questions.map((q) => q.qid)).toEqual([open!.qid, video!.qid]);
    expect(preview.questions[1]).toMatchObject({
      choices: ['Yes', 'No', 'Maybe', LEAVE_BLANK_CHOICE],
      timer_length: '0:00:30',
      randomise_answers: false,
    });
    expect(preview.instructions).toMatch(/^2 questions\./);

    const published = adminSurvey(
      await post(app, `${ADMIN}/surveys/${created.gid}/publish/`, {}, call()),
    );
    expect(published.state).toBe('open');
    expect(published.date_published).not.toBeNull();
    const listed = SurveyListSchema.parse(
      json(await get(app, '/api/v1/surveys/open-closed-random-video-surveys?page_size=100')),
    );
    expect(listed.results.map((s) => s.gid)).toContain(created.gid);

    // A member answers with the survey's credential (no session); after closing, nobody can.
    const device = memberDevice(app, await createMember(app));
    const answered = await device.answerNow(video!.qid, { choice: 'Maybe' });
    expect(answered.statusCode, answered.body).toBe(201);
    const closed = adminSurvey(
      await post(app, `${ADMIN}/surveys/${created.gid}/close/`, {}, call()),
    );
    expect(closed.state).toBe('closed');
    expect(closed.closed_at).not.toBeNull();
    // Staff see published counts only: this one answer is in none yet.
    expect(closed.answers_count).toBe(0);
    // Not with the credential the device holds, and no new one is issued.
    const late = await device.answer(open!.qid, { text: 'Save it' });
    expect(late.statusCode).toBe(409);
    expect(json(late).code).toBe('SURVEY_CLOSED');
    const latecomer = memberDevice(app, await createMember(app));
    await expect(latecomer.credentialFor(created.gid)).rejects.toThrow(/key: 409/);

    const again = await post(app, `${ADMIN}/surveys/${created.gid}/close/`, {}, call());
    expect(again.statusCode).toBe(409);
    expect(json(again)).toMatchObject({ code: 'INVALID_STATE' });

    const reopened = adminSurvey(
      await post(app, `${ADMIN}/surveys/${created.gid}/reopen/`, {}, call()),
    );
    expect(reopened).toMatchObject({ state: 'open', closed_at: null });

    const trail = await auditTargets();
    for (const entry of [
      `survey.create survey:${created.gid}`,
      `question.create question:${video!.qid}`,
      `question.create question:${open!.qid}`,
      `question.order survey:${created.gid}`,
      `survey.publish survey:${created.gid}`,
      `survey.close survey:${created.gid}`,
      `survey.reopen survey:${created.gid}`,
    ]) {
      expect(trail).toContain(entry);
    }
  });

  it('shows a publication at once on this process, whatever the content cache', async () => {
    const cached = await createTestApp(database, { contentCacheSeconds: 3600 });
    try {
      const token = (await createMember(cached, { role: 'admin' })).token;
      const created = AdminSurveySchema.parse(
        json(await post(cached, `${ADMIN}/surveys/`, surveyBody(), { token })),
      );
      await post(cached, `${ADMIN}/surveys/${created.gid}/questions/`, closedQuestion(), { token });
      const listed = async () =>
        SurveyListSchema.parse(
          json(await get(cached, '/api/v1/surveys/open-closed-random-video-surveys?page_size=100')),
        ).results.map((s) => s.gid);
      expect(await listed()).not.toContain(created.gid); // the cache is warm now
      await post(cached, `${ADMIN}/surveys/${created.gid}/publish/`, {}, { token });
      expect(await listed()).toContain(created.gid);
    } finally {
      await cached.close();
    }
  });

  it('shows a publication at once on every other process too, whatever their content cache', async () => {
    // Two more processes on this database, both with a warm hour-long content cache.
    const [writer, reader] = [
      await createTestApp(database, { contentCacheSeconds: 3600 }, { secrets }),
      await createTestApp(database, { contentCacheSeconds: 3600 }, { secrets }),
    ];
    try {
      const token = (await createMember(writer, { role: 'admin' })).token;
      const created = AdminSurveySchema.parse(
        json(await post(writer, `${ADMIN}/surveys/`, surveyBody(), { token })),
      );
      await post(writer, `${ADMIN}/surveys/${created.gid}/questions/`, closedQuestion(), { token });
      const listed = async () =>
        SurveyListSchema.parse(
          json(await get(reader, '/api/v1/surveys/open-closed-random-video-surveys?page_size=100')),
        ).results.map((s) => s.gid);
      expect(await listed()).not.toContain(created.gid); // the reader's cache is warm now
      await post(writer, `${ADMIN}/surveys/${created.gid}/publish/`, {}, { token });
      // Announced through the database (NOTIFY): seconds at most, not the hour of the cache.
      await expect.poll(listed, { timeout: 5_000, interval: 50 }).toContain(created.gid);
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('edits a survey and shows a future release as scheduled', async () => {
    const created = await draft();
    await addQuestion(created.gid, closedQuestion({ video_link_1: null }));
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const edited = await send(
      app,
      'PUT',
      `${ADMIN}/surveys/${created.gid}/`,
      surveyBody({ name: 'Money, honestly', release_date: later, variant: 'v2_small' }),
      call(),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(adminSurvey(edited)).toMatchObject({ name: 'Money, honestly', variant: 'v2_small' });
    const published = adminSurvey(
      await post(app, `${ADMIN}/surveys/${created.gid}/publish/`, {}, call()),
    );
    expect(published.state).toBe('scheduled');
    expect((await get(app, `/api/v1/surveys/${created.gid}/video-survey`)).statusCode).toBe(404);
    expect(await auditTargets()).toContain(`survey.update survey:${created.gid}`);
  });

  /** A published survey with one closed question (Yes, No, Maybe) and these answers to it. */
  async function answeredQuestion(given: string[]) {
    const created = await draft();
    const q = (await addQuestion(created.gid, closedQuestion())).questions[0]!;
    await post(app, `${ADMIN}/surveys/${created.gid}/publish/`, {}, call());
    for (const choice of given) {
      const res = await memberDevice(app, await createMember(app)).answer(q.qid, { choice });
      expect(res.statusCode, res.body).toBe(201);
    }
    await app.credentials.mix(true);
    return { gid: created.gid, qid: q.qid };
  }

  const choiceRows = (qid: string) =>
    database.db
      .select({ id: choices.id, label: choices.label, position: choices.position })
      .from(choices)
      .innerJoin(questions, eq(questions.id, choices.questionId))
      .where(eq(questions.qid, qid))
      .orderBy(choices.id);

  const editQuestion = (qid: string, body: QuestionInput) =>
    send(app, 'PUT', `${ADMIN}/questions/${qid}/`, body, call());

  it('refuses edits that would change what collected answers mean, and changes nothing', async () => {
    const yes = Array<string>(6).fill('Yes');
    const no = Array<string>(4).fill('No');
    const { gid, qid } = await answeredQuestion([...yes, ...no]);
    const loaded = adminSurvey(await get(app, `${ADMIN}/surveys/${gid}/`, call()));
    // Counts come from the published results only: none are published yet.
    expect(loaded.questions[0]).toMatchObject({
      answers_count: 0,
      locked: true,
      locked_choices: ['Yes', 'No', 'Maybe'],
    });
    const before = await choiceRows(qid);

    const renamed = await editQuestion(
      qid,
      closedQuestion({ choices: ['Yes, often', 'No', 'Maybe'] }),
    );
    expect(renamed.statusCode).toBe(409);
    expect(json(renamed)).toMatchObject({ code: 'ANSWERS_EXIST' });
    expect(json(renamed).detail).toContain('removing or renaming “Yes” would change');
    const removed = await editQuestion(qid, closedQuestion({ choices: ['Maybe', 'Other'] }));
    expect(json(removed).detail).toContain('“Yes”, “No”');
    const retyped = await editQuestion(qid, { type: 'Open', question: 'Tell us' });
    expect(retyped.statusCode).toBe(409);
    expect(json(retyped).detail).toContain('keep their type');
    const deleted = await send(app, 'DELETE', `${ADMIN}/questions/${qid}/`, undefined, call());
    expect(deleted.statusCode).toBe(409);
    expect(json(deleted)).toMatchObject({ code: 'ANSWERS_EXIST' });
    expect(await choiceRows(qid)).toEqual(before);

    // Allowed: new wording, choices moved, a new one added.
    const fine = await editQuestion(
      qid,
      closedQuestion({
        question: 'Ever lied about your salary?',
        choices: ['No', 'Maybe', 'Yes', 'Rather not say'],
      }),
    );
    expect(fine.statusCode, fine.body).toBe(200);
    expect(adminSurvey(fine).questions[0]).toMatchObject({
      question: 'Ever lied about your salary?',
      choices: ['No', 'Maybe', 'Yes', 'Rather not say'],
      locked_choices: ['No', 'Maybe', 'Yes', 'Rather not say'],
    });
    // The answers still point at the same choices.
    const kept = await choiceRows(qid);
    for (const label of ['Yes', 'No', LEAVE_BLANK_CHOICE]) {
      expect(kept.find((c) => c.label === label)?.id).toBe(
        before.find((c) => c.label === label)?.id,
      );
    }
    const preview = SurveyDetailSchema.parse(
      json(await get(app, `${ADMIN}/surveys/${gid}/preview/`, call())),
    );
    expect(preview.questions[0]!.choices).toEqual([
      'No',
      'Maybe',
      'Yes',
      'Rather not say',
      LEAVE_BLANK_CHOICE,
    ]);
    // The audit log keeps the old and the new wording: answers were given under the old one.
    const log = AuditEntryListSchema.parse(
      json(await get(app, `${ADMIN}/audit-log/?page_size=5`, call())),
    );
    expect(log.results.find((e) => e.action === 'question.update')?.details).toMatchObject({
      text_from: 'Have you ever lied about your salary?',
      text_to: 'Ever lied about your salary?',
    });
  });

  it('tells staff nothing about who answered what: an answered and an unanswered question edit alike', async () => {
    // The attack: an admin who knows one member answered "Maybe" to one of two identical
    // questions tries every edit on both and compares. Before, the unanswered one let "Maybe" go
    // and the answered one refused (and showed its count and answered choices).
    const created = await draft();
    await addQuestion(created.gid, closedQuestion({ question: 'First?' }));
    const both = (await addQuestion(created.gid, closedQuestion({ question: 'Second?' })))
      .questions;
    await post(app, `${ADMIN}/surveys/${created.gid}/publish/`, {}, call());
    const [answered, untouched] = both.map((q) => q.qid) as [string, string];
    const res = await memberDevice(app, await createMember(app)).answerNow(answered, {
      choice: 'Maybe',
    });
    expect(res.statusCode, res.body).toBe(201);

    const seen = async (qid: string) => {
      const survey = adminSurvey(await get(app, `${ADMIN}/surveys/${created.gid}/`, call()));
      const {
        qid: _q,
        position: _p,
        question: _t,
        ...rest
      } = survey.questions.find((q) => q.qid === qid)!;
      return rest;
    };
    expect(await seen(answered)).toEqual(await seen(untouched));

    const attempts = (qid: string) => [
      () => editQuestion(qid, closedQuestion({ choices: ['Yes', 'No'] })),
      () => editQuestion(qid, closedQuestion({ choices: ['Yes', 'No', 'Perhaps'] })),
      () => editQuestion(qid, { type: 'Open', question: 'Tell us' }),
      () => send(app, 'DELETE', `${ADMIN}/questions/${qid}/`, undefined, call()),
    ];
    for (const [i, attempt] of attempts(answered).entries()) {
      const a = await attempt();
      const b = await attempts(untouched)[i]!();
      expect(a.statusCode).toBe(409);
      expect({ status: a.statusCode, body: a.body }).toEqual({
        status: b.statusCode,
        body: b.body,
      });
    }
    // The survey list says no more: its count is the published one (none yet).
    const listed = AdminSurveyListSchema.parse(
      json(await get(app, `${ADMIN}/surveys/`, call())),
    ).results.find((x) => x.gid === created.gid);
    expect(listed).toMatchObject({ questions_count: 2, answers_count: 0 });
  });

  it('staff see about how many answered, from the published results, never the true count', async () => {
    const { gid, qid } = await answeredQuestion(Array<string>(30).fill('Yes'));
    const noisy = await createTestApp(
      database,
      { resultsRefreshSeconds: 0 },
      { secrets, noise: seededNoise(14) },
    );
    try {
      const [row] = await database.db.select().from(questions).where(eq(questions.qid, qid));
      // The noise comes from a second process on the same database, seeded so this is exact.
      while ((await noisy.results.fold()) > 0) {
        // Until the queue is empty.
      }
      await noisy.results.releaseNow(row!.id);
      const survey = adminSurvey(await get(app, `${ADMIN}/surveys/${gid}/`, call()));
      const count = survey.questions[0]!.answers_count;
      // Blurred: near 30 (4 sd of a sum of 4 cells of variance 12), and the same on every read.
      expect(count).not.toBe(30);
      expect(Math.abs(count - 30)).toBeLessThanOrEqual(4 * Math.sqrt(4 * 12));
      expect(survey.answers_count).toBe(count);
      const again = adminSurvey(await get(app, `${ADMIN}/surveys/${gid}/`, call()));
      expect(again.questions[0]!.answers_count).toBe(count);
    } finally {
      await noisy.close();
    }
  });

  it('a draft question may change type; a published one may not, answered or not', async () => {
    const created = await draft();
    const q = (await addQuestion(created.gid, closedQuestion())).questions[0]!;
    const opened = await editQuestion(q.qid, { type: 'Open', question: 'Tell us about it.' });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(adminSurvey(opened).questions[0]).toMatchObject({ type: 'Open', choices: [] });
    await post(app, `${ADMIN}/surveys/${created.gid}/publish/`, {}, call());
    const closed = await editQuestion(q.qid, closedQuestion());
    expect(closed.statusCode).toBe(409);
    expect(json(closed).detail).toContain('keep their type');
  });

  it('says each problem of a question once: two empty choices are one “cannot be empty”', async () => {
    const created = await draft();
    const res = await post(
      app,
      `${ADMIN}/surveys/${created.gid}/questions/`,
      closedQuestion({ choices: ['', '  '] }),
      call(),
    );
    expect(res.statusCode).toBe(400);
    expect(json(res)).toEqual({ choices: ['Choices cannot be empty.'] });
  });

  it('a randomized-response question: closed only, its strength and choices fixed once published', async () => {
    const created = await draft();
    const badOpen = await post(
      app,
      `${ADMIN}/surveys/${created.gid}/questions/`,
      { type: 'Open', question: 'Tell us.', rr_weight: 9 },
      call(),
    );
    expect(badOpen.statusCode).toBe(400);
    expect(json(badOpen)).toEqual({
      rr_weight: ['Only questions with choices can randomize the answer sent.'],
    });
    const weak = await post(
      app,
      `${ADMIN}/surveys/${created.gid}/questions/`,
      closedQuestion({ rr_weight: 1 }),
      call(),
    );
    expect(weak.statusCode).toBe(400);
    expect(json(weak)).toEqual({ rr_weight: ['Pick one of the offered strengths.'] });

    const q = (await addQuestion(created.gid, closedQuestion({ rr_weight: 9 }))).questions[0]!;
    expect(q.rr_weight).toBe(9);
    // A draft may change it freely.
    const changed = await editQuestion(q.qid, closedQuestion({ rr_weight: 3 }));
    expect(adminSurvey(changed).questions[0]!.rr_weight).toBe(3);
    const plain = (await addQuestion(created.gid, closedQuestion())).questions[1]!;
    expect(plain.rr_weight).toBeNull();
    await post(app, `${ADMIN}/surveys/${created.gid}/publish/`, {}, call());

    // Members' devices read the design they draw with.
    const preview = SurveyDetailSchema.parse(
      json(await get(app, `${ADMIN}/surveys/${created.gid}/preview/`, call())),
    );
    expect(preview.questions.map((x) => x.rr_weight)).toEqual([3, null]);

    // Published: the answers were drawn under this design, so it stays, choices included.
    for (const body of [
      closedQuestion({ rr_weight: null }),
      closedQuestion({ rr_weight: 19 }),
      closedQuestion({ rr_weight: 3, choices: ['Yes', 'No', 'Maybe', 'Sometimes'] }),
    ]) {
      const refused = await editQuestion(q.qid, body);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(json(refused).detail).toMatch(/randomizes the answer sent/);
    }
    const becomes = await editQuestion(plain.qid, closedQuestion({ rr_weight: 9 }));
    expect(becomes.statusCode).toBe(409);
    expect(json(becomes).detail).toMatch(/randomizes the answer sent/);
    // The wording and the order may still change.
    const fine = await editQuestion(
      q.qid,
      closedQuestion({
        rr_weight: 3,
        question: 'Lied about pay?',
        choices: ['No', 'Yes', 'Maybe'],
      }),
    );
    expect(fine.statusCode, fine.body).toBe(200);
    expect(adminSurvey(fine).questions[0]).toMatchObject({
      rr_weight: 3,
      choices: ['No', 'Yes', 'Maybe'],
    });
  });

  it('saves a sample video question unchanged (its videos are files of this site)', async () => {
    const listed = SurveyListSchema.parse(
      json(await get(app, '/api/v1/surveys/open-closed-random-video-surveys?page_size=100')),
    );
    const withVideo = listed.results
      .flatMap((s) => s.questions)
      .find((q) => q.video_link_1?.startsWith('/sample/'))!;
    const survey = adminSurvey(await get(app, `${ADMIN}/surveys/${withVideo.gid}/`, call()));
    const q = survey.questions.find((x) => x.qid === withVideo.qid)!;
    const {
      qid: _qid,
      position: _p,
      answers_count: _a,
      locked: _l,
      locked_choices: _c,
      ...input
    } = q;
    const res = await send(app, 'PUT', `${ADMIN}/questions/${q.qid}/`, input, call());
    expect(res.statusCode, res.body).toBe(200);
    expect(adminSurvey(res).questions.find((x) => x.qid === q.qid)).toEqual(q);
  });

  it('deletes an unanswered question and closes the gap', async () => {
    const created = await draft();
    await addQuestion(created.gid, closedQuestion({ question: 'One?' }));
    await addQuestion(created.gid, closedQuestion({ question: 'Two?' }));
    const three = await addQuestion(created.gid, closedQuestion({ question: 'Three?' }));
    const res = await send(
      app,
      'DELETE',
      `${ADMIN}/questions/${three.questions[1]!.qid}/`,
      undefined,
      call(),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(adminSurvey(res).questions.map((q) => [q.position, q.question])).toEqual([
      [1, 'One?'],
      [2, 'Three?'],
    ]);
    expect(await auditTargets()).toContain(`question.delete question:${three.questions[1]!.qid}`);
  });

  it('says what is wrong with a survey or question, field by field', async () => {
    const noName = await post(app, `${ADMIN}/surveys/`, surveyBody({ name: '  ' }), call());
    expect(noName.statusCode).toBe(400);
    expect(json(noName)).toEqual({ name: ['Give the survey a name.'] });
    const badImage = await post(
      app,
      `${ADMIN}/surveys/`,
      surveyBody({ cover_image: 'https://evil.example/x.png' }),
      call(),
    );
    expect(json(badImage)).toHaveProperty('cover_image');
    const unknownGenre = await post(
      app,
      `${ADMIN}/surveys/`,
      surveyBody({ genres: [crypto.randomUUID()] }),
      call(),
    );
    expect(unknownGenre.statusCode).toBe(400);
    expect(json(unknownGenre)).toHaveProperty('genres');

    const created = await draft();
    const cases: Array<[Partial<QuestionInput>, string, RegExp]> = [
      [{ video_link_1: 'https://example.com/page' }, 'video_link_1', /YouTube or Vimeo/],
      [{ video_link_1: 'http://youtu.be/dQw4w9WgXcQ' }, 'video_link_1', /https/],
      [{ video_link_1: 'javascript:alert(1)' }, 'video_link_1', /https/],
      [{ video_link_1: 'https://vimeo.com/about' }, 'video_link_1', /Vimeo/],
      [{ video_link_1: '/etc/passwd' }, 'video_link_1', /https/],
      [{ video_link_1: '/sample/../x.mp4' }, 'video_link_1', /https/],
      [{ video_captions_1: '/sample/x.txt' }, 'video_captions_1', /vtt/],
      [{ video_link_1: null, video_link_2: 'https://vimeo.com/76979871' }, 'video_link_2', /first/],
      [{ choices: ['Only one'] }, 'choices', /at least two/],
      [{ choices: ['Yes', 'yes'] }, 'choices', /twice/],
      [{ type: 'Open', choices: ['A', 'B'] }, 'choices', /no choices/],
      [{ timer_seconds: -1 }, 'timer_seconds', /negative/],
      [
        { video_captions_1: 'https://cdn.example.org/captions.vtt' },
        'video_captions_1',
        /YouTube and Vimeo carry their own/,
      ],
      [{ question: '' }, 'question', /Write the question/],
    ];
    for (const [change, field, message] of cases) {
      const res = await post(
        app,
        `${ADMIN}/surveys/${created.gid}/questions/`,
        closedQuestion(change),
        call(),
      );
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(json<Record<string, string[]>>(res)[field]?.join(' '), JSON.stringify(change)).toMatch(
        message,
      );
    }
    // Accepted links: YouTube short and embed forms, Vimeo, a direct file.
    for (const link of [
      'https://youtu.be/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://vimeo.com/76979871',
      'https://cdn.example.org/clips/intro.mp4',
    ]) {
      const res = await post(
        app,
        `${ADMIN}/surveys/${created.gid}/questions/`,
        closedQuestion({ video_link_1: link }),
        call(),
      );
      expect(res.statusCode, link).toBe(201);
    }
    // The leave-blank choice cannot be doubled: it is always there, once, last.
    const withBlank = await addQuestion(
      created.gid,
      closedQuestion({ choices: ['A', LEAVE_BLANK_CHOICE, 'B'] }),
    );
    expect(withBlank.questions.at(-1)!.choices).toEqual(['A', 'B']);

    const empty = await draft();
    const publish = await post(app, `${ADMIN}/surveys/${empty.gid}/publish/`, {}, call());
    expect(publish.statusCode).toBe(400);
    expect(json(publish)).toEqual({
      non_field_errors: ['Add at least one question before publishing.'],
    });
    const closeDraft = await post(app, `${ADMIN}/surveys/${empty.gid}/close/`, {}, call());
    expect(closeDraft.statusCode).toBe(409);
    expect(json(closeDraft).detail).toMatch(/publish it first/);
    for (const url of [
      `${ADMIN}/surveys/${crypto.randomUUID()}/`,
      `${ADMIN}/surveys/not-a-uuid/`,
      `${ADMIN}/surveys/${crypto.randomUUID()}/preview/`,
    ]) {
      expect((await get(app, url, call())).statusCode, url).toBe(404);
    }
  });

  it("orders the home page's bricks", async () => {
    const before = AdminSurveyListSchema.parse(json(await get(app, `${ADMIN}/surveys/`, call())));
    const listedGids = async () =>
      SurveyListSchema.parse(
        json(await get(app, '/api/v1/surveys/open-closed-random-video-surveys?page_size=100')),
      ).results.map((s) => s.gid);
    const shown = await listedGids();
    const reversed = [...shown].reverse();
    const res = await send(app, 'PUT', `${ADMIN}/survey-order/`, { gids: reversed }, call());
    expect(res.statusCode, res.body).toBe(200);
    expect(await listedGids()).toEqual(reversed);
    const after = AdminSurveyListSchema.parse(json(res)).results;
    expect(after.slice(0, reversed.length).map((s) => s.gid)).toEqual(reversed);
    expect(after.slice(0, reversed.length).map((s) => s.slot)).toEqual(
      reversed.map((_, i) => i + 1),
    );
    // Every survey is still there, the unlisted ones after the listed ones.
    expect(after).toHaveLength(before.results.length);

    const twice = await send(
      app,
      'PUT',
      `${ADMIN}/survey-order/`,
      { gids: [shown[0], shown[0]] },
      call(),
    );
    expect(twice.statusCode).toBe(400);
    expect(json(twice)).toHaveProperty('gids');
    expect(await auditTargets()).toContain('survey.order surveys');
  });

  it('moves the others down for a slot given, never a tie, even for surveys made at once', async () => {
    const slots = async () =>
      AdminSurveyListSchema.parse(json(await get(app, `${ADMIN}/surveys/`, call()))).results;
    const before = await slots();
    const first = before.find((s) => s.slot === 1)!;
    const made = await draft({ name: 'Slot one', slot: 1 });
    expect(made.slot).toBe(1);
    const after = await slots();
    expect(after.find((s) => s.gid === first.gid)!.slot).toBe(2);
    // Every other survey kept its order, one further down.
    for (const s of before) {
      expect(after.find((a) => a.gid === s.gid)!.slot, s.name).toBe(s.slot + 1);
    }
    // Moving one to a taken slot moves the holder of that slot down too.
    const second = after.find((s) => s.slot === 3)!;
    const moved = await send(
      app,
      'PUT',
      `${ADMIN}/surveys/${made.gid}/`,
      surveyBody({ name: made.name, slot: 3 }),
      call(),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    const again = await slots();
    expect(again.find((s) => s.gid === made.gid)!.slot).toBe(3);
    expect(again.find((s) => s.gid === second.gid)!.slot).toBe(4);
    expect(again.find((s) => s.gid === first.gid)!.slot).toBe(2);
    // A burst of new surveys, all for slot 3: each takes it in turn, none tie.
    await Promise.all(Array.from({ length: 6 }, (_, i) => draft({ name: `Burst ${i}`, slot: 3 })));
    const last = await slots();
    expect(new Set(last.map((s) => s.slot)).size).toBe(last.length);
  });

  it('adds, renames and deletes genres, refusing a name twice', async () => {
    const made = await post(app, `${ADMIN}/genres/`, { genre_name: 'Faith' }, call());
    expect(made.statusCode, made.body).toBe(201);
    const faith = AdminGenreSchema.parse(json(made));
    expect(faith).toMatchObject({ genre_name: 'Faith', surveys_count: 0 });
    const twice = await post(app, `${ADMIN}/genres/`, { genre_name: 'Faith' }, call());
    expect(twice.statusCode).toBe(400);
    expect(json(twice)).toEqual({ genre_name: ['There is a genre called “Faith” already.'] });

    const survey = await draft({ genres: [faith.unique_GID] });
    const renamed = await send(
      app,
      'PUT',
      `${ADMIN}/genres/${faith.unique_GID}/`,
      { genre_name: 'Faith and doubt' },
      call(),
    );
    expect(AdminGenreSchema.parse(json(renamed))).toMatchObject({
      genre_name: 'Faith and doubt',
      surveys_count: 1,
    });
    const gone = await send(
      app,
      'DELETE',
      `${ADMIN}/genres/${faith.unique_GID}/`,
      undefined,
      call(),
    );
    expect(gone.statusCode).toBe(204);
    expect(adminSurvey(await get(app, `${ADMIN}/surveys/${survey.gid}/`, call())).genres).toEqual(
      [],
    );
    const trail = await auditTargets();
    for (const action of ['genre.create', 'genre.rename', 'genre.delete']) {
      expect(trail).toContain(`${action} genre:${faith.unique_GID}`);
    }
    const [row] = await database.db.select().from(surveys).where(eq(surveys.gid, survey.gid));
    expect(row).toBeDefined();
  });
});
