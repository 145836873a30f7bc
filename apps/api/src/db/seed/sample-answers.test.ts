import { count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, engines } from '../../test/database.js';
import type { Database } from '../client.js';
import { answerCounts, answers, questionTallies, questions, respondents } from '../schema.js';
import { seedSampleAnswers } from './sample-answers.js';
import { seedSampleContent } from './seed.js';

describe.each(engines)('sample answers on %s', (engine) => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
  });

  afterAll(async () => {
    await database?.close();
  });

  it('answers every question with 60 made-up people, counted and published once', async () => {
    expect(await seedSampleAnswers(database.db)).toEqual({ respondentsAdded: 60 });
    const [{ n: questionCount }] = (await database.db.select({ n: count() }).from(questions)) as [
      { n: number },
    ];
    const [{ n: answerCount }] = (await database.db.select({ n: count() }).from(answers)) as [
      { n: number },
    ];
    expect(answerCount).toBe(questionCount * 60);
    // Counted: every question has 60 in its `all` counters and a published snapshot.
    const all = await database.db
      .select({ questionId: answerCounts.questionId, n: answerCounts.n })
      .from(answerCounts)
      .where(eq(answerCounts.dimension, 'all'));
    const perQuestion = new Map<number, number>();
    for (const r of all) perQuestion.set(r.questionId, (perQuestion.get(r.questionId) ?? 0) + r.n);
    expect(perQuestion.size).toBe(questionCount);
    expect([...perQuestion.values()].every((n) => n === 60)).toBe(true);
    expect(
      await database.db.select().from(questionTallies).where(isNull(questionTallies.snapshot)),
    ).toEqual([]);
    // No respondent of an account is made up: every pseudonym says it is a sample.
    const made = await database.db.select({ p: respondents.pseudonym }).from(respondents);
    expect(made.every((r) => r.p.startsWith('sample-'))).toBe(true);
    // A second start adds nothing.
    expect(await seedSampleAnswers(database.db)).toEqual({ respondentsAdded: 0 });
  });
});
