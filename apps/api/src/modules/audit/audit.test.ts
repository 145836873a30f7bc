import { AuditActorListSchema, AuditEntryListSchema, maskPhoneNumber } from '@candor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { createMember, get, json, post } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

const LOG = '/api/v1/admin/audit-log/';

describe.each(engines)('audit log on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: Awaited<ReturnType<typeof createMember>>;
  let other: Awaited<ReturnType<typeof createMember>>;
  let member: Awaited<ReturnType<typeof createMember>>;
  let gid: string;
  let qid: string;
  const name = 'Audit names survey';
  const question = 'Would you read an audit log for fun?';

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database);
    admin = await createMember(app, { role: 'admin' });
    other = await createMember(app, { role: 'admin' });
    member = await createMember(app);
    const made = await post(
      app,
      '/api/v1/admin/surveys/',
      { name, release_date: new Date(Date.now() - 60_000).toISOString() },
      admin,
    );
    gid = json<{ gid: string }>(made).gid;
    const q = await post(
      app,
      `/api/v1/admin/surveys/${gid}/questions/`,
      { type: 'Closed', question, choices: ['Yes', 'No'] },
      admin,
    );
    qid = json<{ questions: Array<{ qid: string }> }>(q).questions[0]!.qid;
    expect((await post(app, `/api/v1/admin/surveys/${gid}/publish/`, {}, admin)).statusCode).toBe(
      200,
    );
    expect(
      (await post(app, `/api/v1/admin/users/${member.uuid}/suspend/`, {}, other)).statusCode,
    ).toBe(200);
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('names the actor and what was acted on: masked numbers, survey names, question texts', async () => {
    const res = await get(app, `${LOG}?page_size=100`, admin);
    expect(res.statusCode).toBe(200);
    const log = AuditEntryListSchema.parse(json(res));
    const pick = (action: string) => log.results.find((e) => e.action === action)!;
    expect(pick('user.suspend')).toMatchObject({
      actor: other.uuid,
      actor_label: maskPhoneNumber(other.phone),
      target: `user:${member.uuid}`,
      target_label: maskPhoneNumber(member.phone),
    });
    expect(pick('survey.publish')).toMatchObject({
      actor_label: maskPhoneNumber(admin.phone),
      target_label: name,
    });
    expect(pick('question.create')).toMatchObject({
      target: `question:${qid}`,
      target_label: question,
    });
    // A whole number is never in the answer: only its last three digits.
    for (const phone of [admin.phone, other.phone, member.phone]) {
      expect(res.body).not.toContain(phone);
      expect(res.body).not.toContain(phone.slice(2));
    }
  });

  it('filters by action and by who acted, and its page links keep the filter', async () => {
    const suspensions = AuditEntryListSchema.parse(
      json(await get(app, `${LOG}?action=user.suspend&page_size=1`, admin)),
    );
    expect(suspensions.count).toBe(1);
    expect(suspensions.results.map((e) => e.action)).toEqual(['user.suspend']);

    const byAdmin = AuditEntryListSchema.parse(
      json(await get(app, `${LOG}?actor=${admin.uuid}&page_size=1`, admin)),
    );
    expect(byAdmin.count).toBe(3);
    expect(byAdmin.results.every((e) => e.actor === admin.uuid)).toBe(true);
    const next = new URL(byAdmin.next!);
    expect(next.searchParams.get('actor')).toBe(admin.uuid);
    expect(next.searchParams.get('page')).toBe('2');

    const both = AuditEntryListSchema.parse(
      json(await get(app, `${LOG}?actor=${other.uuid}&action=survey.publish`, admin)),
    );
    expect(both.count).toBe(0);
  });

  it('refuses an unknown action or actor, and lists the actors by masked number', async () => {
    expect((await get(app, `${LOG}?action=user.delete`, admin)).statusCode).toBe(400);
    expect((await get(app, `${LOG}?actor=someone`, admin)).statusCode).toBe(400);
    const res = await get(app, `${LOG}actors/`, admin);
    const actors = AuditActorListSchema.parse(json(res));
    expect(actors.results).toEqual(
      expect.arrayContaining([
        {
          uuid: admin.uuid,
          label: maskPhoneNumber(admin.phone),
          role: 'admin',
          first_at: expect.any(String) as string,
        },
        {
          uuid: other.uuid,
          label: maskPhoneNumber(other.phone),
          role: 'admin',
          first_at: expect.any(String) as string,
        },
      ]),
    );
    const first = (uuid: string) => actors.results.find((a) => a.uuid === uuid)!.first_at;
    // The admin created the survey before the other suspended anyone.
    expect(first(admin.uuid) < first(other.uuid)).toBe(true);
    expect(actors.results.map((a) => a.uuid)).not.toContain(member.uuid);
    expect(res.body).not.toContain(admin.phone);
  });

  it('is for admins only', async () => {
    const moderator = await createMember(app, { role: 'moderator' });
    for (const url of [LOG, `${LOG}actors/`]) {
      expect((await get(app, url)).statusCode).toBe(401);
      expect((await get(app, url, member)).statusCode).toBe(401); // suspended
      expect((await get(app, url, await createMember(app))).statusCode).toBe(403);
      expect((await get(app, url, moderator)).statusCode).toBe(403);
    }
  });
});
