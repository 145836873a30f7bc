import type { CredentialKey, CredentialResponse } from '@candor/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { deriveProfileKey, derivePseudonymKey, hmacHex } from '../../lib/keys.js';
import { openProfile } from '../../lib/profile-seal.js';
import { createMember, get, json, post } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { blindForTest } from '../../test/blinding.js';
import { type ReleasedSurvey, memberDevice, releasedSurveys } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { writeOldWay } from '../../test/old-way.js';
import { severOldRespondents } from './sever.js';

/**
 * Severing the old way's respondents (decision 020, slice 5): the operator holds the database,
 * a `pg_dump` (rows in their physical order) and every secret, the pseudonym key included.
 * Before the step they name every old member (the pseudonym key) and most by write order alone;
 * after it, nothing names one above chance, and every answer still counts once.
 */
const OLD_MEMBERS = 20;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

describe.each(engines)('severing the old way of answering, on %s', (engine) => {
  let database: Database;
  let app: App;
  const secrets = testSecrets();
  const keys = { pseudonymKey: derivePseudonymKey(secrets), profileKey: deriveProfileKey(secrets) };
  let a: ReleasedSurvey;
  let b: ReleasedSurvey;
  /** In the order they answered; each answered survey A with a sheet no one else gave. */
  const old: Array<{ uuid: string; token: string; sheet: string; answeredB: boolean }> = [];
  const suspended: Array<{ uuid: string }> = [];

  /** Every answer with its respondent, in the order a copy lists them. */
  async function answerRows() {
    const order = engine === 'postgres' ? 'a.xmin::text::bigint, a.ctid' : 'a.ctid';
    return rowsOf<{
      pseudonym: string;
      profile: string;
      question_id: number;
      choice_id: number | null;
      survey_id: number;
      answered_on: string;
      idempotency_key: string | null;
    }>(
      await database.db.execute(
        sql.raw(`select r.pseudonym, r.profile, a.question_id, a.choice_id, q.survey_id,
                   a.answered_on::text as answered_on, a.idempotency_key
                 from answers a join respondents r on r.id = a.respondent_id
                 join questions q on q.id = a.question_id order by ${order}`),
      ),
    );
  }

  /** Per question and choice, how many answers of counting respondents (what folds count). */
  async function countingTally() {
    return rowsOf<{ question_id: number; choice_id: number | null; n: number }>(
      await database.db.execute(sql`
        select a.question_id, a.choice_id, count(*)::int as n from answers a
        join respondents r on r.id = a.respondent_id and r.standing = 'counting'
        group by 1, 2 order by 1, 2`),
    );
  }

  /**
   * The write-order attack: the k-th respondent of survey A that a copy lists (by first row) is
   * taken for the k-th member to answer. Returns how many that names rightly: each member's
   * sheet of A is one nobody else gave, which tells the test (never the attacker) whose it is.
   */
  async function rightByOrder(): Promise<number> {
    const rows = (await answerRows()).filter(
      (r) => r.survey_id === a.id && !r.pseudonym.startsWith('cred:'),
    );
    const labelOf = new Map(
      rowsOf<{ id: number; label: string }>(
        await database.db.execute(sql`select id, label from choices`),
      ).map((c) => [c.id, c.label]),
    );
    const first: string[] = [];
    const sheets = new Map<string, Map<number, string>>();
    for (const r of rows) {
      if (!sheets.has(r.pseudonym)) first.push(r.pseudonym);
      sheets.set(
        r.pseudonym,
        (sheets.get(r.pseudonym) ?? new Map<number, string>()).set(
          r.question_id,
          labelOf.get(r.choice_id!)!,
        ),
      );
    }
    // Before the step, the two suspended members' respondents come last (they answered last).
    expect(first.length).toBeGreaterThanOrEqual(OLD_MEMBERS);
    const sheetOf = (p: string) =>
      a.questions
        .slice(0, 3)
        .map((q) => sheets.get(p)!.get(q.id))
        .join('|');
    return first.slice(0, OLD_MEMBERS).filter((p, k) => sheetOf(p) === old[k]!.sheet).length;
  }

  /** Per question and kind, what of counting respondents waits to be counted. */
  async function queued() {
    return rowsOf<{ question_id: number; kind: string; n: number }>(
      await database.db.execute(sql`
        select rq.question_id, rq.kind::text, count(*)::int as n from results_queue rq
        join respondents r on r.id = rq.respondent_id and r.standing = 'counting'
        where rq.kind <> 'timing' group by 1, 2 order by 1, 2`),
    );
  }

  async function issue(token: string, s: ReleasedSurvey) {
    const key = json<CredentialKey>(await get(app, `/api/v1/surveys/${s.gid}/credential-key/`));
    const device = await blindForTest(Buffer.from(key.public_key, 'base64url'));
    const res = await post(
      app,
      '/api/v1/credentials/',
      { requests: [{ gid: s.gid, blinded_msg: device.blindedMsg.toString('base64url') }] },
      { token },
    );
    return json<CredentialResponse>(res);
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    const open = (await releasedSurveys(database.db)).filter(
      (s) => !s.closed && s.questions.length >= 3,
    );
    [a, b] = [open[0]!, open[1]!];
    app = await createTestApp(
      database,
      { resultsRefreshSeconds: 0, mixing: { minPeople: 1, maxWaitSeconds: 600 } },
      { secrets },
    );
    const [q0, q1, q2] = a.questions;
    // As the old path wrote them (no route takes an answer with a session any more): members
    // one after another, each a whole sheet of A, every other one B too, and a rating.
    for (let i = 0; i < OLD_MEMBERS; i++) {
      const m = await createMember(app);
      const picks = [i % 2, Math.floor(i / 2) % 2, Math.floor(i / 4) % 5].map(
        (k, j) => [q0!, q1!, q2!][j]!.labels[k % [q0!, q1!, q2!][j]!.labels.length]!,
      );
      const answeredB = i % 2 === 0;
      await writeOldWay(app, secrets, m.uuid, [
        ...[q0!, q1!, q2!].map((q, j) => ({
          qid: q.qid,
          choice: picks[j],
          key: `key-${i}-${j}`,
          ...(j === 0 ? { rating: i % 11 } : {}),
        })),
        ...(answeredB ? [{ qid: b.questions[0]!.qid, choice: b.questions[0]!.labels[0] }] : []),
      ]);
      old.push({ ...m, sheet: picks.join('|'), answeredB });
    }
    // Two accounts whose old answers do not count (suspended before they were approved).
    for (let i = 0; i < 2; i++) {
      const m = await createMember(app, { status: 'suspended' });
      await writeOldWay(app, secrets, m.uuid, [{ qid: q0!.qid, choice: q0!.labels[0] }]);
      suspended.push(m);
    }
    expect(new Set(old.map((m) => m.sheet)).size).toBe(OLD_MEMBERS);
    // And a member who answers with a credential: untouched by the step.
    await memberDevice(app, await createMember(app)).answerNow(q0!.qid, { choice: q0!.labels[1] });
  }, 120_000);

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('the old rows name every member before the step', async () => {
    const found = new Set((await answerRows()).map((r) => r.pseudonym));
    for (const m of old) expect(found).toContain(hmacHex(keys.pseudonymKey, m.uuid));
    // And write order alone, with no secret, names most of them.
    expect(await rightByOrder()).toBeGreaterThanOrEqual(OLD_MEMBERS - 2);
  });

  it('after it, neither the pseudonym key, write order, surveys nor the class names anyone', async () => {
    const tallyBefore = await countingTally();
    const queuedBefore = await queued();
    expect(queuedBefore.length).toBeGreaterThan(0);
    const fileBefore = rowsOf<{ f: number }>(
      await database.db.execute(sql`select pg_relation_filenode('answers') as f`),
    )[0]!.f;

    // The scrub (log switch, checkpoint) too where the server is a real PostgreSQL.
    const severed = await severOldRespondents(database, keys, { scrub: engine === 'postgres' });
    expect(severed).toEqual({
      old: OLD_MEMBERS + 2,
      // One respondent per old member and survey: A for all, B for every other one.
      respondents: OLD_MEMBERS + OLD_MEMBERS / 2,
      deleted: 2,
    });
    // Once: every later start finds nothing of the old way.
    expect(await severOldRespondents(database, keys)).toBeNull();

    // Every answer that counted still counts, once; the suspended ones are gone.
    expect(await countingTally()).toEqual(tallyBefore);
    const rows = await answerRows();
    expect(rows).toHaveLength(OLD_MEMBERS * 3 + OLD_MEMBERS / 2 + 1);
    // What waited to be counted still waits (under the new ids).
    expect(await queued()).toEqual(queuedBefore);

    // 1. The pseudonym key, applied to every account: no respondent is anyone's.
    const accounts = rowsOf<{ id: number; uuid: string; country: string }>(
      await database.db.execute(sql`select * from users`),
    );
    const pseudonyms = new Set(accounts.map((u) => hmacHex(keys.pseudonymKey, u.uuid)));
    const all = rowsOf<{ pseudonym: string }>(
      await database.db.execute(sql`select pseudonym from respondents`),
    );
    expect(all.filter((r) => pseudonyms.has(r.pseudonym))).toEqual([]);
    expect(all.every((r) => /^(cred|old):/.test(r.pseudonym))).toBe(true);

    // 2. Surveys: each severed respondent answered one survey, so the set of surveys an account
    // answered (the issuance markers say it) matches no respondent's.
    const oldRows = rows.filter((r) => r.pseudonym.startsWith('old:'));
    const surveysOf = new Map<string, Set<number>>();
    for (const r of oldRows)
      surveysOf.set(r.pseudonym, (surveysOf.get(r.pseudonym) ?? new Set()).add(r.survey_id));
    expect([...surveysOf.values()].every((s) => s.size === 1)).toBe(true);
    // The class beside them, opened with the key, is sealed afresh: no two respondents share
    // a stored profile, so it joins no respondent of A to one of B.
    const profiles = new Set(oldRows.map((r) => r.profile));
    expect(profiles.size).toBe(surveysOf.size);
    for (const p of profiles) {
      expect(openProfile(keys.profileKey, p)).toMatchObject({
        gender: 'undisclosed',
        country: 'US',
      });
    }

    // 3. Write order (a pg_dump's order; on PostgreSQL the transaction ids first): the k-th
    // respondent of A listed is the k-th member to answer. The sheet tells the test (never the
    // attacker) whose it is. Chance is one right (the fixed points of a random order); 7 or more
    // has a chance below 1e-4. Before the step, the order named 8 or more of 10 (unlinkable.test).
    const right = await rightByOrder();
    expect(right).toBeLessThan(7);
    // The table was rewritten, so no dead row of the old order is left in its file.
    const fileAfter = rowsOf<{ f: number }>(
      await database.db.execute(sql`select pg_relation_filenode('answers') as f`),
    )[0]!.f;
    expect(fileAfter).not.toBe(fileBefore);

    // 4. Dates to the month, no idempotency keys (a device's log could match them).
    for (const r of oldRows) {
      expect(r.answered_on.endsWith('-01')).toBe(true);
      expect(r.idempotency_key).toBeNull();
    }
  });

  it('issuance still refuses a survey an account answered the old way, and only that', async () => {
    for (const m of old.slice(0, 4)) {
      const forA = await issue(m.token, a);
      expect(forA.credentials).toEqual([]);
      expect(forA.refused.map((r) => r.code)).toEqual(['ALREADY_ANSWERED']);
      const forB = await issue(m.token, b);
      if (m.answeredB) expect(forB.refused.map((r) => r.code)).toEqual(['ALREADY_ANSWERED']);
      else expect(forB.credentials).toHaveLength(1);
    }
    // The API holds nothing of theirs any more: the mirror and the list are empty.
    const m = old[0]!;
    expect(json(await get(app, '/api/v1/user/mirror/', { token: m.token }))).toEqual({
      results: [],
    });
    expect(
      json(await get(app, '/api/v1/questions/my-attempted-questions/', { token: m.token })),
    ).toMatchObject({ count: 0, results: [] });
  });
});
