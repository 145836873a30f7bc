import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LEAVE_BLANK_CHOICE, SurveyVariantSchema } from '@candor/contracts';
import { asc, count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import type { Database } from '../client.js';
import { choices, genres, questions, surveys } from '../schema.js';
import { isDatabaseEmpty, seedSampleContent } from './seed.js';

// apps/web/public: where the web app serves the sample media from (`/sample/...`).
const webPublic = fileURLToPath(new URL('../../../../web/public', import.meta.url));
const publicFile = (urlPath: string) => `${webPublic}${urlPath}`;
const sizeOf = (urlPath: string) => fs.statSync(publicFile(urlPath)).size;

const KB = 1024;

async function loadSurveys(database: Database) {
  return database.db.query.surveys.findMany({
    orderBy: asc(surveys.slot),
    with: {
      questions: {
        orderBy: asc(questions.position),
        with: { choices: { orderBy: asc(choices.position) } },
      },
    },
  });
}

async function rowCounts(database: Database) {
  const countOf = async (
    table: typeof surveys | typeof questions | typeof choices | typeof genres,
  ) => (await database.db.select({ n: count() }).from(table))[0]!.n;
  return {
    surveys: await countOf(surveys),
    questions: await countOf(questions),
    choices: await countOf(choices),
    genres: await countOf(genres),
  };
}

describe.each(engines)('sample content on %s', (engine) => {
  let database: Database;
  let now: Date;
  let emptyBeforeSeeding: boolean;
  let surveysAdded: number;
  let all: Awaited<ReturnType<typeof loadSurveys>>;
  let listed: typeof all;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    emptyBeforeSeeding = await isDatabaseEmpty(database.db);
    now = new Date();
    ({ surveysAdded } = await seedSampleContent(database.db, { now }));
    all = await loadSurveys(database);
    listed = all.filter((s) => s.publishedAt !== null && s.releaseDate <= now);
  });

  afterAll(async () => {
    await closeAll(database);
  });

  it('loads 7 surveys, 6 of them listed', () => {
    expect(surveysAdded).toBe(7);
    expect(all).toHaveLength(7);
    expect(listed).toHaveLength(6);
  });

  it('gives the listed surveys 3, 5, 7, 15, 25 and 35 questions in slot order', () => {
    expect(listed.map((s) => s.questions.length)).toEqual([3, 5, 7, 15, 25, 35]);
    expect(listed.map((s) => s.slot)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('schedules exactly one survey in the future, with 5 questions', () => {
    const scheduled = all.filter((s) => s.releaseDate > now);
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]!.questions).toHaveLength(5);
  });

  it('uses each of the six variants once among the listed surveys', () => {
    expect(listed.map((s) => s.variant).sort()).toEqual([...SurveyVariantSchema.options].sort());
  });

  it('has exactly one closed listed survey, closed before now', () => {
    const closed = listed.filter((s) => s.closedAt !== null);
    expect(closed).toHaveLength(1);
    expect(closed[0]!.closedAt!.getTime()).toBeLessThan(now.getTime());
    expect(closed[0]!.closedAt!.getTime()).toBeGreaterThan(closed[0]!.releaseDate.getTime());
  });

  it('has exactly one survey released within the last 24 hours', () => {
    const fresh = all.filter((s) => {
      const age = now.getTime() - s.releaseDate.getTime();
      return age >= 0 && age < 24 * 3_600_000;
    });
    expect(fresh).toHaveLength(1);
  });

  it('has open questions, without choices', () => {
    const open = all.flatMap((s) => s.questions).filter((q) => q.type === 'Open');
    expect(open.length).toBeGreaterThanOrEqual(1);
    for (const q of open) {
      expect(q.choices).toEqual([]);
      expect(q.maxLength).toBeGreaterThan(0);
    }
  });

  it("ends every closed question with the 'Leave blank' choice, marked as blank", () => {
    const closed = all.flatMap((s) => s.questions).filter((q) => q.type === 'Closed');
    expect(closed.length).toBeGreaterThan(50);
    for (const q of closed) {
      const labels = q.choices.map((c) => c.label);
      expect(labels.length).toBeGreaterThanOrEqual(3);
      expect(labels.at(-1)).toBe(LEAVE_BLANK_CHOICE);
      expect(q.choices.filter((c) => c.isBlank).map((c) => c.label)).toEqual([LEAVE_BLANK_CHOICE]);
    }
  });

  it("ships the video survey's videos and captions in apps/web/public", () => {
    const withVideo = all.filter((s) => s.questions.some((q) => q.videoLink1));
    expect(withVideo).toHaveLength(1);
    const files = withVideo[0]!.questions.flatMap((q) =>
      [q.videoLink1, q.videoCaptions1, q.videoLink2, q.videoCaptions2].filter(
        (f): f is string => f !== null,
      ),
    );
    expect(files.filter((f) => f.endsWith('.mp4'))).toHaveLength(withVideo[0]!.questions.length);
    expect(files.filter((f) => f.endsWith('.vtt'))).toHaveLength(withVideo[0]!.questions.length);
    for (const file of files) {
      expect(file, file).toMatch(/^\/sample\/video\//);
      expect(fs.existsSync(publicFile(file)), file).toBe(true);
    }
    for (const vtt of files.filter((f) => f.endsWith('.vtt'))) {
      expect(fs.readFileSync(publicFile(vtt), 'utf8'), vtt).toMatch(/^WEBVTT/);
    }
  });

  it('keeps every cover and intro image under 60 KB', () => {
    const images = all.flatMap((s) => [s.coverImage, s.introImage]);
    expect(images).toHaveLength(14);
    for (const image of images) {
      expect(image).not.toBeNull();
      expect(fs.existsSync(publicFile(image!)), image!).toBe(true);
      expect(sizeOf(image!), image!).toBeLessThan(60 * KB);
    }
  });

  it('keeps the videos under 1 MB together', () => {
    const videos = all
      .flatMap((s) => s.questions)
      .flatMap((q) => [q.videoLink1, q.videoLink2])
      .filter((v): v is string => typeof v === 'string' && v.startsWith('/sample/'));
    expect(videos.length).toBeGreaterThan(0);
    const total = videos.reduce((sum, v) => sum + sizeOf(v), 0);
    expect(total).toBeLessThan(1024 * KB);
  });

  it('knows whether the database is empty', async () => {
    expect(emptyBeforeSeeding).toBe(true);
    expect(await isDatabaseEmpty(database.db)).toBe(false);
  });

  it('adds nothing when seeded again', async () => {
    const before = await rowCounts(database);
    expect(before.surveys).toBe(7);
    const again = await seedSampleContent(database.db, { now: new Date() });
    expect(again.surveysAdded).toBe(0);
    expect(await rowCounts(database)).toEqual(before);
  });
});
