import crypto from 'node:crypto';
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProfile } from '../../lib/profile-seal.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import type { Database } from '../client.js';
import { answers, questions, respondents } from '../schema.js';
import { SAMPLE_PEOPLE, seedSampleAnswers } from './sample-answers.js';
import { seedSampleContent } from './seed.js';

// That the results publish these at their next tick is tested beside the results
// (modules/results/sample-answers.test.ts): db/ never imports a module.
describe.each(engines)('sample answers on %s', (engine) => {
  let database: Database;
  const profileKey = crypto.randomBytes(32);

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
  });

  afterAll(async () => {
    await closeAll(database);
  });

  it('answers every question with made-up people, counting and sealed, once', async () => {
    expect(await seedSampleAnswers(database.db, { profileKey })).toEqual({
      respondentsAdded: SAMPLE_PEOPLE,
    });
    const [{ n: questionCount }] = (await database.db.select({ n: count() }).from(questions)) as [
      { n: number },
    ];
    const [{ n: answerCount }] = (await database.db.select({ n: count() }).from(answers)) as [
      { n: number },
    ];
    expect(answerCount).toBe(questionCount * SAMPLE_PEOPLE);
    // Made up, counting, and sealed: no plaintext profile beside a respondent.
    const made = await database.db.select().from(respondents);
    expect(made.every((r) => r.pseudonym.startsWith('sample-'))).toBe(true);
    expect(made.every((r) => r.standing === 'counting')).toBe(true);
    // Sealed: every profile is the version and three base64url parts, it opens with the key and
    // not with another. (Searching the ciphertext for "US" or "male" would fail by chance: random
    // base64url spells them now and then.)
    expect(made.every((r) => /^v1(\.[A-Za-z0-9_-]+){3}$/.test(r.profile))).toBe(true);
    expect(openProfile(profileKey, made[0]!.profile).ageBand).toMatch(/^\d\d-\d\d|65\+$/);
    expect(() => openProfile(crypto.randomBytes(32), made[0]!.profile)).toThrow();
    // A second start adds nothing.
    expect(await seedSampleAnswers(database.db, { profileKey })).toEqual({ respondentsAdded: 0 });
  });

  it('draws a respondent id again when it was drawn twice, and keeps everyone', async () => {
    // Random ids over 2^31 collide about once in 27,000 seeds of 400; over 1,000 every one does.
    const small = await createTestDatabase(engine);
    try {
      await seedSampleContent(small.db);
      await small.db.execute(
        sql`alter table respondents alter column id set default (floor(random() * 1000) + 1)::int`,
      );
      expect(await seedSampleAnswers(small.db, { profileKey })).toEqual({
        respondentsAdded: SAMPLE_PEOPLE,
      });
      const [{ n }] = (await small.db.select({ n: count() }).from(answers)) as [{ n: number }];
      const [{ q }] = (await small.db.select({ q: count() }).from(questions)) as [{ q: number }];
      expect(n).toBe(q * SAMPLE_PEOPLE);
    } finally {
      await closeAll(small);
    }
  });
});
