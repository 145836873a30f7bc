/**
 * A thief with a copy of the database and no secrets, reading the only thing a sealed value
 * shows: its length (issue 28). Unpadded, the sealed profile's length gave every respondent's
 * gender class (130 of 130), and a question's sealed pending counts grew with what each answer
 * added (a new cell, the length of a new word).
 */
import { AdminSurveySchema } from '@candor/contracts';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { questions, respondents } from '../../db/schema.js';
import { deriveProfileKey } from '../../lib/keys.js';
import { openProfile } from '../../lib/profile-seal.js';
import { createMember, json, post } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { memberDevice } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

const ADMIN = '/api/v1/admin';
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const GENDERS = ['female', 'male', 'non_binary', 'other', 'undisclosed'] as const;
/** Age bands from the shortest to the longest label, and a few countries. */
const YEARS = [2008, 1990, 1970, 1950];
const COUNTRIES = ['US', 'GB', 'DE', 'BR'];

describe.each(engines)('sealed values tell nothing by their length on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { token: string };
  const secrets = testSecrets();

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    // No background loop: the test folds by hand and reads each pending write.
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

  /** A published survey of one closed and one open question: their qids and ids. */
  async function survey() {
    const staff = { token: admin.token };
    const created = await post(
      app,
      `${ADMIN}/surveys/`,
      {
        name: 'Lengths',
        author: 'Candor team',
        cover_headline: 'Sealed lengths',
        intro_screen_text: 'Honest answers.',
        outro_screen_text: 'Thanks.',
        variant: 'v1_large',
        release_date: new Date(Date.now() - 60_000).toISOString(),
      },
      staff,
    );
    const { gid } = AdminSurveySchema.parse(json(created));
    await post(
      app,
      `${ADMIN}/surveys/${gid}/questions/`,
      {
        type: 'Closed',
        question: 'Yes or no?',
        choices: ['Yes', 'No'],
        randomise_answers: false,
        timer_seconds: 0,
      },
      staff,
    );
    const last = AdminSurveySchema.parse(
      json(
        await post(
          app,
          `${ADMIN}/surveys/${gid}/questions/`,
          { type: 'Open', question: 'In your words?', max_length: 500 },
          staff,
        ),
      ),
    );
    await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, staff);
    const qids = last.questions.map((q) => q.qid);
    const rows = await database.db
      .select({ id: questions.id, qid: questions.qid })
      .from(questions)
      .where(inArray(questions.qid, qids));
    return qids.map((qid) => ({ qid, id: rows.find((r) => r.qid === qid)!.id }));
  }

  it('gives every respondent profile one stored length, whatever the gender, age or country', async () => {
    const [closed] = await survey();
    // Ten holders of the survey's credential in each country first, so the stored profiles
    // name the countries (COUNTRY_K) rather than all saying `other`.
    for (const country of COUNTRIES) {
      for (let i = 0; i < 10; i++) {
        await memberDevice(app, await createMember(app, { country })).credentialOf(closed!.qid);
      }
    }
    const genderOf = new Map<string, string>();
    for (const [i, gender] of [...GENDERS, ...GENDERS].entries()) {
      const m = await createMember(app, {
        gender,
        yearOfBirth: YEARS[i % YEARS.length]!,
        country: COUNTRIES[i % COUNTRIES.length]!,
      });
      const res = await memberDevice(app, m).answerNow(closed!.qid, { choice: 'Yes' });
      expect(res.statusCode, res.body).toBe(201);
      genderOf.set(m.uuid, gender);
    }
    // The thief's view: the stored profiles, grouped by length.
    const stored = await database.db.select({ profile: respondents.profile }).from(respondents);
    expect(stored).toHaveLength(10);
    const lengths = new Set(stored.map((r) => r.profile.length));
    expect([...lengths]).toHaveLength(1);
    // And they differ in what they hold: every country was stored, not only `other`.
    const countries = stored.map((r) => openProfile(deriveProfileKey(secrets), r.profile).country);
    expect(new Set(countries)).toEqual(new Set(COUNTRIES));
  });

  it("keeps a question's sealed pending counts at one length while answers with new words come in", async () => {
    const [, open] = await survey();
    const texts = [
      'Honestly nothing',
      'I would buy a sailboat and disappear for a summer somewhere quiet',
      'Pay off the mortgage',
      'Extraordinarily unremarkable circumstances notwithstanding, investments',
      '',
      'Travel',
    ];
    const lengths: number[] = [];
    for (const [i, text] of texts.entries()) {
      const m = await createMember(app, { gender: GENDERS[i % GENDERS.length]! });
      const res = await memberDevice(app, m).answerNow(open!.qid, { text });
      expect(res.statusCode, res.body).toBe(201);
      while ((await app.results.fold()) > 0) {
        // Until the queue is empty.
      }
      const rows = await database.db.execute(
        sql`select pending->>'sealed' as sealed, (pending->>'events')::int as events
            from question_tallies where question_id = ${open!.id}`,
      );
      const [row] = rowsOf<{ sealed: string | null; events: number }>(rows);
      // Each answer was folded into the open period, which is still open.
      expect(row?.events).toBe(i + 1);
      lengths.push(row!.sealed!.length);
    }
    expect(new Set(lengths).size).toBe(1);
  });
});
