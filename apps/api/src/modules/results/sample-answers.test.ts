import crypto from 'node:crypto';
import { count, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { questionTallies, questions } from '../../db/schema.js';
import { seedSampleAnswers } from '../../db/seed/sample-answers.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { createResultsRepository } from './results.repository.js';
import { createResultsService } from './results.service.js';

describe.each(engines)('sample answers in the results on %s', (engine) => {
  let database: Database;
  const profileKey = crypto.randomBytes(32);

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
  });

  afterAll(async () => {
    await closeAll(database);
  });

  it('publishes the sample answers at the next tick', async () => {
    await seedSampleAnswers(database.db, { profileKey });
    const [{ n: questionCount }] = (await database.db.select({ n: count() }).from(questions)) as [
      { n: number },
    ];
    // One tick folds them all and ends every question's first period (far past its threshold).
    const results = createResultsService(createResultsRepository(database.db), {
      surveys: { findListed: async () => undefined, findQuestion: async () => undefined },
      profileKey,
      refreshSeconds: 0,
    });
    const released = await results.tick();
    expect(released).toHaveLength(questionCount);
    expect(
      await database.db.select().from(questionTallies).where(isNull(questionTallies.snapshot)),
    ).toEqual([]);
  });
});
