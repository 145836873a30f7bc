// PRODUCT.md: staff see phone numbers masked; a whole number is shown only after an explicit,
// audited act. Replayed through the real API as an attacker with a staff account would try it:
// every staff route's answer is scanned for the digits of the numbers in the database.
import {
  AdminUserListSchema,
  AuditEntryListSchema,
  RevealedNumberSchema,
  maskPhoneNumber,
} from '@candor/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { auditLog, questions, surveys } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { createMember, get, json, post, send } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { REVEALS_PER_HOUR } from './users.service.js';

type Person = Awaited<ReturnType<typeof createMember>>;

describe.each(engines)('staff see numbers masked, on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: Person;
  let moderator: Person;
  let member: Person;
  let held: Person;
  let approved: Person;
  const people = () => [admin, moderator, member, held, approved];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    app = await createTestApp(database, { resultsRefreshSeconds: 0 });
    admin = await createMember(app, { role: 'admin' });
    moderator = await createMember(app, { role: 'moderator' });
    member = await createMember(app);
    held = await createMember(app, { status: 'under_review' });
    approved = await createMember(app, { status: 'under_review' });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  /**
   * What of a seeded number an answer gives away: its national digits (the whole number but
   * for the country code), as written or with separators between them.
   */
  function leaks(res: LightMyRequestResponse): string[] {
    const body = res.body;
    const squeezed = body.replace(/[\s().-]/g, '');
    return people()
      .map((p) => p.phone.slice(2))
      .filter((national) => body.includes(national) || squeezed.includes(national));
  }

  async function auditEntries() {
    return AuditEntryListSchema.parse(
      json(await get(app, '/api/v1/admin/audit-log/?page_size=100', { token: admin.token })),
    ).results;
  }

  it("gives a moderator's and an admin's every list, search, export and action no whole number", async () => {
    const seen: string[] = [];
    const scan = (what: string, res: LightMyRequestResponse) => {
      // Answered, refused for the role, or a search for part of a number refused (numbers are
      // sealed): never a session that ended, which would show nothing.
      expect([200, 201, 204, 400, 403, 404], `${what}: ${res.body.slice(0, 200)}`).toContain(
        res.statusCode,
      );
      for (const leaked of leaks(res)) seen.push(`${what} shows ${leaked}`);
    };
    // Staff actions first, so the queues, the audit log and its labels name these accounts.
    const as = (who: Person) => ({ token: who.token });
    const actions: Array<[string, string, Person]> = [
      [`/api/v1/admin/users/${member.uuid}/suspend/`, '{}', admin],
      [`/api/v1/admin/users/${member.uuid}/unsuspend/`, '{}', admin],
      [`/api/v1/admin/users/${member.uuid}/role/`, '{"role":"member"}', admin],
      [
        `/api/v1/admin/users/${(await createMember(app, { role: 'moderator' })).uuid}/second-factor/reset/`,
        '{}',
        admin,
      ],
      [`/api/v1/admin/signups/${approved.uuid}/approve/`, '{}', moderator],
      [`/api/v1/admin/signups/${crypto.randomUUID()}/reject/`, '{}', moderator],
    ];
    for (const [url, body, who] of actions) {
      scan(`POST ${url}`, await post(app, url, JSON.parse(body), as(who)));
    }

    // Every GET route of the staff area, with ids that name something.
    const [question] = await database.db
      .select({ qid: questions.qid, gid: surveys.gid })
      .from(questions)
      .innerJoin(surveys, eq(surveys.id, questions.surveyId))
      .where(eq(surveys.slug, 'taboos'))
      .limit(1);
    const doc = app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const urls: string[] = [];
    for (const [pattern, methods] of Object.entries(doc.paths)) {
      if (!pattern.startsWith('/api/v1/admin/') || !('get' in methods)) continue;
      urls.push(
        pattern
          .replace('{gid}', question!.gid)
          .replace('{qid}', question!.qid)
          .replace('{uuid}', member.uuid)
          .replace('{id}', '1'),
      );
    }
    expect(urls).toEqual(
      expect.arrayContaining([
        '/api/v1/admin/users/',
        '/api/v1/admin/signups/',
        '/api/v1/admin/audit-log/',
        '/api/v1/admin/audit-log/actors/',
        `/api/v1/admin/surveys/${question!.gid}/export.csv`,
      ]),
    );
    // The lists filtered: by each account, by actor, and searched by every prefix of a number
    // short of the whole one.
    urls.push(
      `/api/v1/admin/audit-log/?actor=${admin.uuid}`,
      `/api/v1/admin/audit-log/?action=user.suspend`,
      '/api/v1/admin/signups/?page_size=100',
      '/api/v1/admin/users/?page_size=100',
    );
    const prefixes = people().flatMap((p) =>
      Array.from({ length: p.phone.length - 2 }, (_, i) => p.phone.slice(1, 2 + i)),
    );
    for (const who of [moderator, admin]) {
      const role = who === admin ? 'admin' : 'moderator';
      for (const url of urls) scan(`${role} GET ${url}`, await get(app, url, as(who)));
      for (const phone of prefixes) {
        scan(
          `${role} search ${phone}`,
          await post(app, '/api/v1/admin/users/search/', { phone, page_size: 100 }, as(who)),
        );
      }
    }
    expect(seen).toEqual([]);

    // The users list still tells people apart: masked, as in the signup queue and the log.
    const all = AdminUserListSchema.parse(
      json(await get(app, '/api/v1/admin/users/?page_size=100', as(admin))),
    );
    const mine = all.results.find((u) => u.uuid === member.uuid)!;
    expect(mine).toMatchObject({
      phone_number: maskPhoneNumber(member.phone),
      phone_whole: false,
    });
    expect(mine.phone_number).toMatch(/^\+1 ••• ••• •\d{3}$/);
  });

  it('says in the OpenAPI document that phone_number is masked, and documents the reveal', () => {
    const doc = JSON.stringify(app.swagger());
    expect(doc).toContain(
      'Masked (\\"+44 ••• ••• •123\\"): the country code and the last 3 digits',
    );
    expect(doc).toContain('/api/v1/admin/users/{uuid}/reveal-number/');
    expect(doc).toContain('user.number_revealed');
  });

  it('shows the whole number to an admin who searched for exactly it, and only that one', async () => {
    const search = (phone: string) =>
      post(app, '/api/v1/admin/users/search/', { phone }, { token: admin.token });
    const whole = AdminUserListSchema.parse(json(await search(member.phone)));
    expect(whole.results).toEqual([
      expect.objectContaining({ uuid: member.uuid, phone_number: member.phone, phone_whole: true }),
    ]);
    // One digit short is another number: numbers are sealed and found by a keyed hash of the
    // whole, so no prefix narrows the accounts (crypto-shredding, issue 28).
    const prefix = AdminUserListSchema.parse(json(await search(member.phone.slice(1, -1))));
    expect(prefix.results).toEqual([]);
  });

  it('reveals a whole number for a reason, with an audit entry naming who, whose and why', async () => {
    const reason = 'Support ticket 4411: they cannot log in';
    const res = await post(
      app,
      `/api/v1/admin/users/${held.uuid}/reveal-number/`,
      { reason: `  ${reason} ` },
      { token: admin.token },
    );
    expect(res.statusCode).toBe(200);
    expect(RevealedNumberSchema.parse(json(res))).toEqual({
      uuid: held.uuid,
      phone_number: held.phone,
    });
    const [entry] = await auditEntries();
    expect(entry).toMatchObject({
      actor: admin.uuid,
      actor_role: 'admin',
      action: 'user.number_revealed',
      target: `user:${held.uuid}`,
      target_label: maskPhoneNumber(held.phone),
      details: { reason },
    });
    // Even the log of a reveal keeps the number masked.
    expect(JSON.stringify(entry)).not.toContain(held.phone.slice(2));
  });

  it('refuses a reveal without a reason, of nobody, or to anyone but an admin, and logs none of them', async () => {
    const before = (await auditEntries()).length;
    const url = `/api/v1/admin/users/${held.uuid}/reveal-number/`;
    const noReason = await post(app, url, {}, { token: admin.token });
    expect(noReason.statusCode).toBe(400);
    expect(json(noReason)).toEqual({ reason: ['Say why you need the whole number.'] });
    const blank = await post(app, url, { reason: '   ' }, { token: admin.token });
    expect(json(blank)).toEqual({ reason: ['Say why you need the whole number.'] });
    const long = await post(app, url, { reason: 'x'.repeat(201) }, { token: admin.token });
    expect(json(long)).toEqual({ reason: ['Keep the reason under 200 characters.'] });
    const nobody = await post(
      app,
      `/api/v1/admin/users/${crypto.randomUUID()}/reveal-number/`,
      { reason: 'Support' },
      { token: admin.token },
    );
    expect(nobody.statusCode).toBe(404);
    const garbage = await post(
      app,
      '/api/v1/admin/users/not-a-uuid/reveal-number/',
      { reason: 'Support' },
      { token: admin.token },
    );
    expect(garbage.statusCode).toBe(404);
    const asModerator = await post(app, url, { reason: 'Support' }, { token: moderator.token });
    expect(asModerator.statusCode).toBe(403);
    // A fresh member: the first test's suspension ended `member`'s sessions.
    const someone = await createMember(app);
    const asMember = await post(app, url, { reason: 'Support' }, { token: someone.token });
    expect(asMember.statusCode).toBe(403);
    const asVisitor = await send(app, 'POST', url, { reason: 'Support' });
    expect(asVisitor.statusCode).toBe(401);
    for (const res of [noReason, nobody, asModerator, asMember, asVisitor]) {
      expect(res.body).not.toContain(held.phone.slice(2));
    }
    expect((await auditEntries()).length).toBe(before);
  });

  it('writes the audit entry in the same transaction: no entry, no number', async () => {
    // The log refuses this reveal's entry: the number must not go out without it.
    await database.db.execute(sql`
      create function refuse_reveal() returns trigger language plpgsql as $$
      begin
        if new.action = 'user.number_revealed' then raise exception 'audit refused'; end if;
        return new;
      end $$`);
    await database.db.execute(sql`
      create trigger refuse_reveal before insert on audit_log
      for each row execute function refuse_reveal()`);
    try {
      const res = await post(
        app,
        `/api/v1/admin/users/${member.uuid}/reveal-number/`,
        { reason: 'Checking the audit' },
        { token: admin.token },
      );
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain(member.phone.slice(2));
    } finally {
      await database.db.execute(sql`drop trigger refuse_reveal on audit_log`);
      await database.db.execute(sql`drop function refuse_reveal()`);
    }
    const rows = await database.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'user.number_revealed'),
          eq(auditLog.target, `user:${member.uuid}`),
        ),
      );
    expect(rows).toEqual([]);
  });

  it(`allows an admin ${REVEALS_PER_HOUR} reveals an hour, then refuses with Retry-After`, async () => {
    const busy = await createMember(app, { role: 'admin' });
    const targets = await Promise.all(
      Array.from({ length: REVEALS_PER_HOUR + 1 }, () => createMember(app)),
    );
    const reveal = (target: Person) =>
      post(
        app,
        `/api/v1/admin/users/${target.uuid}/reveal-number/`,
        { reason: 'Bulk lookup' },
        { token: busy.token },
      );
    // Two at once still count each other.
    const first = await Promise.all(targets.slice(0, REVEALS_PER_HOUR).map(reveal));
    expect(first.map((r) => r.statusCode)).toEqual(Array(REVEALS_PER_HOUR).fill(200));
    const refused = await reveal(targets.at(-1)!);
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(refused.body).not.toContain(targets.at(-1)!.phone.slice(2));
    const logged = (await auditEntries()).filter(
      (e) => e.actor === busy.uuid && e.action === 'user.number_revealed',
    );
    expect(logged.length).toBe(REVEALS_PER_HOUR);
    // Another admin's allowance is their own.
    const other = await post(
      app,
      `/api/v1/admin/users/${targets.at(-1)!.uuid}/reveal-number/`,
      { reason: 'Support' },
      { token: admin.token },
    );
    expect(other.statusCode).toBe(200);
  });
});
