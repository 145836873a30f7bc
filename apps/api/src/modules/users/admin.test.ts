import {
  AdminUserListSchema,
  WHOLE_NUMBER_MESSAGE,
  AuditEntryListSchema,
  PendingAnswerListSchema,
} from '@candor/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { answers, questions, surveys } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { deriveProfileKey } from '../../lib/keys.js';
import { createMember, get, json, post, send } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { memberDevice } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { zeroNoise } from '../../test/noise.js';
import { pendingOf, pendingTotal } from '../../test/results.js';
import { openSessions } from '../../test/sessions.js';

type Who = 'visitor' | 'member' | 'under_review' | 'moderator' | 'admin';

describe.each(engines)('staff area on %s', (engine) => {
  let database: Database;
  let app: App;
  const tokens = {} as Record<Who, string | undefined>;
  let admin: { uuid: string; token: string };
  let openQid: string;
  const secrets = testSecrets();
  const profileKey = deriveProfileKey(secrets);

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    // Without noise the trigger is plain: 11 answers stay in the open period.
    app = await createTestApp(
      database,
      { resultsRefreshSeconds: 0 },
      { noise: zeroNoise, secrets },
    );
    admin = await createMember(app, { role: 'admin' });
    tokens.visitor = undefined;
    tokens.member = (await createMember(app)).token;
    tokens.under_review = (await createMember(app, { status: 'under_review' })).token;
    tokens.moderator = (await createMember(app, { role: 'moderator' })).token;
    tokens.admin = admin.token;
    const [open] = await database.db
      .select({ qid: questions.qid })
      .from(questions)
      .innerJoin(surveys, eq(surveys.id, questions.surveyId))
      .where(and(eq(surveys.slug, 'taboos'), eq(questions.type, 'Open')));
    openQid = open!.qid;
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  // Every staff route and who may call it: moderators and admins, or admins only.
  const unknown = () => crypto.randomUUID();
  const question = {
    type: 'Closed',
    question: 'Matrix?',
    choices: ['Yes', 'No'],
  };
  const survey = { name: 'Matrix', release_date: new Date().toISOString() };
  const routes: Array<{
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: () => string;
    body?: object;
    who: Who[];
    /** Acts on the whole catalogue: only the refusals are tried (the others' tests need it). */
    refusalsOnly?: true;
  }> = [
    { method: 'GET', url: () => '/api/v1/admin/signups/', who: ['moderator', 'admin'] },
    { method: 'GET', url: () => '/api/v1/admin/answers/', who: ['moderator', 'admin'] },
    { method: 'GET', url: () => '/api/v1/admin/users/', who: ['admin'] },
    {
      method: 'POST',
      url: () => '/api/v1/admin/users/search/',
      body: { phone: '+1555' },
      who: ['admin'],
    },
    { method: 'GET', url: () => '/api/v1/admin/audit-log/', who: ['admin'] },
    { method: 'GET', url: () => '/api/v1/admin/audit-log/actors/', who: ['admin'] },
    { method: 'GET', url: () => '/api/v1/admin/page-views/', who: ['admin'] },
    {
      method: 'GET',
      url: () => `/api/v1/admin/questions/${openQid}/results/`,
      who: ['admin'],
    },
    {
      method: 'GET',
      url: () => `/api/v1/admin/surveys/${crypto.randomUUID()}/export.csv`,
      who: ['admin'],
    },
    {
      method: 'GET',
      url: () => `/api/v1/admin/surveys/${crypto.randomUUID()}/export.json`,
      who: ['admin'],
    },
    // Panel completions (admins only).
    {
      method: 'GET',
      url: () => `/api/v1/admin/surveys/${crypto.randomUUID()}/panel-completions/`,
      who: ['admin'],
    },
    {
      method: 'GET',
      url: () => `/api/v1/admin/surveys/${crypto.randomUUID()}/panel-completions.csv`,
      who: ['admin'],
    },
    {
      method: 'POST',
      url: () => `/api/v1/admin/surveys/${crypto.randomUUID()}/panel-completions/check/`,
      body: { panel: 'acme', pid: '1', code: 'ABCDEFGHJKLM' },
      who: ['admin'],
    },
    {
      method: 'POST',
      url: () => `/api/v1/admin/users/${crypto.randomUUID()}/role/`,
      body: { role: 'member' },
      who: ['admin'],
    },
    {
      method: 'POST',
      url: () => `/api/v1/admin/users/${crypto.randomUUID()}/suspend/`,
      body: {},
      who: ['admin'],
    },
    {
      method: 'POST',
      url: () => '/api/v1/admin/answers/999999/approve/',
      body: {},
      who: ['moderator', 'admin'],
    },
    ...(['approve', 'reject'] as const).map((verb) => ({
      method: 'POST' as const,
      url: () => `/api/v1/admin/signups/${unknown()}/${verb}/`,
      body: {},
      who: ['moderator', 'admin'] as Who[],
    })),
    {
      method: 'POST',
      url: () => '/api/v1/admin/answers/999999/hide/',
      body: {},
      who: ['moderator', 'admin'],
    },
    {
      method: 'POST',
      url: () => `/api/v1/admin/users/${unknown()}/unsuspend/`,
      body: {},
      who: ['admin'],
    },
    // A whole number, for a reason (admins only; audited).
    {
      method: 'POST',
      url: () => `/api/v1/admin/users/${unknown()}/reveal-number/`,
      body: { reason: 'Support ticket' },
      who: ['admin'],
    },
    // Decision 024: another staff member's second factor (admins only; audited).
    {
      method: 'POST',
      url: () => `/api/v1/admin/users/${unknown()}/second-factor/reset/`,
      body: {},
      who: ['admin'],
    },
    // Decision 024: one's own passkeys (every staff member).
    { method: 'GET', url: () => '/api/v1/admin/passkeys/', who: ['moderator', 'admin'] },
    {
      method: 'POST',
      url: () => '/api/v1/admin/passkeys/options/',
      body: {},
      who: ['moderator', 'admin'],
    },
    { method: 'POST', url: () => '/api/v1/admin/passkeys/', body: {}, who: ['moderator', 'admin'] },
    {
      method: 'DELETE',
      url: () => `/api/v1/admin/passkeys/${unknown()}/`,
      who: ['moderator', 'admin'],
    },
    // Authoring (admins only). Unknown ids: the route answers 404 to those allowed.
    { method: 'GET', url: () => '/api/v1/admin/surveys/', who: ['admin'] },
    { method: 'POST', url: () => '/api/v1/admin/surveys/', body: survey, who: ['admin'] },
    { method: 'GET', url: () => `/api/v1/admin/surveys/${unknown()}/`, who: ['admin'] },
    {
      method: 'PUT',
      url: () => `/api/v1/admin/surveys/${unknown()}/`,
      body: survey,
      who: ['admin'],
    },
    { method: 'DELETE', url: () => `/api/v1/admin/surveys/${unknown()}/`, who: ['admin'] },
    {
      method: 'POST',
      url: () => `/api/v1/admin/surveys/${unknown()}/delete/`,
      body: { name: 'Money talk' },
      who: ['admin'],
    },
    { method: 'GET', url: () => `/api/v1/admin/surveys/${unknown()}/content/`, who: ['admin'] },
    {
      method: 'GET',
      url: () => `/api/v1/admin/surveys/${unknown()}/codebook.json`,
      who: ['admin'],
    },
    { method: 'GET', url: () => `/api/v1/admin/surveys/${unknown()}/reach/`, who: ['admin'] },
    // Researchers' API tokens (admins only; audited).
    { method: 'GET', url: () => '/api/v1/admin/research-tokens/', who: ['admin'] },
    {
      method: 'POST',
      url: () => '/api/v1/admin/research-tokens/',
      body: { name: 'Matrix lab', surveys: null, expires_in_days: 1 },
      who: ['admin'],
    },
    {
      method: 'POST',
      url: () => `/api/v1/admin/research-tokens/${unknown()}/revoke/`,
      body: {},
      who: ['admin'],
    },
    // Webhooks (admins only; audited). A literal public address: no name to resolve here.
    { method: 'GET', url: () => '/api/v1/admin/webhooks/', who: ['admin'] },
    {
      method: 'POST',
      url: () => '/api/v1/admin/webhooks/',
      body: { url: 'https://93.184.216.34/hooks', events: ['survey.closed'] },
      who: ['admin'],
    },
    { method: 'DELETE', url: () => `/api/v1/admin/webhooks/${unknown()}/`, who: ['admin'] },
    { method: 'GET', url: () => `/api/v1/admin/webhooks/${unknown()}/deliveries/`, who: ['admin'] },
    {
      method: 'POST',
      url: () => `/api/v1/admin/webhooks/${unknown()}/ping/`,
      body: {},
      who: ['admin'],
    },
    {
      method: 'POST',
      url: () => `/api/v1/admin/webhooks/${unknown()}/deliveries/${unknown()}/redeliver/`,
      body: {},
      who: ['admin'],
    },
    {
      method: 'POST',
      url: () => '/api/v1/admin/sample-surveys/archive/',
      body: {},
      who: ['admin'],
      refusalsOnly: true,
    },
    {
      method: 'POST',
      url: () => '/api/v1/admin/surveys/import/',
      body: { format: 'candor.survey/1', survey: { name: 'Matrix' }, questions: [] },
      who: ['admin'],
    },
    ...(['publish', 'close', 'reopen', 'duplicate', 'archive', 'unarchive'] as const).map(
      (verb) => ({
        method: 'POST' as const,
        url: () => `/api/v1/admin/surveys/${unknown()}/${verb}/`,
        body: {},
        who: ['admin'] as Who[],
      }),
    ),
    { method: 'GET', url: () => `/api/v1/admin/surveys/${unknown()}/preview/`, who: ['admin'] },
    {
      method: 'POST',
      url: () => `/api/v1/admin/surveys/${unknown()}/questions/`,
      body: question,
      who: ['admin'],
    },
    {
      method: 'PUT',
      url: () => `/api/v1/admin/surveys/${unknown()}/question-order/`,
      body: { qids: [unknown()] },
      who: ['admin'],
    },
    {
      method: 'PUT',
      url: () => `/api/v1/admin/questions/${unknown()}/`,
      body: question,
      who: ['admin'],
    },
    { method: 'DELETE', url: () => `/api/v1/admin/questions/${unknown()}/`, who: ['admin'] },
    {
      method: 'PUT',
      url: () => '/api/v1/admin/survey-order/',
      body: { gids: [unknown()] },
      who: ['admin'],
    },
    { method: 'GET', url: () => '/api/v1/admin/genres/', who: ['admin'] },
    {
      method: 'POST',
      url: () => '/api/v1/admin/genres/',
      body: { genre_name: `Matrix ${unknown()}` },
      who: ['admin'],
    },
    {
      method: 'PUT',
      url: () => `/api/v1/admin/genres/${unknown()}/`,
      body: { genre_name: 'Renamed' },
      who: ['admin'],
    },
    { method: 'DELETE', url: () => `/api/v1/admin/genres/${unknown()}/`, who: ['admin'] },
    // An empty upload: allowed callers get "the file is empty" (400), never the file stored.
    { method: 'POST', url: () => '/api/v1/admin/uploads/', body: {}, who: ['admin'] },
  ];

  it('lists every staff route of the API in the matrix below', () => {
    const doc = app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const missing: string[] = [];
    for (const [pattern, methods] of Object.entries(doc.paths)) {
      if (!pattern.startsWith('/api/v1/admin/')) continue;
      const matches = new RegExp(`^${pattern.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const method of Object.keys(methods).map((m) => m.toUpperCase())) {
        if (method === 'HEAD') continue;
        const covered = routes.some((r) => r.method === method && matches.test(r.url()));
        if (!covered) missing.push(`${method} ${pattern}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('refuses every staff route to visitors (401) and to the wrong roles (403)', async () => {
    for (const route of routes) {
      for (const who of Object.keys(tokens) as Who[]) {
        const call = { ...(tokens[who] ? { token: tokens[who] } : {}) };
        const expected = who === 'visitor' ? 401 : route.who.includes(who) ? 'allowed' : 403;
        if (expected === 'allowed' && route.refusalsOnly) continue;
        const res = await send(app, route.method, route.url(), route.body, call);
        if (expected === 'allowed') {
          // Allowed: the route answers (an unknown id is a 404, a refused body 400 or 415,
          // never a 401/403).
          expect([200, 201, 204, 400, 404, 415], `${who} ${route.method} ${route.url()}`).toContain(
            res.statusCode,
          );
        } else {
          expect(res.statusCode, `${who} ${route.method} ${route.url()}`).toBe(expected);
        }
      }
    }
  });

  it('moderates written answers without showing who wrote them, and audits it', async () => {
    const writers = [];
    for (let i = 0; i < 3; i++) {
      const m = await createMember(app);
      writers.push(m);
      // With the writer's credential, no session; stored once mixed.
      const res = await memberDevice(app, m).answer(openQid, { text: `Honest line ${i}` });
      expect(res.statusCode, res.body).toBe(201);
    }
    await app.credentials.mix(true);
    const queue = await get(app, '/api/v1/admin/answers/', { token: tokens.moderator });
    const list = PendingAnswerListSchema.parse(json(queue));
    // Oldest day first; within a day in no telling order (answer ids are random).
    expect(list.results.map((a) => a.text).sort()).toEqual([
      'Honest line 0',
      'Honest line 1',
      'Honest line 2',
    ]);
    for (const w of writers) expect(queue.body).not.toContain(w.uuid);
    const [first, second, third] = list.results;
    expect(
      (
        await post(
          app,
          `/api/v1/admin/answers/${first!.id}/approve/`,
          {},
          { token: tokens.moderator },
        )
      ).statusCode,
    ).toBe(204);
    expect(
      (
        await post(
          app,
          `/api/v1/admin/answers/${second!.id}/hide/`,
          {},
          { token: tokens.moderator },
        )
      ).statusCode,
    ).toBe(204);
    const pending = PendingAnswerListSchema.parse(
      json(await get(app, '/api/v1/admin/answers/', { token: tokens.moderator })),
    );
    expect(pending.results.map((a) => a.text)).toEqual([third!.text]);
    const approved = PendingAnswerListSchema.parse(
      json(await get(app, '/api/v1/admin/answers/?status=approved', { token: tokens.admin })),
    );
    expect(approved.results.map((a) => a.text)).toEqual([first!.text]);
    const bad = await get(app, '/api/v1/admin/answers/?status=everything', {
      token: tokens.admin,
    });
    expect(json(bad)).toEqual({ status: ['Choose pending, approved or hidden.'] });
    // A blank written answer has nothing to moderate, and an unknown id names nothing.
    const blankWriter = await createMember(app);
    expect(
      (await memberDevice(app, blankWriter).answerNow(openQid, { text: '  ' })).statusCode,
    ).toBe(201);
    const [blank] = await database.db
      .select({ id: answers.id })
      .from(answers)
      .where(and(eq(answers.isBlank, true), isNull(answers.moderation)));
    for (const id of [blank!.id, 999_999]) {
      const res = await post(
        app,
        `/api/v1/admin/answers/${id}/approve/`,
        {},
        {
          token: tokens.moderator,
        },
      );
      expect(res.statusCode).toBe(404);
    }

    const log = AuditEntryListSchema.parse(
      json(await get(app, '/api/v1/admin/audit-log/', { token: tokens.admin })),
    );
    expect(log.results.slice(0, 2).map((e) => [e.action, e.target, e.actor_role])).toEqual([
      ['answer.hide', `answer:${second!.id}`, 'moderator'],
      ['answer.approve', `answer:${first!.id}`, 'moderator'],
    ]);
  });

  it('finds accounts by number, changes roles and suspends; a credential answer stays counted', async () => {
    const target = await createMember(app);
    const digits = target.phone.slice(1, 6);
    const search = (phone: string) =>
      post(app, '/api/v1/admin/users/search/', { phone }, { token: admin.token });
    // The whole number, typed with spaces, finds the account and shows its number whole.
    const spaced = `${target.phone.slice(0, 2)} ${target.phone.slice(2, 5)} ${target.phone.slice(5)}`;
    const found = AdminUserListSchema.parse(json(await search(spaced)));
    expect(found.results.map((u) => [u.uuid, u.phone_number, u.phone_whole])).toEqual([
      [target.uuid, target.phone, true],
    ]);
    // Numbers are sealed (crypto-shredding): a part of one is refused with the reason, never
    // answered by a list a prefix would narrow.
    const part = await search(digits);
    expect(part.statusCode).toBe(400);
    expect(json(part)).toEqual({ phone: [WHOLE_NUMBER_MESSAGE] });
    const none = AdminUserListSchema.parse(json(await search('+1 202 555 9999 9')));
    expect(none.count).toBe(0);
    const bad = await search('abc');
    expect(json(bad)).toEqual({ phone: ['Search by the digits of a phone number.'] });
    // Punctuation alone is refused too, not taken for an empty search that lists everyone.
    for (const nothing of ['+', '( ) -', ' . ']) {
      const res = await search(nothing);
      expect(res.statusCode, nothing).toBe(400);
      expect(json(res), nothing).toEqual({ phone: ['Search by the digits of a phone number.'] });
    }
    // A number never goes in a URL: the list refuses one in its query, and says where to go.
    const inUrl = await get(app, `/api/v1/admin/users/?phone=${digits}`, { token: admin.token });
    expect(inUrl.statusCode).toBe(400);
    expect(json(inUrl)).toEqual({
      phone: [
        'Search by number with POST /api/v1/admin/users/search/: a number never goes in a URL.',
      ],
    });

    const promoted = await post(
      app,
      `/api/v1/admin/users/${target.uuid}/role/`,
      { role: 'moderator' },
      { token: admin.token },
    );
    expect(json(promoted)).toMatchObject({ uuid: target.uuid, role: 'moderator' });
    // A token naming the old role is refused from the next request on (decision 005, 2026-11-23).
    const mine = '/api/v1/questions/my-attempted-questions/';
    expect((await get(app, mine, target)).statusCode).toBe(401);
    // A role change ends the sessions: the promoted member logs in again.
    const [sid] = await openSessions(app.db, [target.uuid]);
    target.token = await app.tokens.signAccess({ sub: target.uuid, role: 'moderator', sid: sid! });
    expect((await get(app, mine, target)).statusCode).toBe(200);
    const wrongRole = await post(
      app,
      `/api/v1/admin/users/${target.uuid}/role/`,
      { role: 'owner' },
      { token: admin.token },
    );
    expect(wrongRole.statusCode).toBe(400);
    const self = await post(
      app,
      `/api/v1/admin/users/${admin.uuid}/role/`,
      { role: 'member' },
      { token: admin.token },
    );
    expect(json(self)).toEqual({
      detail: 'Ask another admin to change your own account.',
      code: 'FORBIDDEN',
    });

    // The target answers with 10 others, each with their credential (no session).
    const [q] = await database.db
      .select({ id: questions.id, qid: questions.qid })
      .from(questions)
      .innerJoin(surveys, eq(surveys.id, questions.surveyId))
      .where(and(eq(surveys.slug, 'taboos'), eq(questions.position, 2)));
    const { choices: labels } = json<{ questions: Array<{ qid: string; choices: string[] }> }>(
      await get(app, `/api/v1/surveys/${(await surveyGid('taboos'))!}/video-survey`),
    ).questions.find((x) => x.qid === q!.qid)!;
    const choice = labels.find((l) => l !== 'Leave blank')!;
    const device = memberDevice(app, target);
    expect((await device.answer(q!.qid, { choice })).statusCode).toBe(201);
    for (let i = 0; i < 10; i++) {
      const other = memberDevice(app, await createMember(app));
      expect((await other.answer(q!.qid, { choice })).statusCode).toBe(201);
    }
    await app.credentials.mix(true);
    await app.results.tick();
    // What the open period holds (true counts, never published as such).
    const total = async () => pendingTotal(await pendingOf(database.db, q!.id, profileKey));
    const before = await total();
    expect(before).toBe(11);
    const suspended = await post(
      app,
      `/api/v1/admin/users/${target.uuid}/suspend/`,
      {},
      { token: admin.token },
    );
    expect(json(suspended)).toMatchObject({ status: 'suspended' });
    // The answer came with a credential, which names no account: a suspension cannot find it,
    // so it stays counted (decision 020), and a suspend/lift loop moves nothing.
    expect(await total()).toBe(before);
    const login = await get(app, '/api/v1/user/detail/', target);
    expect(login.statusCode).toBe(401);
    // The suspended account's session gets no credential for another survey.
    const other = await surveyGid('sex');
    await expect(device.credentialFor(other!)).rejects.toThrow(/issue: 401/);
    await post(app, `/api/v1/admin/users/${target.uuid}/unsuspend/`, {}, { token: admin.token });
    await app.results.tick();
    expect(await total()).toBe(before);

    const log = AuditEntryListSchema.parse(
      json(await get(app, '/api/v1/admin/audit-log/?page_size=5', { token: admin.token })),
    );
    expect(log.results.slice(0, 3).map((e) => [e.action, e.target, e.actor])).toEqual([
      ['user.unsuspend', `user:${target.uuid}`, admin.uuid],
      ['user.suspend', `user:${target.uuid}`, admin.uuid],
      ['user.role', `user:${target.uuid}`, admin.uuid],
    ]);
    expect(log.results[2]!.details).toEqual({ from: 'member', to: 'moderator' });
  });

  async function surveyGid(slug: string) {
    const [s] = await database.db
      .select({ gid: surveys.gid })
      .from(surveys)
      .where(eq(surveys.slug, slug));
    return s?.gid;
  }
});
