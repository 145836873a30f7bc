import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../db/client.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import type { SeedSurvey } from '../../db/seed/types.js';
import { createTestDatabase } from '../../test/database.js';
import { createSurveysRepository } from './surveys.repository.js';
import { createSurveysService } from './surveys.service.js';

const survey = (slug: string, slot: number, releaseOffsetHours: number): SeedSurvey => ({
  slug,
  name: slug,
  coverHeadline: 'h',
  author: 'a',
  introText: 'i',
  outroText: 'o',
  variant: 'v1_small',
  slot,
  genres: [],
  releaseOffsetHours,
  questions: [{ type: 'Closed', text: `${slug}?`, choices: ['Yes', 'No'] }],
});

const URL_ = 'http://candor.test/api/v1/surveys/open-closed-random-video-surveys';
const page = { page: 1, page_size: 20 };

describe('surveys service: content served from memory', () => {
  let database: Database;
  const start = new Date('2026-06-01T12:00:00Z');
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await seedSampleContent(database.db, {
      now: start,
      surveys: [survey('now', 1, -1), survey('soon', 2, 0.01)], // "soon" releases 36 s later
    });
  });
  afterAll(() => database.close());

  it('reads the database once per cache period, and shows a release after it', async () => {
    let now = start;
    const repo = createSurveysRepository(database.db);
    const load = vi.spyOn(repo, 'listListed');
    const service = createSurveysService(repo, { clock: () => now, cacheSeconds: 5 });

    const first = await Promise.all([service.list(page, URL_), service.list(page, URL_)]);
    expect(first.map((l) => l.count)).toEqual([1, 1]);
    expect(load).toHaveBeenCalledTimes(1); // concurrent requests share one load

    now = new Date(start.getTime() + 4_000); // within the period: the same snapshot
    expect((await service.list(page, URL_)).count).toBe(1);
    expect(load).toHaveBeenCalledTimes(1);

    now = new Date(start.getTime() + 40_000); // period over, "soon" released: read again
    expect((await service.list(page, URL_)).results.map((s) => s.name)).toEqual(['now', 'soon']);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('gives the same answer object within a period, and a fresh one after it', async () => {
    let now = start;
    const service = createSurveysService(createSurveysRepository(database.db), {
      clock: () => now,
      cacheSeconds: 5,
    });
    const first = await service.list(page, URL_);
    expect(first.results[0]!.is_within_24_hours).toBe(true);
    expect(await service.list(page, URL_)).toBe(first);
    expect(await service.list({ page: 1, page_size: 1 }, URL_)).not.toBe(first);
    now = new Date(start.getTime() + 23.5 * 3_600_000); // "now" was released 24.5 h ago
    const later = await service.list(page, URL_);
    expect(later).not.toBe(first);
    expect(later.results[0]!.is_within_24_hours).toBe(false);
  });

  it('with cacheSeconds 0 every request reads the database', async () => {
    const repo = createSurveysRepository(database.db);
    const load = vi.spyOn(repo, 'listListed');
    const service = createSurveysService(repo, { clock: () => start, cacheSeconds: 0 });
    await service.list(page, URL_);
    await service.list(page, URL_);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
