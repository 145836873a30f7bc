import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { HOME_SURVEY_LIST_PATH, PAGE_DATA_ID, type SurveyList } from '@candor/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/client.js';
import { genres, surveyGenres, surveys } from '../db/schema.js';
import { seedSampleContent } from '../db/seed/seed.js';
import type { SeedSurvey } from '../db/seed/types.js';
import { createMember } from '../test/accounts.js';
import { createTestApp, tempDataDir } from '../test/app.js';
import { closeAll, createTestDatabase } from '../test/database.js';
import { CONTENT_SECURITY_POLICY } from './security-headers.js';
import { parseTemplate, pickEncoding, renderPage } from './web-page.js';

const HOUR_MS = 3_600_000;
// What a staff member could type as a survey's name: markup, a script's end, quotes.
const HOSTILE = `</script><script>alert(1)</script><img src=x onerror="alert('x')"> & "Co"`;

// A built index.html in miniature, as Vite writes it, and the build's manifest.
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Candor</title>
    <script nomodule src="/outdated.js"></script>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-1.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, css: ['assets/index-1.css'] },
  _shared: { file: 'assets/shared-1.js' },
  'src/app/app.tsx': {
    file: 'assets/app-1.js',
    isDynamicEntry: true,
    imports: ['index.html', '_shared'],
    css: ['assets/app-1.css'],
  },
  'src/app/routes/survey.tsx': {
    file: 'assets/survey-1.js',
    isDynamicEntry: true,
    imports: ['index.html', '_shared', 'src/app/app.tsx'],
    css: ['assets/survey-1.css'],
  },
};

function fixture(slug: string, name: string, fields: Partial<SeedSurvey>): SeedSurvey {
  return {
    slug,
    name,
    coverHeadline: `${name} headline`,
    author: 'Test Author',
    introText: `About ${name}.`,
    outroText: 'Thanks.',
    variant: 'v1_medium',
    genres: ['Society'],
    questions: [{ type: 'Closed', text: `${name}: agree?`, choices: ['Agree', 'Disagree'] }],
    slot: 1,
    releaseOffsetHours: -2,
    ...fields,
  };
}

const fixtures: SeedSurvey[] = [
  // Covers and intro images are /sample/covers/{slug}.webp and /sample/intro/{slug}.webp.
  fixture('second', 'Second Brick', { slot: 2 }),
  fixture('first', 'First Brick', { slot: 1, variant: 'v1_large', genres: ['Money'] }),
  fixture('hostile', HOSTILE, { slot: 3, coverHeadline: HOSTILE }),
  fixture('later', 'Scheduled Survey', { slot: 0, releaseOffsetHours: 24 }),
];

/** The page's elements of a kind, as written. */
const tags = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'gi'))].map((m) => m[0]);

/** The JSON data block's value. */
function pageData(html: string): {
  responses: Record<string, unknown>;
  brickPositions: Record<string, string>;
} {
  const block = new RegExp(
    `<script type="application/json" id="${PAGE_DATA_ID}">([^<]*)</script>`,
  ).exec(html);
  if (!block) throw new Error('no data block');
  return JSON.parse(block[1]!) as ReturnType<typeof pageData>;
}

// Pages, not data: one engine is enough.
describe('web app pages', () => {
  let database: Database;
  let app: App;
  const web = tempDataDir();
  const gidOf = new Map<string, string>();

  beforeAll(async () => {
    fs.writeFileSync(path.join(web, 'index.html'), INDEX);
    fs.mkdirSync(path.join(web, '.vite'));
    fs.writeFileSync(path.join(web, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    database = await createTestDatabase('pglite');
    await seedSampleContent(database.db, { now: new Date(), surveys: fixtures });
    // A draft: released long ago and in the first slot, but never published.
    await database.db.insert(surveys).values({
      slug: 'draft',
      name: 'Draft Survey',
      releaseDate: new Date(Date.now() - 5 * HOUR_MS),
      publishedAt: null,
      slot: 0,
    });
    // A survey without a cover image, in a genre named like its title.
    const [hostile] = await database.db
      .update(surveys)
      .set({ coverImage: null })
      .where(eq(surveys.slug, 'hostile'))
      .returning({ id: surveys.id });
    const [genre] = await database.db
      .insert(genres)
      .values({ name: HOSTILE })
      .returning({ id: genres.id });
    await database.db.insert(surveyGenres).values({ surveyId: hostile!.id, genreId: genre!.id });
    for (const row of await database.db
      .select({ slug: surveys.slug, gid: surveys.gid })
      .from(surveys)) {
      gidOf.set(row.slug, row.gid);
    }
    app = await createTestApp(database, { webDistDir: web });
  });

  afterAll(async () => {
    await closeAll(app, database);
    fs.rmSync(web, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { host: 'candor.test', ...headers } });

  it('draws the home page with the listed surveys in slot order, before any script runs', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const names = [...res.body.matchAll(/<span class="brick__name">([^<]*)<\/span>/g)].map(
      (m) => m[1],
    );
    expect(names).toEqual([
      'First Brick',
      'Second Brick',
      HOSTILE.replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#39;'),
    ]);
    // Drafts and surveys not released yet are not on the page, in the markup or the data.
    expect(res.body).not.toContain('Draft Survey');
    expect(res.body).not.toContain('Scheduled Survey');
    expect(res.body).toContain(`href="/surveys/${gidOf.get('first')}"`);
    expect(res.body).toContain('<h1>The questions nobody else dares to ask.</h1>');
  });

  it('escapes what staff wrote: no markup of theirs reaches the page, in the bricks or the data', async () => {
    const { body } = await get('/');
    // The only script elements are the build's and the one JSON data block.
    expect(tags(body, 'script')).toEqual([
      '<script nomodule src="/outdated.js">',
      '<script type="module" crossorigin src="/assets/index-1.js">',
      `<script type="application/json" id="${PAGE_DATA_ID}">`,
    ]);
    expect(tags(body, 'img')).toEqual([]);
    expect(body).not.toContain('onerror="alert');
    // The data block cannot be closed from inside, and reads back as the very survey list the
    // API sends for the app's own request.
    const block = body.slice(body.indexOf(`id="${PAGE_DATA_ID}">`));
    expect(block.indexOf('</script>')).toBe(block.lastIndexOf('</script>'));
    const data = pageData(body);
    const api = await get(`/api${HOME_SURVEY_LIST_PATH}`);
    expect(data.responses[HOME_SURVEY_LIST_PATH]).toEqual(api.json());
    const list = data.responses[HOME_SURVEY_LIST_PATH] as SurveyList;
    expect(list.results.map((s) => s.name)).toContain(HOSTILE);
    expect(list.results.map((s) => s.name)).not.toContain('Draft Survey');
  });

  it('fetches the first cover and every script and style sheet of the app with the page', async () => {
    const { body } = await get('/');
    const links = tags(body, 'link');
    expect(links).toEqual(
      expect.arrayContaining([
        '<link rel="stylesheet" crossorigin href="/assets/app-1.css">',
        '<link rel="modulepreload" crossorigin href="/assets/shared-1.js">',
        '<link rel="modulepreload" crossorigin href="/assets/app-1.js">',
        '<link rel="preload" as="image" href="/sample/covers/first.webp" fetchpriority="high">',
      ]),
    );
    // What index.html loads already is not asked for twice; the survey screen waits.
    expect(links.filter((l) => l.includes('index-1'))).toHaveLength(1);
    expect(body).not.toContain('survey-1');
    // Each brick keeps the cover offset it was drawn with when the app takes over.
    const positions = pageData(body).brickPositions;
    expect(positions[gidOf.get('first')!]).toBe('center');
    expect(positions[gidOf.get('second')!]).toMatch(/^(10|20|30|40|50|60|70|80|90|100)% 50%$/);
    expect(body).toContain(`background-position:${positions[gidOf.get('second')!]}`);
  });

  it('filters the bricks by ?genre= as the app does, and preloads the first one shown', async () => {
    const { body } = await get('/?genre=Society');
    expect(body).not.toContain('<span class="brick__name">First Brick</span>');
    expect(body).toContain('<span class="brick__name">Second Brick</span>');
    expect(body).toContain(
      '<button type="submit" name="genre" aria-pressed="true">Society</button>',
    );
    expect(body).toContain('href="/sample/covers/second.webp" fetchpriority="high"');
    const none = await get('/?genre=Nothing');
    expect(none.body).toContain('No survey in this genre yet.');
  });

  it('serves everyone the same page, compressed, revalidated each time, never personal', async () => {
    const member = await createMember(app);
    const visitor = await get('/', { 'accept-encoding': 'gzip, deflate, br' });
    const withSession = await get('/', {
      'accept-encoding': 'gzip, deflate, br',
      authorization: `Bearer ${member.token}`,
    });
    expect(visitor.headers['content-encoding']).toBe('br');
    expect(visitor.headers['cache-control']).toBe('no-cache');
    expect(visitor.headers.vary).toBe('Accept-Encoding');
    expect(visitor.headers.etag).toBe(withSession.headers.etag);
    const html = zlib.brotliDecompressSync(visitor.rawPayload).toString();
    expect(html).toBe(zlib.brotliDecompressSync(withSession.rawPayload).toString());
    expect(html).toBe((await get('/')).body);
    expect(html).not.toContain(member.uuid);
    const gz = await get('/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(html);
    const again = await get('/', { 'if-none-match': visitor.headers.etag! });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The policy allows no inline script: the page needs none.
    expect(visitor.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self' [^;']*;/);
  });

  it("draws a survey's intro with the survey it was drawn from, its picture and screen preloaded", async () => {
    const gid = gidOf.get('first')!;
    const { statusCode, body } = await get(`/surveys/${gid}`);
    expect(statusCode).toBe(200);
    expect(tags(body, 'link')).toEqual(
      expect.arrayContaining([
        '<link rel="preload" as="image" href="/sample/intro/first.webp" fetchpriority="high">',
        '<link rel="modulepreload" crossorigin href="/assets/survey-1.js">',
        '<link rel="stylesheet" crossorigin href="/assets/survey-1.css">',
        '<link rel="modulepreload" crossorigin href="/assets/app-1.js">',
      ]),
    );
    expect(body.match(/app-1\.js/g)).toHaveLength(1);
    // The data comes in the page: nothing to fetch for it.
    expect(body).not.toContain('as="fetch"');
    const path = `/v1/surveys/${gid}/video-survey`;
    const api = await get(`/api${path}`);
    expect(pageData(body).responses[path]).toEqual(api.json());
    // The intro as the app first shows it: the picture, the name, the start waiting.
    expect(tags(body, 'img')).toEqual([
      '<img src="/sample/intro/first.webp" alt="" width="960" height="540">',
    ]);
    expect(body).toContain('<h1>First Brick</h1>');
    expect(body).toContain('disabled="" aria-busy="true">Start the survey</button>');
    expect(body).toContain('<a class="navbar__surveys" href="/" data-discover="true">Surveys</a>');
    // A hostile name is text, in the page and in its data.
    const hostile = await get(`/surveys/${gidOf.get('hostile')!}`);
    expect(hostile.body).not.toContain('onerror="alert');
    expect(tags(hostile.body, 'img')).toEqual([
      '<img src="/sample/intro/hostile.webp" alt="" width="960" height="540">',
    ]);
    expect(tags(hostile.body, 'script').length).toBe(tags(INDEX, 'script').length + 1);
    const block = hostile.body.slice(hostile.body.indexOf(`id="${PAGE_DATA_ID}">`));
    expect(block.indexOf('</script>')).toBe(block.lastIndexOf('</script>'));
    // A draft's or an unknown survey's page is the bare app, with no data.
    for (const other of [gidOf.get('draft')!, '00000000-0000-4000-8000-000000000000', 'x']) {
      const page = await get(`/surveys/${other}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<div id="root"></div>');
      expect(page.body).not.toContain(PAGE_DATA_ID);
    }
  });

  it('serves other pages as the app with its scripts preloaded, and the API as before', async () => {
    const login = await get('/login');
    expect(login.body).toContain('<link rel="modulepreload" crossorigin href="/assets/app-1.js">');
    expect(login.body).toContain('<div id="root"></div>');
    expect(login.body).not.toContain(PAGE_DATA_ID);
    expect((await get('/api/v1/nothing')).statusCode).toBe(404);
    expect((await get('/nothing.png')).statusCode).toBe(404);
  });
});

describe('page parts', () => {
  it('puts each part in its place, in order, and leaves a template without places whole', () => {
    const template = parseTemplate(INDEX);
    const html = renderPage(template, [
      { head: '<meta name="a">', root: '<p>1</p>', body: '<i>x</i>' },
      { head: '<meta name="b">', root: '<p>2</p>', transform: (h) => h.replace('Candor', 'T') },
    ]);
    expect(html).toContain('<meta name="a"><meta name="b"></head>');
    expect(html).toContain('<div id="root"><p>1</p><p>2</p></div>');
    expect(html).toContain('<i>x</i></body>');
    expect(html).toContain('<title>T</title>');
    expect(renderPage(template, [])).toBe(INDEX);
    const bare = '<!doctype html><div id="root"></div>';
    expect(renderPage(parseTemplate(bare), [{ head: '<b>', root: 'r' }])).toBe(
      '<!doctype html><b><div id="root">r</div>',
    );
  });

  it('picks brotli, else gzip, as the client allows', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});
