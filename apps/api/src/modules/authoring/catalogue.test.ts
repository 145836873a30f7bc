/**
 * The catalogue under control (issue 31, point 3) through the real API on both engines:
 * archiving takes a closed survey off the home page and keeps its page; a draft can be deleted,
 * a published survey never, not even by a delete racing its publication.
 */
import {
  AdminSurveyListSchema,
  AdminSurveySchema,
  AuditEntryListSchema,
  SurveyDetailSchema,
  SurveyListSchema,
  promotedOnHome,
} from '@candor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { createMember, get, json, post, send } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { surveyBody } from '../../test/authoring.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

const ADMIN = '/api/v1/admin';
const LIST = '/api/v1/surveys/open-closed-random-video-surveys?page_size=100';

describe.each(engines)('the catalogue on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };
  const staff = () => ({ token: admin.token });

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database, { contentCacheSeconds: 0 });
    admin = await createMember(app, { role: 'admin' });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  async function draft(name: string) {
    const res = await post(app, `${ADMIN}/surveys/`, surveyBody({ name }), staff());
    expect(res.statusCode, res.body).toBe(201);
    const { gid } = AdminSurveySchema.parse(json(res));
    const added = await post(
      app,
      `${ADMIN}/surveys/${gid}/questions/`,
      { type: 'Closed', question: 'Have you ever hidden a debt?', choices: ['Yes', 'No'] },
      staff(),
    );
    expect(added.statusCode, added.body).toBe(201);
    return gid;
  }
  async function published(name: string) {
    const gid = await draft(name);
    const res = await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, staff());
    expect(res.statusCode, res.body).toBe(200);
    return gid;
  }
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
