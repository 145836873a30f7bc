import crypto from 'node:crypto';
import {
  ErrorBodySchema,
  LEAVE_BLANK_CHOICE,
  SurveyDetailSchema,
  SurveyListSchema,
  ValidationErrorBodySchema,
} from '@candor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { surveys } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import type { SeedQuestion, SeedSurvey } from '../../db/seed/types.js';
import { createTestApp } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

const HOUR_MS = 3_600_000;
const HOST = 'candor.test:8080';
const LIST_PATH = '/api/v1/surveys/open-closed-random-video-surveys';
const LIST_URL = `http://${HOST}${LIST_PATH}`;
const NOT_FOUND = { detail: 'Not found.', code: 'NOT_FOUND' };

const detailPath = (gid: string) => `/api/v1/surveys/${encodeURIComponent(gid)}/video-survey`;
const pageUrl = (page: number, pageSize: number) =>
  `${LIST_URL}?page=${page}&page_size=${pageSize}`;

function fixture(
  slug: string,
  name: string,
  fields: Pick<SeedSurvey, 'slot' | 'releaseOffsetHours'> & Partial<SeedSurvey>,
): SeedSurvey {
  return {
    slug,
    name,
    coverHeadline: `${name} headline`,
    author: 'Test Author',
    introText: `About ${name}.`,
    outroText: `Thanks for ${name}.`,
    variant: 'v1_medium',
    genres: ['Society'],
    questions: [{ type: 'Closed', text: `${name}: agree?`, choices: ['Agree', 'Disagree'] }],
    ...fields,
  };
}

const nightOwlsQuestions: SeedQuestion[] = [
  {
    type: 'Closed',
    text: 'Do you stay up past midnight?',
    choices: ['Yes', 'No'],
    randomise: false,
    timerSeconds: 30,
    video: { link1: '/sample/video/owl.mp4', captions1: '/sample/video/owl.vtt' },
  },
  { type: 'Open', text: 'What keeps you awake?', maxLength: 140, timerSeconds: 3725 },
  { type: 'Closed', text: 'Pick one.', choices: ['A', 'B', 'C'] },
];

// Inserted out of slot order, so the list order can only come from `slot`.
const fixtures: SeedSurvey[] = [
  fixture('night-owls', 'Night Owls', {
    slot: 3,
    releaseOffsetHours: -2,
    variant: 'v1_large',
    genres: ['Money', 'Ethics'],
    questions: nightOwlsQuestions,
  }),
  fixture('fifth-element', 'Fifth Element', { slot: 5, releaseOffsetHours: -30 }),
  fixture('last-orders', 'Last Orders', {
    slot: 1,
    releaseOffsetHours: -48,
    closedOffsetHours: 5,
    variant: 'v2_large',
  }),
  fixture('fourth-wall', 'Fourth Wall', { slot: 4, releaseOffsetHours: -100 }),
  fixture('second-thoughts', 'Second Thoughts', {
    slot: 2,
    releaseOffsetHours: -25,
    questions: [{ type: 'Open', text: 'Any second thoughts?' }],
  }),
  // Would come first if it were listed.
  fixture('not-yet', 'Not Yet', { slot: 0, releaseOffsetHours: 24 }),
];

const LISTED_IN_SLOT_ORDER = [
  'Last Orders',
  'Second Thoughts',
  'Night Owls',
  'Fourth Wall',
  'Fifth Element',
];

describe.each(engines)('surveys API on %s', (engine) => {
  let database: Database;
  let app: App;
  let now: Date;
  const gidOf = new Map<string, string>();

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    now = new Date();
    const { surveysAdded } = await seedSampleContent(database.db, { now, surveys: fixtures });
    expect(surveysAdded).toBe(fixtures.length);
    // A draft: released long ago and in the first slot, but never published.
    await database.db.insert(surveys).values({
      slug: 'draft',
      name: 'Draft Survey',
      releaseDate: new Date(now.getTime() - 5 * HOUR_MS),
      publishedAt: null,
      slot: 0,
    });
    const rows = await database.db.select({ slug: surveys.slug, gid: surveys.gid }).from(surveys);
    for (const row of rows) gidOf.set(row.slug, row.gid);
    app = await createTestApp(database);
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  const get = (url: string, target: App = app) =>
    target.inject({ method: 'GET', url, headers: { host: HOST } });

  async function getList(query = '', target: App = app) {
    const res = await get(`${LIST_PATH}${query}`, target);
    expect(res.statusCode).toBe(200);
    return SurveyListSchema.parse(res.json());
  }

  async function getDetail(gid: string, target: App = app) {
    const res = await get(detailPath(gid), target);
    expect(res.statusCode).toBe(200);
    return {
      body: SurveyDetailSchema.parse(res.json()),
      raw: res.json<{ questions: Array<Record<string, unknown>> }>(),
    };
  }

  async function listedSurvey(name: string) {
    const survey = (await getList()).results.find((s) => s.name === name);
    if (!survey) throw new Error(`${name} is not listed`);
    return survey;
  }

  describe('list', () => {
    it('returns the published, released surveys in slot order, matching the contract', async () => {
      const res = await get(LIST_PATH);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = SurveyListSchema.parse(res.json());
      expect(body.count).toBe(5);
      expect(body.next).toBeNull();
      expect(body.previous).toBeNull();
      expect(body.results.map((s) => s.name)).toEqual(LISTED_IN_SLOT_ORDER);
      expect(body.results.map((s) => s.slot)).toEqual([1, 2, 3, 4, 5]);
    });

    it('hides a scheduled survey and a draft', async () => {
      const names = (await getList()).results.map((s) => s.name);
      expect(names).not.toContain('Not Yet');
      expect(names).not.toContain('Draft Survey');
    });

    it('describes a survey with the wire field names and values', async () => {
      const raw = (await get(LIST_PATH)).json<{ results: Array<Record<string, unknown>> }>();
      const owls = raw.results.find((s) => s.name === 'Night Owls')!;
      expect(Object.keys(owls).sort()).toEqual(
        [
          'gid',
          'name',
          'cover_image',
          'cover_headline',
          'questions_count',
          'status',
          'release_date',
          'slot',
          'date_published',
          'is_within_24_hours',
          'closed_at',
          'closes_at',
          'archived',
          'variant',
          'genres',
          'questions',
          'respondents',
        ].sort(),
      );
      const release = new Date(now.getTime() - 2 * HOUR_MS).toISOString();
      expect(owls).toMatchObject({
        gid: gidOf.get('night-owls'),
        cover_image: '/sample/covers/night-owls.webp',
        cover_headline: 'Night Owls headline',
        questions_count: 3,
        status: 'Open',
        release_date: release,
        date_published: release,
        closed_at: null,
        closes_at: null,
        archived: false,
        variant: 'v1_large',
        is_within_24_hours: true,
        // Nobody answered: no published number, and never a 0 of its own.
        respondents: null,
      });
      const genres = owls.genres as Array<{ unique_GID: string; genre_name: string }>;
      expect(genres.map((g) => g.genre_name)).toEqual(['Ethics', 'Money']);
    });

    it('lists a closed survey with status Closed and closed_at set', async () => {
      const closed = await listedSurvey('Last Orders');
      expect(closed.status).toBe('Closed');
      expect(closed.closed_at).toBe(new Date(now.getTime() - 5 * HOUR_MS).toISOString());
      const open = (await getList()).results.filter((s) => s.name !== 'Last Orders');
      expect(open.map((s) => [s.status, s.closed_at])).toEqual(open.map(() => ['Open', null]));
    });

    it('flags only surveys released within the last 24 hours', async () => {
      const flags = (await getList()).results.map((s) => [s.name, s.is_within_24_hours]);
      expect(flags).toEqual([
        ['Last Orders', false],
        ['Second Thoughts', false], // released 25 h ago
        ['Night Owls', true], // released 2 h ago
        ['Fourth Wall', false],
        ['Fifth Element', false],
      ]);
    });

    it("flattens each question with its survey's gid, name and status", async () => {
      const { results } = await getList();
      for (const survey of results) {
        expect(survey.questions.length).toBe(survey.questions_count);
        for (const q of survey.questions) {
          expect([q.gid, q.name, q.status]).toEqual([survey.gid, survey.name, survey.status]);
        }
      }
      const closed = results.find((s) => s.name === 'Last Orders')!;
      expect(closed.questions[0]!.status).toBe('Closed');
    });

    it('gives the questions in order, with their choices, timers, videos and limits', async () => {
      const owls = await listedSurvey('Night Owls');
      const release = new Date(now.getTime() - 2 * HOUR_MS).toISOString();
      expect(owls.questions.map((q) => q.question)).toEqual(nightOwlsQuestions.map((q) => q.text));
      const [timed, open, plain] = owls.questions;
      expect(timed).toMatchObject({
        type: 'Closed',
        timer_length: '0:00:30',
        choices: ['Yes', 'No', LEAVE_BLANK_CHOICE],
        randomise_answers: false,
        max_length: null,
        rr_weight: null,
        video_link_1: '/sample/video/owl.mp4',
        video_captions_1: '/sample/video/owl.vtt',
        video_link_2: null,
        video_captions_2: null,
        submitted: release,
      });
      expect(open).toMatchObject({
        type: 'Open',
        timer_length: '1:02:05',
        choices: [],
        randomise_answers: false,
        max_length: 140,
        rr_weight: null,
        video_link_1: null,
      });
      expect(plain).toMatchObject({
        timer_length: '0:00:00',
        choices: ['A', 'B', 'C', LEAVE_BLANK_CHOICE],
        randomise_answers: true,
      });
      const secondThoughts = await listedSurvey('Second Thoughts');
      expect(secondThoughts.questions[0]).toMatchObject({ choices: [], max_length: 280 });
    });

    it('puts the leave-blank choice last on every closed question and on no open one', async () => {
      const questions = (await getList()).results.flatMap((s) => s.questions);
      const closed = questions.filter((q) => q.type === 'Closed');
      expect(closed.length).toBeGreaterThan(3);
      for (const q of closed) {
        expect(q.choices.at(-1)).toBe(LEAVE_BLANK_CHOICE);
        expect(q.choices.filter((c) => c === LEAVE_BLANK_CHOICE)).toHaveLength(1);
      }
      for (const q of questions.filter((q) => q.type === 'Open')) expect(q.choices).toEqual([]);
    });
  });

  describe('paging', () => {
    it('walks 5 surveys two at a time with absolute links that keep page_size', async () => {
      const first = await getList('?page_size=2');
      expect(first).toMatchObject({ count: 5, next: pageUrl(2, 2), previous: null });
      expect(first.results.map((s) => s.name)).toEqual(LISTED_IN_SLOT_ORDER.slice(0, 2));

      const second = await getList('?page=2&page_size=2');
      expect(second).toMatchObject({ count: 5, next: pageUrl(3, 2), previous: pageUrl(1, 2) });
      expect(second.results.map((s) => s.name)).toEqual(LISTED_IN_SLOT_ORDER.slice(2, 4));

      const last = await getList('?page=3&page_size=2');
      expect(last).toMatchObject({ count: 5, next: null, previous: pageUrl(2, 2) });
      expect(last.results.map((s) => s.name)).toEqual(['Fifth Element']);
    });

    it('follows the next link it gave', async () => {
      const first = await getList('?page_size=2');
      const next = new URL(first.next!);
      const second = await getList(next.search);
      expect(second.results.map((s) => s.name)).toEqual(LISTED_IN_SLOT_ORDER.slice(2, 4));
    });

    it('answers a page beyond the end with no results and a link back to the last page', async () => {
      const beyond = await getList('?page=7&page_size=2');
      expect(beyond).toEqual({ count: 5, next: null, previous: pageUrl(3, 2), results: [] });
    });

    it.each([
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=-1', 'page'],
      ['page_size=1000', 'page_size'],
      ['page_size=0', 'page_size'],
    ])('rejects ?%s with a field error on %s', async (query, field) => {
      const res = await get(`${LIST_PATH}?${query}`);
      expect(res.statusCode).toBe(400);
      const body = ValidationErrorBodySchema.parse(res.json());
      expect(Object.keys(body)).toEqual([field]);
      expect(body[field]!.length).toBeGreaterThan(0);
      expect(body[field]![0]).not.toBe('');
    });
  });

  describe('detail', () => {
    it('returns one survey with its intro, instructions, questions and share link', async () => {
      const gid = gidOf.get('night-owls')!;
      const { body, raw } = await getDetail(gid);
      expect(body).toMatchObject({
        gid,
        name: 'Night Owls',
        author: 'Test Author',
        cover_image: '/sample/covers/night-owls.webp',
        intro_screen_image: '/sample/intro/night-owls.webp',
        intro_screen_text: 'About Night Owls.',
        outro_screen_text: 'Thanks for Night Owls.',
        questions_count: 3,
        status: 'Open',
        closed_at: null,
        closes_at: null,
        archived: false,
        slot: 3,
        variant: 'v1_large',
        is_within_24_hours: true,
        shareable_link: `http://${HOST}/Night_Owls/${gid}`,
        visitor_questions: 3,
      });
      expect(body.instructions).toContain('3 questions');
      expect(body.instructions).toContain('0 to 10');
      expect(body.genres.map((g) => g.genre_name)).toEqual(['Ethics', 'Money']);
      expect(body.questions.map((q) => q.timer_length)).toEqual(['0:00:30', '1:02:05', '0:00:00']);
      expect(body.questions[0]!.choices).toEqual(['Yes', 'No', LEAVE_BLANK_CHOICE]);
      // Only the list flattens the survey into its questions.
      expect(raw.questions[0]).not.toHaveProperty('gid');
      expect(raw.questions[0]).not.toHaveProperty('status');
    });

    it('agrees with the list on the fields they share', async () => {
      const listed = await listedSurvey('Second Thoughts');
      const { body } = await getDetail(listed.gid);
      // Only the list says how many answered (the home page's bricks).
      const { questions: listedQuestions, respondents: _, ...listedFields } = listed;
      expect(body).toMatchObject(listedFields);
      expect(body.questions.map((q) => q.qid)).toEqual(listedQuestions.map((q) => q.qid));
      expect(body.instructions).toContain('1 question.');
    });

    it('tells how many questions a visitor may answer (VISITOR_FREE_QUESTIONS)', async () => {
      const generous = await createTestApp(database, { visitorFreeQuestions: 0 });
      try {
        const { body } = await getDetail(gidOf.get('night-owls')!, generous);
        expect(body.visitor_questions).toBe(0);
      } finally {
        await generous.close();
      }
    });

    it('shows a closed survey as Closed', async () => {
      const { body } = await getDetail(gidOf.get('last-orders')!);
      expect(body.status).toBe('Closed');
      expect(body.closed_at).toBe(new Date(now.getTime() - 5 * HOUR_MS).toISOString());
    });

    it('accepts the gid in upper case', async () => {
      const gid = gidOf.get('fourth-wall')!;
      const { body } = await getDetail(gid.toUpperCase());
      expect(body.gid).toBe(gid);
      expect(body.name).toBe('Fourth Wall');
    });

    it('builds links on PUBLIC_URL when it is set', async () => {
      const publicApp = await createTestApp(database, { publicUrl: 'https://candor.example' });
      try {
        const gid = gidOf.get('night-owls')!;
        const { body } = await getDetail(gid, publicApp);
        expect(body.shareable_link).toBe(`https://candor.example/Night_Owls/${gid}`);
        const list = await getList('?page_size=2', publicApp);
        expect(list.next).toBe(`https://candor.example${LIST_PATH}?page=2&page_size=2`);
      } finally {
        await publicApp.close();
      }
    });
  });

  describe('not found', () => {
    const notFoundGids: Array<[string, () => string]> = [
      ['an unknown uuid', () => crypto.randomUUID()],
      ['a scheduled survey', () => gidOf.get('not-yet')!],
      ['a draft', () => gidOf.get('draft')!],
      ['a malformed gid', () => 'abc'],
      ['an SQL injection attempt', () => "1' OR '1'='1"],
      ['a 150-character gid', () => 'a'.repeat(150)],
      ['a 300-character gid', () => 'a'.repeat(300)],
    ];

    it.each(notFoundGids)('answers 404 for %s', async (_label, gidFor) => {
      const res = await get(detailPath(gidFor()));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
      expect(ErrorBodySchema.parse(res.json()).code).toBe('NOT_FOUND');
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it.each([
      ['GET', '/api/nope'],
      ['POST', '/api/v1/surveys/x'],
      ['DELETE', LIST_PATH],
      ['GET', '/api/v1/surveys/%E0%A4%A/video-survey'],
    ] as const)('answers 404 for %s %s', async (method, url) => {
      const res = await app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('still lists everything after the injection attempt', async () => {
      expect((await getList()).count).toBe(5);
    });
  });

  describe('around the API', () => {
    it.each([
      ['the list', () => LIST_PATH, 200],
      ['a detail', () => detailPath(gidOf.get('night-owls')!), 200],
      ['a field error', () => `${LIST_PATH}?page=0`, 400],
      ['a 404', () => detailPath('abc'), 404],
      ['the health check', () => '/api/health', 200],
    ])('marks %s Cache-Control: no-store', async (_label, url, status) => {
      const res = await get(url());
      expect(res.statusCode).toBe(status);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('serves an OpenAPI document describing both survey endpoints', async () => {
      const res = await get('/api/docs/json');
      expect(res.statusCode).toBe(200);
      const doc = res.json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>();
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.paths[LIST_PATH]).toHaveProperty('get');
      expect(doc.paths['/api/v1/surveys/{gid}/video-survey']).toHaveProperty('get');
    });

    it('reports healthy while the database answers', async () => {
      const res = await get('/api/health');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    });
  });
});
