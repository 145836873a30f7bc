import crypto from 'node:crypto';
import { count } from 'drizzle-orm';
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
    expect(made.some((r) => /female|male|\bGB\b|\bUS\b/.test(r.profile))).toBe(false);
    expect(openProfile(profileKey, made[0]!.profile).ageBand).toMatch(/^\d\d-\d\d|65\+$/);
    // A second start adds nothing.
    expect(await seedSampleAnswers(database.db, { profileKey })).toEqual({ respondentsAdded: 0 });
  });
});
