import crypto from 'node:crypto';
import {
  AuditEntryListSchema,
  PanelCodeCheckSchema,
  PanelCompletionCountsSchema,
  PanelCompletionSchema,
} from '@candor/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { choices, panelCompletions, questions, surveys } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { createMember, get, json, post } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { memberDevice, obtainCredential, redeem } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { credentialTag } from '../credentials/credentials.service.js';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The code the web app used to compute in the browser from public values (SHA-256, no key). */
function browserCode(gid: string, panel: string, pid: string, length = 8) {
  const digest = crypto.createHash('sha256').update(`${gid}:${panel}:${pid}`).digest();
  return Array.from(digest.subarray(0, length), (b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** The same shape as the server's code, under a key that is not the server's. */
function wrongKeyCode(gid: string, panel: string, pid: string) {
  const mac = crypto
    .createHmac('sha256', crypto.randomBytes(32))
    .update(`${gid}\n${panel}\n${pid}`)
    .digest();
  return Array.from(mac.subarray(0, 12), (b) => ALPHABET[b & 31]).join('');
}

describe.each(engines)('panel completion codes on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };
  let gid: string;
  /** The sample survey's questions in order, each with an answer to give. */
  let asked: Array<{ qid: string; body: Record<string, string> }>;

  const completionUrl = (g = gid) => `/api/v1/surveys/${g}/answers/panel-completion/`;
  const checkUrl = (g = gid) => `/api/v1/admin/surveys/${g}/panel-completions/check/`;

  type Member = Awaited<ReturnType<typeof createMember>> & {
    device: ReturnType<typeof memberDevice>;
  };

  /** A member and their device, which answers with the survey's credential. */
  async function newMember(): Promise<Member> {
    const member = await createMember(app);
    return { ...member, device: memberDevice(app, member) };
  }

  async function answer(member: Member, upTo = asked.length) {
    for (const q of asked.slice(0, upTo)) {
      const res = await member.device.answer(q.qid, q.body);
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
  }

  async function completedMember() {
    const member = await newMember();
    await answer(member);
    return member;
  }

  /** The completion as the member's device asks it: with the survey's credential, no session. */
  const complete = async (member: Member, panel: string, pid: string, g = gid) =>
    post(
      app,
      completionUrl(g),
      { panel, pid },
      { headers: { 'candor-credential': await member.device.credentialFor(gid) } },
    );

  async function check(panel: string, pid: string, code: string, g = gid) {
    const res = await post(app, checkUrl(g), { panel, pid, code }, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    return PanelCodeCheckSchema.parse(json(res));
  }

  const rows = () => database.db.select().from(panelCompletions);

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    app = await createTestApp(database, { contentCacheSeconds: 0 });
    admin = await createMember(app, { role: 'admin' });
    const [survey] = await database.db
      .select({ id: surveys.id, gid: surveys.gid })
      .from(surveys)
      .where(eq(surveys.slug, 'time-travel'));
    gid = survey!.gid;
    const qs = await database.db
      .select({ id: questions.id, qid: questions.qid, type: questions.type })
      .from(questions)
      .where(eq(questions.surveyId, survey!.id))
      .orderBy(asc(questions.position));
    asked = [];
    for (const q of qs) {
      const [first] = await database.db
        .select({ label: choices.label })
        .from(choices)
        .where(eq(choices.questionId, q.id))
        .orderBy(asc(choices.position))
        .limit(1);
      asked.push({
        qid: q.qid,
        body: q.type === 'Closed' ? { choice: first!.label } : { text: 'an answer' },
      });
    }
    expect(asked.length).toBeGreaterThan(1);
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('refuses visitors, invalid input and unknown surveys', async () => {
    expect((await post(app, completionUrl(), { panel: 'p', pid: '1' })).statusCode).toBe(401);
    const member = await completedMember();
    // The session alone completes nothing: the credential is what answered.
    const bySession = await post(app, completionUrl(), { panel: 'p', pid: '1' }, member);
    expect([bySession.statusCode, json(bySession).code]).toEqual([401, 'CREDENTIAL_REQUIRED']);
    const bad = await complete(member, '', 'a\nb');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(json(bad)).sort()).toEqual(['panel', 'pid']);
    expect((await complete(member, 'p', '1', crypto.randomUUID())).statusCode).toBe(404);
    expect((await complete(member, 'p', '1', 'not-a-uuid')).statusCode).toBe(404);
    expect(await rows()).toHaveLength(0);
  });

  it('issues a code only once every answer of the survey is stored', async () => {
    const member = await newMember();
    // Nothing answered (no receipt yet), then all but the last question.
    for (const upTo of [0, asked.length - 1]) {
      await answer(member, upTo);
      const early = await complete(member, 'acme', 'early-1');
      expect(early.statusCode).toBe(409);
      expect(json(early).code).toBe('NOT_ANSWERED');
      expect(JSON.stringify(json(early))).not.toMatch(/[A-Z2-9]{12}/);
    }
    expect(await rows()).toHaveLength(0);

    await answer(member);
    const done = await complete(member, 'acme', 'early-1');
    expect(done.statusCode).toBe(201);
    const completion = PanelCompletionSchema.parse(json(done));
    expect(completion).toMatchObject({ gid, panel: 'acme' });
    expect(completion.code).toMatch(/^[A-HJ-NP-Z2-9]{12}$/);
    expect((await check('acme', 'early-1', completion.code)).valid).toBe(true);
  });

  it('rejects forged codes: the old browser code, other keys, other participants, guesses', async () => {
    const member = await completedMember();
    const issued = PanelCompletionSchema.parse(json(await complete(member, 'acme', 'p-42')));

    // Anyone could compute the old code from the link's public values: it no longer passes.
    expect((await check('acme', 'p-42', browserCode(gid, 'acme', 'p-42'))).valid).toBe(false);
    expect((await check('acme', 'p-42', browserCode(gid, 'acme', 'p-42', 12))).valid).toBe(false);
    expect((await check('acme', 'p-42', wrongKeyCode(gid, 'acme', 'p-42'))).valid).toBe(false);
    // The real code, claimed by another participant, for another panel or another survey.
    expect((await check('acme', 'p-43', issued.code)).valid).toBe(false);
    expect((await check('other-panel', 'p-42', issued.code)).valid).toBe(false);
    const [otherSurvey] = await database.db
      .select({ gid: surveys.gid })
      .from(surveys)
      .where(eq(surveys.slug, 'consent'));
    expect((await check('acme', 'p-42', issued.code, otherSurvey!.gid)).valid).toBe(false);
    // 300 random guesses: none passes.
    for (let i = 0; i < 300; i++) {
      const guess = Array.from(crypto.randomBytes(12), (b) => ALPHABET[b & 31]).join('');
      expect((await check('acme', 'p-42', guess)).valid).toBe(false);
    }
    // The real one passes, typed loosely; its time comes with it.
    const typed = `${issued.code.slice(0, 4)}-${issued.code.slice(4, 8)} ${issued.code.slice(8)}`;
    const ok = await check('acme', 'p-42', typed.toLowerCase());
    expect(ok).toEqual({ valid: true, completed_at: issued.completed_at });

    // Only admins check codes.
    const body = { panel: 'acme', pid: 'p-42', code: issued.code };
    expect((await post(app, checkUrl(), body)).statusCode).toBe(401);
    expect((await post(app, checkUrl(), body, member)).statusCode).toBe(403);
    const moderator = await createMember(app, { role: 'moderator' });
    expect((await post(app, checkUrl(), body, moderator)).statusCode).toBe(403);
  });

  it('records one completion per respondent, survey and panel under concurrent bursts', async () => {
    const member = await completedMember();
    // 20 identical requests at once: one completion, one code, replayed to the rest.
    const same = await Promise.all(
      Array.from({ length: 20 }, () => complete(member, 'burst', 'b-1')),
    );
    expect(same.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(same.filter((r) => r.statusCode === 200)).toHaveLength(19);
    expect(new Set(same.map((r) => json(r).code)).size).toBe(1);

    // The same member claiming 10 other participant ids at once: all refused.
    const farmed = await Promise.all(
      Array.from({ length: 10 }, (_, i) => complete(member, 'burst', `b-${i + 2}`)),
    );
    expect(farmed.map((r) => r.statusCode)).toEqual(Array(10).fill(409));

    // Ten other members claiming one participant id at once: each is told what the first was
    // (refusing all but one told members whose id had completed), with the participant's one
    // code, so the panel still pays that participant once.
    const others = await Promise.all(Array.from({ length: 10 }, () => completedMember()));
    const shared = await Promise.all(others.map((m) => complete(m, 'burst', 'shared-pid')));
    expect(shared.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(shared.map((r) => json(r).code)).size).toBe(1);
    // Their second participant id is refused as the first member's was: their own completion.
    expect((await complete(others[0]!, 'burst', 'b-1')).statusCode).toBe(409);

    // Another panel is another completion.
    expect((await complete(member, 'other-burst', 'b-1')).statusCode).toBe(201);

    const burstRows = (await rows()).filter((r) => r.panel === 'burst');
    expect(burstRows).toHaveLength(11);
  });

  it("tells a member nothing about other accounts' completions: the oracle of issue 28", async () => {
    // Participant ids, half of them completed from other accounts; an attacker with a fresh,
    // fully answered account per probe claims each and reads every reply it can get.
    const ids = Array.from({ length: 12 }, (_, i) => `oracle-${i}`);
    const used = new Set(ids.filter((_, i) => i % 2 === 0));
    for (const pid of used) {
      const owner = await completedMember();
      expect((await complete(owner, 'oracle', pid)).statusCode).toBe(201);
    }
    const seen = async (pid: string) => {
      const probe = await completedMember();
      const first = await complete(probe, 'oracle', pid);
      const again = await complete(probe, 'oracle', pid);
      const other = await complete(probe, 'oracle', `${pid}-other`);
      const shape = (r: Awaited<typeof first>) => ({
        status: r.statusCode,
        keys: Object.keys(json(r)).sort(),
        message: json(r).message ?? null,
      });
      return JSON.stringify([shape(first), shape(again), shape(other)]);
    };
    const replies = new Map<string, string>();
    for (const pid of ids) replies.set(pid, await seen(pid));
    // The old replies parted used ids (409, "already completed ... from another account") from
    // unused ones (201): 12 of 12. Now every id gets the same three replies: 201, 200, 409.
    const distinct = new Set(replies.values());
    expect([...distinct], 'replies differ between completed and free ids').toHaveLength(1);
    const statuses = (JSON.parse([...distinct][0]!) as Array<{ status: number }>).map(
      (r) => r.status,
    );
    expect(statuses).toEqual([201, 200, 409]);
  }, 120_000);

  it("issues the code to the survey's credential, with no session, once its receipts cover every question", async () => {
    const member = await createMember(app);
    const credential = await obtainCredential(app, member.token, gid);
    const withCredential = (panel: string, pid: string, extra: Record<string, string> = {}) =>
      post(
        app,
        completionUrl(),
        { panel, pid },
        { headers: { 'candor-credential': credential, ...extra } },
      );
    for (const upTo of [0, asked.length - 1]) {
      for (const q of asked.slice(0, upTo)) {
        expect((await redeem(app, q.qid, credential, q.body)).statusCode).toBeLessThan(300);
      }
      const early = await withCredential('cred-panel', 'c-1');
      expect(early.statusCode, early.body).toBe(409);
      expect(json(early).code).toBe('NOT_ANSWERED');
    }
    const last = asked[asked.length - 1]!;
    expect((await redeem(app, last.qid, credential, last.body)).statusCode).toBe(201);
    // The answers still wait to be mixed: the receipts alone prove them.
    const done = await withCredential('cred-panel', 'c-1');
    expect(done.statusCode, done.body).toBe(201);
    const completion = PanelCompletionSchema.parse(json(done));
    expect((await check('cred-panel', 'c-1', completion.code)).valid).toBe(true);
    // Replayed: the same code; another participant id from the same credential: refused.
    const again = await withCredential('cred-panel', 'c-1');
    expect([again.statusCode, json(again).code]).toEqual([200, completion.code]);
    expect((await withCredential('cred-panel', 'c-2')).statusCode).toBe(409);

    // The session alone gets no code: it is refused before anything is read.
    const bySession = await post(app, completionUrl(), { panel: 'cred-panel', pid: 'c-3' }, member);
    expect([bySession.statusCode, json(bySession).code]).toEqual([401, 'CREDENTIAL_REQUIRED']);
    // A credential beside the session would name the account: refused, nothing recorded.
    const both = await withCredential('cred-panel', 'c-4', {
      authorization: `Bearer ${member.token}`,
    });
    expect(both.statusCode).toBe(400);
    // Another survey's credential, or a forged one, completes nothing here.
    const [consent] = await database.db
      .select({ gid: surveys.gid })
      .from(surveys)
      .where(eq(surveys.slug, 'consent'));
    const foreign = await obtainCredential(app, member.token, consent!.gid);
    const [prepared] = credential.split('.');
    for (const header of [foreign, `${prepared}.${Buffer.alloc(256).toString('base64url')}`]) {
      const res = await post(
        app,
        completionUrl(),
        { panel: 'cred-panel', pid: 'c-5' },
        { headers: { 'candor-credential': header } },
      );
      expect(res.statusCode, res.body).toBe(403);
      expect(json(res).code).toBe('CREDENTIAL_INVALID');
    }

    // The stored completion holds neither the credential nor the tag its answers carry.
    const stored = (await rows()).filter((r) => r.panel === 'cred-panel');
    expect(stored).toHaveLength(1);
    const text = JSON.stringify(stored);
    const tag = credentialTag(Buffer.from(prepared!, 'base64url'));
    for (const secret of [prepared!, credential.split('.')[1]!, tag, tag.slice(5), member.uuid]) {
      expect(text).not.toContain(secret);
    }
  });

  it('keeps and publishes the day of a completion, never its time', async () => {
    const before = new Date();
    const member = await completedMember();
    const done = PanelCompletionSchema.parse(json(await complete(member, 'day-panel', 'd-1')));
    // Midnight UTC of the day it happened (today, or yesterday if the test ran over midnight).
    const days = [before, new Date()].map((d) => `${d.toISOString().slice(0, 10)}T00:00:00.000Z`);
    expect(days).toContain(done.completed_at);
    // Replayed, checked by staff, counted, exported, stored: the day alone, everywhere.
    const again = PanelCompletionSchema.parse(json(await complete(member, 'day-panel', 'd-1')));
    expect(again.completed_at).toBe(done.completed_at);
    expect((await check('day-panel', 'd-1', done.code)).completed_at).toBe(done.completed_at);
    const counts = PanelCompletionCountsSchema.parse(
      json(await get(app, `/api/v1/admin/surveys/${gid}/panel-completions/`, admin)),
    );
    expect(counts.panels.find((p) => p.panel === 'day-panel')?.last_completed_at).toBe(
      done.completed_at,
    );
    const csv = await get(app, `/api/v1/admin/surveys/${gid}/panel-completions.csv`, admin);
    const line = csv.body.split('\r\n').find((l) => l.startsWith('"day-panel",'));
    expect(line).toBe(`"day-panel","${done.code}","${done.completed_at.slice(0, 10)}"`);
    const [row] = (await rows()).filter((r) => r.panel === 'day-panel');
    expect(row!.completedAt.toISOString()).toBe(done.completed_at);
  });

  it('keeps no answer, participant id or account in the table', async () => {
    const member = await completedMember();
    await complete(member, 'privacy-panel', 'visible-pid-123');
    const stored = (await rows()).filter((r) => r.panel === 'privacy-panel');
    expect(stored).toHaveLength(1);
    const text = JSON.stringify(stored);
    expect(text).not.toContain('visible-pid-123');
    expect(text).not.toContain(member.uuid);
    for (const q of asked) expect(text).not.toContain(Object.values(q.body)[0]);
    expect(Object.keys(stored[0]!).sort()).toEqual(
      ['code', 'completedAt', 'id', 'panel', 'participantHash', 'respondentKey', 'surveyId'].sort(),
    );
  });

  it('shows operators the completions per panel and exports them as CSV (audited)', async () => {
    const [survey] = await database.db
      .select({ gid: surveys.gid })
      .from(surveys)
      .where(eq(surveys.slug, 'time-travel'));
    for (const [panel, pid] of [
      ['count-a', '1'],
      ['count-a', '2'],
      ['count-b', '1'],
      ['=HYPERLINK("x")', '1'],
    ] as const) {
      const member = await completedMember();
      expect((await complete(member, panel, pid)).statusCode).toBe(201);
    }
    const countsUrl = `/api/v1/admin/surveys/${survey!.gid}/panel-completions/`;
    const counts = PanelCompletionCountsSchema.parse(
      json(await get(app, countsUrl, { token: admin.token })),
    );
    const byPanel = Object.fromEntries(counts.panels.map((p) => [p.panel, p.completions]));
    expect(byPanel['count-a']).toBe(2);
    expect(byPanel['count-b']).toBe(1);
    expect(counts.total).toBe(counts.panels.reduce((n, p) => n + p.completions, 0));

    const csvUrl = `/api/v1/admin/surveys/${survey!.gid}/panel-completions.csv`;
    const csv = await get(app, csvUrl, { token: admin.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('"panel","completion_code","completed_on"');
    expect(lines).toHaveLength(counts.total + 1);
    expect(lines.filter((l) => l.startsWith('"count-a",'))).toHaveLength(2);
    // A formula-like panel name stays text in a spreadsheet.
    expect(csv.body).toContain(`"'=HYPERLINK(""x"")"`);
    for (const q of asked) expect(csv.body).not.toContain(Object.values(q.body)[0]);

    const log = AuditEntryListSchema.parse(
      json(await get(app, '/api/v1/admin/audit-log/?page_size=1', { token: admin.token })),
    );
    expect(log.results[0]).toMatchObject({
      action: 'results.export',
      target: `survey:${survey!.gid}`,
      details: { format: 'panel-csv' },
    });

    const member = await createMember(app);
    for (const url of [countsUrl, csvUrl]) {
      expect((await get(app, url)).statusCode).toBe(401);
      expect((await get(app, url, member)).statusCode).toBe(403);
    }
    const unknown = crypto.randomUUID();
    expect(
      (await get(app, `/api/v1/admin/surveys/${unknown}/panel-completions/`, admin)).statusCode,
    ).toBe(404);
  });
});
