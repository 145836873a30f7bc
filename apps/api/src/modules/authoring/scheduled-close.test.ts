/**
 * A scheduled close (issue 31, point 3) through the real API on both engines, on a clock the
 * test moves: the survey takes answers until the time comes and none after, on the dot even
 * with a long content cache; the closing release happens once, as for a close by hand; and an
 * edit racing a close by hand never reopens the survey.
 */
import { AdminSurveySchema, SurveyDetailSchema } from '@candor/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { questions } from '../../db/schema.js';
import { createAuthoringRepository } from './authoring.repository.js';
import { createMember, get, json, post, send } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { surveyBody, surveyWithQuestion } from '../../test/authoring.js';
import { memberDevice } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { snapshotOf } from '../../test/results.js';

const ADMIN = '/api/v1/admin';
const MINUTE = 60_000;

describe.each(engines)('a scheduled close on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };
  let now = new Date();
  const staff = () => ({ token: admin.token });
  const later = (ms: number) => new Date(now.getTime() + ms).toISOString();

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    // An hour's content cache: only the scheduled close itself can end the snapshot in time.
    app = await createTestApp(
      database,
      { contentCacheSeconds: 3600, resultsRefreshSeconds: 0 },
      { clock: () => now },
    );
    admin = await createMember(app, { role: 'admin' });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  /** A published survey of one closed question, closing at `closesAt` (ISO) if given. */
  const published = (closesAt: string | null) =>
    surveyWithQuestion(
      app,
      admin.token,
      surveyBody({ release_date: later(-MINUTE), closes_at: closesAt }),
      { publish: true },
    );

  const adminView = async (gid: string) =>
    AdminSurveySchema.parse(json(await get(app, `${ADMIN}/surveys/${gid}/`, staff())));
  const publicView = async (gid: string) =>
    SurveyDetailSchema.parse(json(await get(app, `/api/v1/surveys/${gid}/video-survey`)));
  const edit = (gid: string, closesAt: string | null) =>
    send(
      app,
      'PUT',
      `${ADMIN}/surveys/${gid}/`,
      surveyBody({ release_date: later(-MINUTE), closes_at: closesAt }),
      staff(),
    );

  it('takes answers until the time comes and none after, then releases once as a close does', async () => {
    const closesAt = later(3 * MINUTE); // within the access token's 10 minutes
    const survey = await published(closesAt);
    expect(survey).toMatchObject({ state: 'open', closes_at: closesAt, closed_at: null });
    const shown = await publicView(survey.gid);
    expect(shown).toMatchObject({ status: 'Open', closes_at: closesAt, closed_at: null });
    const qid = survey.questions[0]!.qid;

    const early = memberDevice(app, await createMember(app));
    const answered = await early.answerNow(qid, { choice: 'Yes' });
    expect(answered.statusCode, answered.body).toBe(201);
    const holder = memberDevice(app, await createMember(app));
    await holder.credentialFor(survey.gid);

    // One millisecond before: still open, on the cached snapshot.
    now = new Date(Date.parse(closesAt) - 1);
    expect((await publicView(survey.gid)).status).toBe('Open');
    // On the dot: closed, though the content cache has most of an hour to run.
    now = new Date(Date.parse(closesAt));
    expect(await publicView(survey.gid)).toMatchObject({
      status: 'Closed',
      closed_at: closesAt,
      closes_at: null,
    });
    expect(await adminView(survey.gid)).toMatchObject({
      state: 'closed',
      closed_at: closesAt,
      closes_at: null,
    });
    const late = await holder.answer(qid, { choice: 'No' });
    expect(late.statusCode).toBe(409);
    expect(json(late).code).toBe('SURVEY_CLOSED');
    const latecomer = memberDevice(app, await createMember(app));
    await expect(latecomer.credentialFor(survey.gid)).rejects.toThrow(/key: 409/);

    // The background trigger treats it as closing once, as it does a close by hand.
    const [row] = await database.db
      .select({ id: questions.id })
      .from(questions)
      .where(eq(questions.qid, qid));
    await app.results.tick();
    expect((await snapshotOf(database.db, row!.id))?.closeReleased).toBe(true);
  });

  it('refuses a close in the past or before the release, and a schedule on a closed survey', async () => {
    const bad = await post(
      app,
      `${ADMIN}/surveys/`,
      surveyBody({ release_date: later(-MINUTE), closes_at: later(-1000) }),
      staff(),
    );
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).toEqual({
      closes_at: ['That time has passed: pick a later one, or close the survey now.'],
    });
    const early = await post(
      app,
      `${ADMIN}/surveys/`,
      surveyBody({ release_date: later(60 * MINUTE), closes_at: later(30 * MINUTE) }),
      staff(),
    );
    expect(early.statusCode).toBe(400);
    expect(json(early)).toEqual({ closes_at: ['Close it after its release date.'] });

    const survey = await published(null);
    expect(survey.closes_at).toBeNull();
    const scheduled = await edit(survey.gid, later(5 * MINUTE));
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(AdminSurveySchema.parse(json(scheduled)).closes_at).toBe(later(5 * MINUTE));
    // Cleared by an edit that leaves it out.
    const cleared = await edit(survey.gid, null);
    expect(AdminSurveySchema.parse(json(cleared)).closes_at).toBeNull();

    const closed = await post(app, `${ADMIN}/surveys/${survey.gid}/close/`, {}, staff());
    expect(closed.statusCode, closed.body).toBe(200);
    const onClosed = await edit(survey.gid, later(5 * MINUTE));
    expect(onClosed.statusCode).toBe(400);
    expect(json(onClosed)).toEqual({
      closes_at: ['This survey is closed already: reopen it, then schedule its close.'],
    });
    // An edit of a closed survey without a schedule keeps it closed.
    const kept = await edit(survey.gid, null);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(AdminSurveySchema.parse(json(kept)).state).toBe('closed');
  });

  it('keeps a close made after the edit read the survey, whatever the clocks say', async () => {
    const survey = await published(null);
    expect((await post(app, `${ADMIN}/surveys/${survey.gid}/close/`, {}, staff())).statusCode).toBe(
      200,
    );
    // An edit that read the survey open (closed_at null) before the close, on a process whose
    // clock is behind: its schedule must not land on the closed survey.
    const repo = createAuthoringRepository(database.db);
    const values = {
      name: survey.name,
      author: '',
      coverHeadline: '',
      introText: '',
      outroText: '',
      coverImage: null,
      introImage: null,
      variant: survey.variant,
      releaseDate: new Date(survey.release_date),
    };
    const stale = { read: null, closesAt: new Date(now.getTime() + 60 * MINUTE) };
    expect(await repo.updateSurvey(survey.gid, values, [], stale)).toBe(true);
    expect(await adminView(survey.gid)).toMatchObject({ state: 'closed', closes_at: null });
  });

  it('never closes a draft: a close time that passed while drafting is changed before publishing', async () => {
    const res = await post(
      app,
      `${ADMIN}/surveys/`,
      surveyBody({ release_date: later(-MINUTE), closes_at: later(MINUTE) }),
      staff(),
    );
    expect(res.statusCode, res.body).toBe(201);
    const { gid } = AdminSurveySchema.parse(json(res));
    const added = await post(
      app,
      `${ADMIN}/surveys/${gid}/questions/`,
      { type: 'Closed', question: 'Have you ever hidden a debt?', choices: ['Yes', 'No'] },
      staff(),
    );
    expect(added.statusCode, added.body).toBe(201);
    const closesAt = later(MINUTE);
    now = new Date(now.getTime() + 2 * MINUTE);
    // Still a draft with a (passed) schedule, never "closed".
    expect(await adminView(gid)).toMatchObject({
      state: 'draft',
      closed_at: null,
      closes_at: closesAt,
    });
    const early = await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, staff());
    expect(early.statusCode).toBe(400);
    expect(json(early)).toEqual({
      closes_at: ['Its close time has passed: change it or clear it, then publish.'],
    });
    // Cleared by an edit, then published open.
    expect((await edit(gid, null)).statusCode).toBe(200);
    const done = await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, staff());
    expect(done.statusCode, done.body).toBe(200);
    expect(AdminSurveySchema.parse(json(done))).toMatchObject({ state: 'open', closes_at: null });
  });

  it('never lets an edit racing a close by hand reopen the survey', async () => {
    for (let round = 0; round < 4; round++) {
      const survey = await published(null);
      const [closing, editing] = await Promise.all([
        post(app, `${ADMIN}/surveys/${survey.gid}/close/`, {}, staff()),
        edit(survey.gid, later(30 * MINUTE)),
      ]);
      expect(closing.statusCode, closing.body).toBe(200);
      // The edit either ran first (then the close ended it) or met a closed survey and was refused.
      expect([200, 400]).toContain(editing.statusCode);
      expect(await adminView(survey.gid)).toMatchObject({ state: 'closed', closes_at: null });
    }
  });
});
