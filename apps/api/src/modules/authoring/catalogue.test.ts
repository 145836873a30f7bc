/**
 * The catalogue under control (issue 31, point 3) through the real API on both engines:
 * archiving takes a closed survey off the home page and keeps its page; a draft can be deleted,
 * a published survey never, not even by a delete racing its publication.
 */
import {
  AdminSurveyListSchema,
  AdminSurveySchema,
  AuditEntryListSchema,
  SURVEY_FILE_FORMAT,
  SurveyCodebookSchema,
  SurveyDetailSchema,
  type SurveyFile,
  SurveyFileSchema,
  SurveyListSchema,
  promotedOnHome,
} from '@candor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { createMember, get, json, post, send } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { surveyBody, surveyWithQuestion } from '../../test/authoring.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { sampleSurveys } from '../../db/seed/content.js';

const ADMIN = '/api/v1/admin';
const LIST = '/api/v1/surveys/open-closed-random-video-surveys?page_size=100';

describe.each(engines)('the catalogue on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };
  const staff = () => ({ token: admin.token });

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    app = await createTestApp(database, { contentCacheSeconds: 0 });
    admin = await createMember(app, { role: 'admin' });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  const draft = async (name: string) =>
    (await surveyWithQuestion(app, admin.token, surveyBody({ name }), { publish: false })).gid;
  const published = async (name: string) =>
    (await surveyWithQuestion(app, admin.token, surveyBody({ name }), { publish: true })).gid;
  const act = (gid: string, verb: string) =>
    post(app, `${ADMIN}/surveys/${gid}/${verb}/`, {}, staff());
  const remove = (gid: string) => send(app, 'DELETE', `${ADMIN}/surveys/${gid}/`, {}, staff());
  const listed = async () => SurveyListSchema.parse(json(await get(app, LIST))).results;
  const trail = async () =>
    AuditEntryListSchema.parse(json(await get(app, `${ADMIN}/audit-log/?page_size=100`, staff())))
      .results;

  it('archives a closed survey: off the home page, its page kept, and back again', async () => {
    const gid = await published('Archived money');
    const open = await act(gid, 'archive');
    expect(open.statusCode).toBe(409);
    expect(json(open)).toMatchObject({
      code: 'INVALID_STATE',
      detail: 'Close the survey before archiving it: an archived survey takes no answers.',
    });

    expect((await act(gid, 'close')).statusCode).toBe(200);
    const archived = AdminSurveySchema.parse(json(await act(gid, 'archive')));
    expect(archived).toMatchObject({ state: 'closed' });
    expect(archived.archived_at).not.toBeNull();
    expect((await act(gid, 'archive')).statusCode).toBe(409);
    // Still in the list (links, mirrors and the results picker read it), never promoted.
    const entry = (await listed()).find((s) => s.gid === gid)!;
    expect(entry).toMatchObject({ archived: true, status: 'Closed' });
    expect(promotedOnHome(entry)).toBe(false);
    const page = await get(app, `/api/v1/surveys/${gid}/video-survey`);
    expect(page.statusCode).toBe(200);
    expect(SurveyDetailSchema.parse(json(page)).archived).toBe(true);
    // An archived survey stays closed until it leaves the archive.
    const reopen = await act(gid, 'reopen');
    expect(reopen.statusCode).toBe(409);
    expect(json(reopen).detail).toBe('Take it out of the archive before reopening it.');

    const back = AdminSurveySchema.parse(json(await act(gid, 'unarchive')));
    expect(back).toMatchObject({ state: 'closed', archived_at: null });
    expect((await listed()).find((s) => s.gid === gid)!.archived).toBe(false);
    expect((await act(gid, 'unarchive')).statusCode).toBe(409);
    expect((await act(gid, 'reopen')).statusCode).toBe(200);

    const actions = (await trail())
      .filter((e) => e.target === `survey:${gid}`)
      .map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['survey.archive', 'survey.unarchive']));
  });

  it('deletes a draft with its questions, and refuses to delete a published survey', async () => {
    const gid = await draft('A draft to delete');
    const gone = await remove(gid);
    expect(gone.statusCode, gone.body).toBe(204);
    expect((await get(app, `${ADMIN}/surveys/${gid}/`, staff())).statusCode).toBe(404);
    const all = AdminSurveyListSchema.parse(json(await get(app, `${ADMIN}/surveys/`, staff())));
    expect(all.results.some((s) => s.gid === gid)).toBe(false);
    expect((await remove(gid)).statusCode).toBe(404);
    expect(
      (await trail()).find((e) => e.action === 'survey.delete' && e.target === `survey:${gid}`)
        ?.details,
    ).toEqual({ name: 'A draft to delete' });

    const live = await published('A published survey');
    const refused = await remove(live);
    expect(refused.statusCode).toBe(409);
    expect(json(refused)).toMatchObject({ code: 'INVALID_STATE' });
    expect((await get(app, `/api/v1/surveys/${live}/video-survey`)).statusCode).toBe(200);
    expect((await remove('not-a-gid')).statusCode).toBe(404);
  });

  it('exports a survey as a file and imports it back as a draft: content only, pairs kept', async () => {
    const gid = await draft('Filed money');
    const direct = AdminSurveySchema.parse(
      json(await get(app, `${ADMIN}/surveys/${gid}/`, staff())),
    ).questions[0]!;
    const asked = await post(
      app,
      `${ADMIN}/surveys/${gid}/questions/`,
      {
        type: 'Closed',
        question: 'Have you ever hidden a debt? (your device may blur it)',
        choices: ['Yes', 'No'],
        rr_weight: 3,
        twin_qid: direct.qid,
      },
      staff(),
    );
    expect(asked.statusCode, asked.body).toBe(201);
    const exported = await get(app, `${ADMIN}/surveys/${gid}/content/`, staff());
    expect(exported.statusCode, exported.body).toBe(200);
    const file = SurveyFileSchema.parse(json(exported));
    expect(file).toMatchObject({
      format: SURVEY_FILE_FORMAT,
      survey: { name: 'Filed money', variant: 'v1_large' },
      pairs: [{ question: 2, asks_again: 1 }],
    });
    expect(file.questions.map((q) => q.question)).toEqual([
      'Have you ever hidden a debt?',
      'Have you ever hidden a debt? (your device may blur it)',
    ]);
    // Nothing of this installation: no id, no date, no count.
    expect(exported.body).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(exported.body).not.toMatch(/answers_count|release_date|date_published/);

    const imported = await post(app, `${ADMIN}/surveys/import/`, file, staff());
    expect(imported.statusCode, imported.body).toBe(201);
    const copy = AdminSurveySchema.parse(json(imported));
    expect(copy).toMatchObject({ name: 'Filed money', state: 'draft', answers_count: 0 });
    expect(copy.gid).not.toBe(gid);
    expect(copy.questions[1]).toMatchObject({ rr_weight: 3, twin_qid: copy.questions[0]!.qid });
    const entry = (await trail()).find(
      (e) => e.action === 'survey.create' && e.target === `survey:${copy.gid}`,
    );
    expect(entry?.details).toEqual({ name: 'Filed money', imported: true });
  });

  it("shuffles a survey's questions per person when asked: saved, public, filed and copied", async () => {
    const { gid } = await surveyWithQuestion(
      app,
      admin.token,
      surveyBody({ name: 'Shuffled money', randomise_questions: true }),
      { publish: true },
    );
    const saved = AdminSurveySchema.parse(
      json(await get(app, `${ADMIN}/surveys/${gid}/`, staff())),
    );
    expect(saved.randomise_questions).toBe(true);
    // The device draws each person's order; the public survey says to.
    const page = SurveyDetailSchema.parse(
      json(await get(app, `/api/v1/surveys/${gid}/video-survey`)),
    );
    expect(page.randomise_questions).toBe(true);
    const file = SurveyFileSchema.parse(
      json(await get(app, `${ADMIN}/surveys/${gid}/content/`, staff())),
    );
    expect(file.survey.randomise_questions).toBe(true);
    // The codebook tells a researcher that the order was each person's own.
    const book = SurveyCodebookSchema.parse(
      json(await get(app, `${ADMIN}/surveys/${gid}/codebook.json`, staff())),
    );
    expect(book.survey.question_order).toBe('shuffled per person');
    const copy = AdminSurveySchema.parse(
      json(await post(app, `${ADMIN}/surveys/${gid}/duplicate/`, {}, staff())),
    );
    expect(copy.randomise_questions).toBe(true);
    // Fixed once published: the codebook states one order for the whole survey.
    const flipped = await send(
      app,
      'PUT',
      `${ADMIN}/surveys/${gid}/`,
      surveyBody({ name: 'Shuffled money', randomise_questions: false }),
      staff(),
    );
    expect(flipped.statusCode, flipped.body).toBe(400);
    expect(Object.keys(json<object>(flipped))).toEqual(['randomise_questions']);
    // Turned off by an edit; a survey made without it asks in the authored order.
    const edited = await send(
      app,
      'PUT',
      `${ADMIN}/surveys/${copy.gid}/`,
      surveyBody({ name: 'Shuffled money', randomise_questions: false }),
      staff(),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(AdminSurveySchema.parse(json(edited)).randomise_questions).toBe(false);
    const plain = await draft('Ordered money');
    expect(
      AdminSurveySchema.parse(json(await get(app, `${ADMIN}/surveys/${plain}/`, staff())))
        .randomise_questions,
    ).toBe(false);
    expect(
      SurveyCodebookSchema.parse(
        json(await get(app, `${ADMIN}/surveys/${plain}/codebook.json`, staff())),
      ).survey.question_order,
    ).toBe('as authored');
  });

  it('refuses a file it cannot take whole, and leaves no half-made draft', async () => {
    const file = (extra: Partial<SurveyFile> = {}): SurveyFile => ({
      format: SURVEY_FILE_FORMAT,
      survey: { name: 'From elsewhere' },
      questions: [{ type: 'Closed', question: 'Do you tip?', choices: ['Yes', 'No'] }],
      ...extra,
    });
    const count = async () =>
      AdminSurveyListSchema.parse(json(await get(app, `${ADMIN}/surveys/`, staff()))).results
        .length;
    const before = await count();
    const refused = async (body: unknown) => {
      const res = await post(app, `${ADMIN}/surveys/import/`, body, staff());
      expect(res.statusCode, res.body).toBe(400);
      return json(res);
    };
    expect(await refused({ ...file(), format: 'typeform/2' })).toEqual({
      format: ['This is not a Candor survey file (candor.survey/1).'],
    });
    expect(await refused(file({ survey: { name: 'x', genres: ['Astrology'] } }))).toEqual({
      genres: ['No genre here is called “Astrology”: add it first, or leave it out.'],
    });
    expect(await refused(file({ pairs: [{ question: 1, asks_again: 4 }] }))).toEqual({
      pairs: ['Pair 1 names question 4; the file has 1.'],
    });
    expect(await refused({ ...file(), answers: [{ choice: 'Yes' }] })).toHaveProperty(
      'non_field_errors',
    );
    // A pair the editor refuses (the first question does not randomize): made, then removed.
    const twoPlain = file({
      questions: [
        { type: 'Closed', question: 'Do you tip?', choices: ['Yes', 'No'] },
        { type: 'Closed', question: 'Do you tip well?', choices: ['Yes', 'No'] },
      ],
      pairs: [{ question: 2, asks_again: 1 }],
    });
    expect(Object.keys(await refused(twoPlain))).toEqual(['twin_qid']);
    expect(await count()).toBe(before);

    // An uploaded image this installation does not hold is left out, not a broken picture.
    const res = await post(
      app,
      `${ADMIN}/surveys/import/`,
      file({
        survey: {
          name: 'With pictures',
          cover_image: `/uploads/${'a'.repeat(32)}.webp`,
          intro_screen_image: '/sample/covers/night-owls.webp',
        },
      }),
      staff(),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(AdminSurveySchema.parse(json(res))).toMatchObject({
      cover_image: null,
      intro_screen_image: '/sample/covers/night-owls.webp',
    });
  });

  it('takes the sample surveys off the site, and only them', async () => {
    const own = await published('Our own survey');
    const before = AdminSurveyListSchema.parse(json(await get(app, `${ADMIN}/surveys/`, staff())));
    const samples = before.results.filter((s) => s.sample);
    expect(samples.map((s) => s.name).sort()).toEqual(sampleSurveys.map((s) => s.name).sort());
    expect(before.results.find((s) => s.gid === own)!.sample).toBe(false);

    const res = await post(app, `${ADMIN}/sample-surveys/archive/`, {}, staff());
    expect(res.statusCode, res.body).toBe(200);
    const after = AdminSurveyListSchema.parse(json(res)).results;
    for (const s of after.filter((x) => x.sample)) {
      expect(s).toMatchObject({ state: 'closed' });
      expect(s.archived_at).not.toBeNull();
    }
    expect(after.find((s) => s.gid === own)).toMatchObject({ state: 'open', archived_at: null });
    const home = (await listed()).filter(promotedOnHome).map((s) => s.gid);
    expect(home).toContain(own);
    expect(home.some((gid) => samples.some((s) => s.gid === gid))).toBe(false);

    // Once is enough: a second call changes nothing and records nothing.
    const entries = (await trail()).length;
    expect((await post(app, `${ADMIN}/sample-surveys/archive/`, {}, staff())).statusCode).toBe(200);
    expect((await trail()).length).toBe(entries);
    // The seed, as at every start, brings none of them back.
    await seedSampleContent(database.db);
    const again = AdminSurveyListSchema.parse(json(await get(app, `${ADMIN}/surveys/`, staff())));
    expect(again.results.filter((s) => s.sample && !s.archived_at)).toEqual([]);
  });

  it('never leaves a survey archived and open, whatever the order of an archive and a reopen', async () => {
    for (let round = 0; round < 6; round++) {
      const gid = await published(`Archive race ${round}`);
      expect((await act(gid, 'close')).statusCode).toBe(200);
      await Promise.all([
        act(gid, 'reopen'),
        new Promise((r) => setTimeout(r, round)).then(() => act(gid, 'archive')),
      ]);
      const after = AdminSurveySchema.parse(
        json(await get(app, `${ADMIN}/surveys/${gid}/`, staff())),
      );
      expect(after.archived_at !== null && after.state !== 'closed', JSON.stringify(after)).toBe(
        false,
      );
    }
  });

  it('never deletes a survey whose publication raced the delete', async () => {
    for (let round = 0; round < 8; round++) {
      const gid = await draft(`Raced ${round}`);
      // The delete starts a little after the publication, by a different head start each round.
      const [publishing, deleting] = await Promise.all([
        act(gid, 'publish'),
        new Promise((r) => setTimeout(r, round)).then(() => remove(gid)),
      ]);
      const survives = (await get(app, `${ADMIN}/surveys/${gid}/`, staff())).statusCode === 200;
      if (deleting.statusCode === 204) {
        // The delete won: the publication found nothing to publish.
        expect(survives).toBe(false);
        expect(publishing.statusCode).toBe(404);
      } else {
        expect(deleting.statusCode).toBe(409);
        expect(publishing.statusCode).toBe(200);
        expect(survives).toBe(true);
      }
    }
  });
});
