/**
 * Researchers' API tokens (issue 31, point 5) through the real API on both engines, tried as
 * an attacker would: the token is shown once and kept hashed; it reads only the published
 * surveys it was made for, read-only; a revoked or expired token, or one whose maker is no
 * longer an admin, is refused on its very next request, a burst included; every use is audited.
 */
import crypto from 'node:crypto';
import {
  AuditEntryListSchema,
  CreatedResearchTokenSchema,
  ResearchSurveyListSchema,
  ResearchTokenListSchema,
  SurveyCodebookSchema,
  SurveyExportSchema,
  SurveyReachSchema,
} from '@candor/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { createMember, get, json, post } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { surveyBody, surveyWithQuestion } from '../../test/authoring.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

const ADMIN = '/api/v1/admin';
const RESEARCH = '/api/v1/research';
/** Both drivers answer `{rows}` (node-postgres and PGlite). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

describe.each(engines)('research tokens on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };
  let now = new Date();
  const staff = () => ({ token: admin.token });
  const gids: Record<'a' | 'b' | 'draft' | 'scheduled', string> = {
    a: '',
    b: '',
    draft: '',
    scheduled: '',
  };

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database, { contentCacheSeconds: 0 }, { clock: () => now });
    admin = await createMember(app, { role: 'admin' });
    const made = async (name: string, publish: boolean) =>
      (await surveyWithQuestion(app, admin.token, surveyBody({ name }), { publish })).gid;
    gids.a = await made('Lab survey A', true);
    gids.b = await made('Lab survey B', true);
    gids.draft = await made('Lab draft', false);
    // Published, not released yet: strangers cannot see it, nor can a token.
    gids.scheduled = (
      await surveyWithQuestion(
        app,
        admin.token,
        surveyBody({
          name: 'Lab embargo',
          release_date: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        }),
        { publish: true },
      )
    ).gid;
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  const make = (body: unknown, token = admin.token) =>
    post(app, `${ADMIN}/research-tokens/`, body, { token });
  const read = (path: string, token?: string, ip?: string) =>
    get(app, `${RESEARCH}${path}`, {
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      ...(ip ? { ip } : {}),
    });
  const trail = async () =>
    AuditEntryListSchema.parse(json(await get(app, `${ADMIN}/audit-log/?page_size=100`, staff())))
      .results;

  it('is shown once, kept hashed, and reads only the published surveys it was made for', async () => {
    const res = await make({ name: 'Oxford lab', surveys: [gids.a], expires_in_days: null });
    expect(res.statusCode, res.body).toBe(201);
    const created = CreatedResearchTokenSchema.parse(json(res));
    expect(created.token).toMatch(/^cdr_[A-Za-z0-9_-]{43}$/);
    expect(created.token.startsWith(created.prefix)).toBe(true);
    expect(created.surveys).toEqual([{ gid: gids.a, name: 'Lab survey A' }]);
    // Never again: not in the list, not in the database (only its SHA-256).
    const listed = json<unknown>(await get(app, `${ADMIN}/research-tokens/`, staff()));
    expect(JSON.stringify(listed)).not.toContain(created.token);
    expect(ResearchTokenListSchema.parse(listed).results[0]).toMatchObject({
      id: created.id,
      state: 'active',
    });
    const stored = rowsOf<Record<string, unknown>>(
      await database.db.execute(sql`select * from research_tokens`),
    );
    expect(JSON.stringify(stored)).not.toContain(created.token);
    expect(stored[0]!.token_hash).toBe(
      crypto.createHash('sha256').update(created.token).digest('hex'),
    );

    const surveys = ResearchSurveyListSchema.parse(json(await read('/surveys/', created.token)));
    expect(surveys.results).toEqual([{ gid: gids.a, name: 'Lab survey A', state: 'open' }]);
    const exported = await read(`/surveys/${gids.a}/export.json`, created.token);
    expect(exported.statusCode).toBe(200);
    expect(SurveyExportSchema.parse(json(exported)).name).toBe('Lab survey A');
    const csv = await read(`/surveys/${gids.a}/export.csv`, created.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    // Outside its scope, a draft, or nonsense: not found, as for a stranger.
    for (const gid of [gids.b, gids.draft, crypto.randomUUID(), 'x'.repeat(300)]) {
      expect((await read(`/surveys/${gid}/export.json`, created.token)).statusCode).toBe(404);
    }
    // Read-only: nothing under /research writes.
    const write = await post(
      app,
      `${RESEARCH}/surveys/`,
      {},
      { headers: { authorization: `Bearer ${created.token}` } },
    );
    expect(write.statusCode).toBe(404);

    // The codebook says what the export means: its columns are the CSV's, in order.
    const codebook = await read(`/surveys/${gids.a}/codebook.json`, created.token);
    expect(codebook.statusCode).toBe(200);
    const book = SurveyCodebookSchema.parse(json(codebook));
    expect(book.csv_columns.map((c) => `"${c.name}"`).join(',')).toBe(csv.body.split('\r\n')[0]);
    expect(book.questions[0]).toMatchObject({ position: 1, type: 'Closed' });
    expect(book.questions[0]!.choices.map((c) => c.code)).toEqual([1, 2, 'blank']);
    expect(book.questions[0]!.choices.slice(0, 2).map((c) => c.label)).toEqual(['Yes', 'No']);
    expect(book.privacy.first_threshold).toBeGreaterThan(0);
    expect(SurveyExportSchema.parse(json(exported)).codebook).toEqual(book);
    expect((await read(`/surveys/${gids.b}/codebook.json`, created.token)).statusCode).toBe(404);

    // How far people got, in its scope only.
    const reach = await read(`/surveys/${gids.a}/reach/`, created.token);
    expect(reach.statusCode, reach.body).toBe(200);
    expect(SurveyReachSchema.parse(json(reach)).steps[0]).toMatchObject({ position: 1 });
    expect((await read(`/surveys/${gids.b}/reach/`, created.token)).statusCode).toBe(404);
    expect((await read(`/surveys/${gids.draft}/reach/`, created.token)).statusCode).toBe(404);

    // A token for every survey still never reads a draft.
    const all = CreatedResearchTokenSchema.parse(
      json(await make({ name: 'Whole catalogue', surveys: null, expires_in_days: 30 })),
    );
    const everything = ResearchSurveyListSchema.parse(json(await read('/surveys/', all.token)));
    expect(everything.results.map((s) => s.gid).sort()).toEqual([gids.a, gids.b].sort());
    for (const gid of [gids.draft, gids.scheduled]) {
      expect((await read(`/surveys/${gid}/export.csv`, all.token)).statusCode).toBe(404);
      expect((await read(`/surveys/${gid}/codebook.json`, all.token)).statusCode).toBe(404);
    }

    // Every use is in the audit log, in the maker's name, with the token's name.
    const entries = await trail();
    expect(entries.filter((e) => e.action === 'token.create')).toHaveLength(2);
    // Each read the token was allowed (refusals read nothing): the list, the codebook, the reach.
    expect(
      entries
        .filter((e) => e.action === 'token.use' && e.details.name === 'Oxford lab')
        .map((e) => e.details.read)
        .sort(),
    ).toEqual(['codebook', 'reach', 'surveys']);
    const exports = entries.filter(
      (e) => e.action === 'results.export' && e.details.token === 'Oxford lab',
    );
    expect(exports.map((e) => e.details.format).sort()).toEqual(['csv', 'json']);
    expect(exports.every((e) => e.actor === admin.uuid && e.details.token_id === created.id)).toBe(
      true,
    );
    expect(JSON.stringify(entries)).not.toContain(created.token);
  });

  it('refuses what is not a live token: none, forged, a session, revoked (a burst too), expired, or its maker demoted', async () => {
    const member = await createMember(app);
    const forged = `cdr_${crypto.randomBytes(32).toString('base64url')}`;
    for (const token of [undefined, forged, 'cdr_', member.token, admin.token, 'x'.repeat(5000)]) {
      const res = await read('/surveys/', token);
      expect(res.statusCode, String(token).slice(0, 20)).toBe(401);
      expect(json(res)).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    // A research token is no session either.
    const live = CreatedResearchTokenSchema.parse(
      json(await make({ name: 'Revoked lab', surveys: null, expires_in_days: null })),
    );
    expect(
      (await get(app, `${ADMIN}/surveys/`, { headers: { authorization: `Bearer ${live.token}` } }))
        .statusCode,
    ).toBe(401);

    // Revoked: every request after the revocation's reply is refused, a parallel burst too.
    expect((await read('/surveys/', live.token)).statusCode).toBe(200);
    const revoked = await post(app, `${ADMIN}/research-tokens/${live.id}/revoke/`, {}, staff());
    expect(revoked.statusCode).toBe(200);
    expect(json(revoked)).toMatchObject({ state: 'revoked' });
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        read(i % 2 ? '/surveys/' : `/surveys/${gids.a}/export.json`, live.token),
      ),
    );
    expect(burst.map((r) => r.statusCode)).toEqual(Array(12).fill(401));
    const again = await post(app, `${ADMIN}/research-tokens/${live.id}/revoke/`, {}, staff());
    expect(again.statusCode).toBe(409);

    // Expired: a one-day token on its second day.
    const short = CreatedResearchTokenSchema.parse(
      json(await make({ name: 'Short lab', surveys: null, expires_in_days: 1 })),
    );
    expect((await read('/surveys/', short.token)).statusCode).toBe(200);
    now = new Date(now.getTime() + 86_400_000 + 1000);
    expect((await read('/surveys/', short.token)).statusCode).toBe(401);
    // (The admin's session has expired by then too: a new one.)
    admin = await createMember(app, { role: 'admin' });
    const states = ResearchTokenListSchema.parse(
      json(await get(app, `${ADMIN}/research-tokens/`, staff())),
    ).results;
    expect(states.find((t) => t.id === short.id)?.state).toBe('expired');
    expect(states.find((t) => t.id === live.id)?.state).toBe('revoked');

    // A token never outlives its maker's rights.
    const other = await createMember(app, { role: 'admin' });
    const theirs = CreatedResearchTokenSchema.parse(
      json(await make({ name: 'Their lab', surveys: null, expires_in_days: null }, other.token)),
    );
    expect((await read('/surveys/', theirs.token)).statusCode).toBe(200);
    // Under review (as a signup the risk checks held): its maker may still act as staff, and
    // so may the token. Suspended: neither.
    await database.db.execute(
      sql`update users set status = 'under_review' where uuid = ${other.uuid}`,
    );
    expect((await read('/surveys/', theirs.token)).statusCode).toBe(200);
    await database.db.execute(
      sql`update users set status = 'suspended' where uuid = ${other.uuid}`,
    );
    expect((await read('/surveys/', theirs.token)).statusCode).toBe(401);
    await database.db.execute(sql`update users set status = 'active' where uuid = ${other.uuid}`);
    const demoted = await post(
      app,
      `${ADMIN}/users/${other.uuid}/role/`,
      { role: 'member' },
      staff(),
    );
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect((await read('/surveys/', theirs.token)).statusCode).toBe(401);
  });

  it('limits a busy script: a burst past the minute’s allowance is refused with 429', async () => {
    const busy = CreatedResearchTokenSchema.parse(
      json(await make({ name: 'Busy lab', surveys: null, expires_in_days: null })),
    );
    const replies = await Promise.all(
      Array.from({ length: 130 }, (_, i) =>
        // From an address of its own: the allowance is per address and per token.
        read('/surveys/', busy.token, '203.0.113.7').then((r) => ({ i, status: r.statusCode })),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('refuses bad input with the reason, and makes nothing', async () => {
    const before = ResearchTokenListSchema.parse(
      json(await get(app, `${ADMIN}/research-tokens/`, staff())),
    ).results.length;
    const cases: Array<[unknown, string]> = [
      [{ name: '', surveys: null, expires_in_days: null }, 'name'],
      [{ name: '   ', surveys: null, expires_in_days: null }, 'name'],
      [{ name: 'x'.repeat(81), surveys: null, expires_in_days: null }, 'name'],
      [{ name: 'Lab', surveys: [], expires_in_days: null }, 'surveys'],
      [{ name: 'Lab', surveys: ['nope'], expires_in_days: null }, 'surveys'],
      [{ name: 'Lab', surveys: [gids.draft], expires_in_days: null }, 'surveys'],
      [{ name: 'Lab', surveys: [crypto.randomUUID()], expires_in_days: null }, 'surveys'],
      [{ name: 'Lab', surveys: null, expires_in_days: 0 }, 'expires_in_days'],
      [{ name: 'Lab', surveys: null, expires_in_days: 366 }, 'expires_in_days'],
      [{ name: 'Lab', surveys: null, expires_in_days: 1.5 }, 'expires_in_days'],
      [{ name: 'Lab', surveys: null }, 'expires_in_days'],
    ];
    for (const [body, field] of cases) {
      const res = await make(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(json(res))).toContain(field);
    }
    const extra = await make({ name: 'Lab', surveys: null, expires_in_days: null, admin: true });
    expect(extra.statusCode).toBe(400);
    expect(
      (await post(app, `${ADMIN}/research-tokens/${crypto.randomUUID()}/revoke/`, {}, staff()))
        .statusCode,
    ).toBe(404);
    const after = ResearchTokenListSchema.parse(
      json(await get(app, `${ADMIN}/research-tokens/`, staff())),
    ).results.length;
    expect(after).toBe(before);
  });
});
