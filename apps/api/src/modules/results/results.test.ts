import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { answerCounts, answers, choices, questions, surveys } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { createMember, post } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { createTestDatabase, engines } from '../../test/database.js';
import { ageBand } from '../respondents/respondents.service.js';
import { createResultsRepository } from './results.repository.js';

describe('age bands', () => {
  it('bands the age reached in the current year', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(ageBand(2008, now)).toBe('18-24');
    expect(ageBand(2002, now)).toBe('18-24');
    expect(ageBand(2001, now)).toBe('25-34');
    expect(ageBand(1982, now)).toBe('35-44');
    expect(ageBand(1972, now)).toBe('45-54');
    expect(ageBand(1962, now)).toBe('55-64');
    expect(ageBand(1961, now)).toBe('65+');
    expect(ageBand(2010, now)).toBe('under-18');
  });
});

describe.each(engines)('folding answers into counts on %s', (engine) => {
  let database: Database;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    // Results refreshed only when asked: the test folds by hand.
    app = await createTestApp(database, { resultsRefreshSeconds: 3600 });
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('counts every answer exactly once under concurrent folds, with the breakdowns', async () => {
    const [q] = await database.db
      .select({ id: questions.id, qid: questions.qid })
      .from(questions)
      .innerJoin(surveys, eq(surveys.id, questions.surveyId))
      .where(and(eq(surveys.slug, 'sex'), eq(questions.position, 1)));
    const labels = (
      await database.db
        .select({ label: choices.label })
        .from(choices)
        .where(eq(choices.questionId, q!.id))
        .orderBy(asc(choices.position))
    ).map((c) => c.label);
    const repo = createResultsRepository(database.db);
    const genders = ['female', 'male', 'non_binary'] as const;
    const total = 30;
    const folds: Array<Promise<void>> = [];
    for (let i = 0; i < total; i++) {
      const { token } = await createMember(app, {
        gender: genders[i % 3],
        yearOfBirth: i % 2 ? 1990 : 1960,
        country: i % 5 ? 'US' : 'GB',
      });
      const res = await post(
        app,
        `/api/v1/questions/${q!.qid}/answer/`,
        { choice: labels[i % labels.length] },
        { token },
      );
      expect(res.statusCode).toBe(201);
      // Folds race the answers and each other, as several API processes would.
      if (i % 4 === 0) folds.push(repo.fold(q!.id), repo.fold(q!.id));
    }
    await Promise.all(folds);
    await Promise.all([repo.fold(q!.id), repo.fold(q!.id), repo.fold(q!.id)]);

    const rows = await database.db
      .select()
      .from(answerCounts)
      .where(eq(answerCounts.questionId, q!.id));
    const sum = (dimension: string) =>
      rows.filter((r) => r.dimension === dimension).reduce((n, r) => n + r.n, 0);
    for (const dimension of ['all', 'gender', 'age', 'country']) {
      expect(sum(dimension), dimension).toBe(total);
    }
    expect(
      rows
        .filter((r) => r.dimension === 'gender' && r.bucket === 'male')
        .reduce((n, r) => n + r.n, 0),
    ).toBe(10);
    expect(
      rows
        .filter((r) => r.dimension === 'country' && r.bucket === 'GB')
        .reduce((n, r) => n + r.n, 0),
    ).toBe(6);
    const stored = await database.db.select().from(answers).where(eq(answers.questionId, q!.id));
    expect(stored.every((a) => a.folded)).toBe(true);
    // Per choice: the answers were spread round-robin over the labels.
    const perChoice = await repo.readAll(q!.id);
    expect(perChoice.reduce((n, r) => n + r.n, 0)).toBe(total);
  });
});
