import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AdminSurveySchema, type SurveyInput, SurveyDetailSchema } from '@candor/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { createMember, get, post, send } from '../../test/accounts.js';
import { createTestApp, tempDataDir } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { escapeXml, renderShareImage, shareImageSvg, wrapText } from './share-image.js';
import { surveyGidOfPath } from './share.service.js';

const HOST = 'candor.test:8080';
const ORIGIN = `http://${HOST}`;
const ADMIN = '/api/v1/admin';
const HOSTILE = '</title><script>alert(1)</script> "Q" & <b>A</b>';
const webApp = fileURLToPath(new URL('../../../../web/', import.meta.url));

/** The web app's own index.html: the tags a survey's page replaces are the real ones. */
const INDEX_HTML = fs.readFileSync(path.join(webApp, 'index.html'), 'utf8');

/** `content` of every `<meta>` with this name or property, in order. */
function metas(html: string, key: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/<meta\s[^>]*>/g)) {
    const tag = m[0];
    if (new RegExp(`(?:name|property)="${key}"`).test(tag)) {
      found.push(/content="([^"]*)"/.exec(tag)?.[1] ?? '');
    }
  }
  return found;
}
const titles = (html: string) => [...html.matchAll(/<title>([\s\S]*?)<\/title>/g)].map((m) => m[1]);
/** Script elements that run (a JSON data block never does). */
const scripts = (html: string) =>
  html.match(/<script\b(?![^>]*type="application\/json")/g)?.length ?? 0;
/** What an HTML parser reads from an escaped attribute or text. */
const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer) {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('share image text', () => {
  it('escapes markup and drops the characters XML cannot hold', () => {
    expect(escapeXml(`a<b>&"c'\u0000\u0007d`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;d');
    const svg = shareImageSvg({
      name: HOSTILE,
      headline: '<svg onload="x">',
      questions: 3,
      closed: false,
      withCover: false,
    });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<svg onload');
    expect(svg).toContain('&lt;/title&gt;&lt;script&gt;');
  });

  it('wraps at spaces, cuts words longer than a line, and ends what does not fit with an ellipsis', () => {
    expect(wrapText('one two three', 100, 3, 'bold')).toEqual({
      lines: ['one two three'],
      truncated: false,
    });
    const narrow = wrapText('aaaa bbbb cccc dddd', 3, 2, 'bold');
    expect(narrow.truncated).toBe(true);
    expect(narrow.lines).toHaveLength(2);
    expect(narrow.lines[1]!.endsWith('…')).toBe(true);
    const long = wrapText('x'.repeat(40), 10, 3, 'book');
    expect(long.lines.length).toBeGreaterThan(1);
    for (const line of long.lines) expect(line.length).toBeLessThan(40);
  });
});

describe('survey paths', () => {
  const gid = '0b4cf0d1-6a3e-4c55-9f5c-2d7f4ad3c2a1';
  it('names a survey by its route or its share link only', () => {
    expect(surveyGidOfPath(`/surveys/${gid}`)).toBe(gid);
    expect(surveyGidOfPath(`/Money_Talks/${gid}?utm=x`)).toBe(gid);
    expect(surveyGidOfPath(`/surveys/${gid.toUpperCase()}`)).toBe(gid);
    expect(surveyGidOfPath(`/admin/${gid}`)).toBeNull();
    expect(surveyGidOfPath(`/surveys/${gid}/more`)).toBeNull();
    expect(surveyGidOfPath('/surveys/not-a-gid')).toBeNull();
    expect(surveyGidOfPath('/')).toBeNull();
  });
});

describe.each(engines)('link previews on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { token: string };
  let money: { gid: string; name: string; shareable_link: string; cover_headline: string };
  const web = tempDataDir();

  beforeAll(async () => {
    fs.writeFileSync(path.join(web, 'index.html'), INDEX_HTML);
    // The sample covers, where the built app has them.
    fs.cpSync(path.join(webApp, 'public', 'sample', 'covers'), path.join(web, 'sample', 'covers'), {
      recursive: true,
    });
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    // The default content cache (seconds): an edit must show at once all the same.
    app = await createTestApp(database, { webDistDir: web });
    admin = await createMember(app, { role: 'admin' });
    const list = await get(app, '/api/v1/surveys/open-closed-random-video-surveys?page_size=50');
    const summary = list.json<{ results: Array<{ gid: string; name: string }> }>().results;
    const gid = summary.find((s) => s.name === 'Money Talks')!.gid;
    money = SurveyDetailSchema.parse(
      (
        await app.inject({ url: `/api/v1/surveys/${gid}/video-survey`, headers: { host: HOST } })
      ).json(),
    );
  });

  afterAll(async () => {
    await closeAll(app, database);
    fs.rmSync(web, { recursive: true, force: true });
  });

  const page = (url: string) => app.inject({ url, headers: { host: HOST } });
  const call = () => ({ token: admin.token, headers: { host: HOST } });

  async function draft(body: Partial<SurveyInput>) {
    const res = await post(
      app,
      `${ADMIN}/surveys/`,
      {
        name: 'A draft',
        cover_headline: 'Not out yet',
        release_date: new Date(Date.now() - 60_000).toISOString(),
        ...body,
      },
      call(),
    );
    expect(res.statusCode, res.body).toBe(201);
    const { gid } = AdminSurveySchema.parse(res.json());
    const q = await post(
      app,
      `${ADMIN}/surveys/${gid}/questions/`,
      { type: 'Closed', question: 'Yes or no?', choices: ['Yes', 'No'] },
      call(),
    );
    expect(q.statusCode, q.body).toBe(201);
    return gid;
  }

  it("gives a published survey's page its own title, description, image and card, without script", async () => {
    for (const url of [`/surveys/${money.gid}`, new URL(money.shareable_link).pathname]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      const html = res.body;
      expect(titles(html), url).toEqual(['Money Talks · Candor']);
      expect(metas(html, 'og:title'), url).toEqual(['Money Talks · Candor']);
      const [description] = metas(html, 'og:description');
      expect(description, url).toContain(money.cover_headline);
      expect(description, url).toMatch(/\d+ questions on Candor/);
      expect(metas(html, 'description'), url).toEqual([description]);
      expect(metas(html, 'og:url'), url).toEqual([money.shareable_link]);
      const [image] = metas(html, 'og:image');
      expect(image, url).toMatch(
        new RegExp(`^${ORIGIN}/api/v1/surveys/${money.gid}/share-image\\.png\\?v=[\\w-]+$`),
      );
      expect(metas(html, 'twitter:card'), url).toEqual(['summary_large_image']);
      expect(metas(html, 'twitter:image'), url).toEqual([image]);
      expect(metas(html, 'og:image:width'), url).toEqual(['1200']);
      expect(metas(html, 'og:image:height'), url).toEqual(['630']);
      // The site's name stays; the app still boots from the same scripts, and none is added.
      expect(metas(html, 'og:site_name'), url).toEqual(['Candor']);
      expect(html, url).toContain('<div id="root">');
      expect(scripts(html), url).toBe(scripts(INDEX_HTML));
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
      const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']));
      expect(scriptSrc?.[1], url).not.toMatch(/unsafe|nonce|sha256/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('gives other pages, unknown surveys and drafts the generic tags, naming no draft', async () => {
    const hidden = await draft({ name: 'Secret Draft Survey', cover_headline: 'Nobody sees me' });
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const url of [
      '/',
      '/privacy',
      `/surveys/${unknown}`,
      `/surveys/${hidden}`,
      `/Secret_Draft_Survey/${hidden}`,
    ]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      // The page's own generic tags, as index.html has them (the page may carry more: drawn
      // bricks, preloads; never a survey's own tags).
      for (const key of ['og:title', 'og:description', 'og:image', 'twitter:card']) {
        expect(metas(res.body, key), `${url} ${key}`).toEqual(metas(INDEX_HTML, key));
      }
      expect(/<title>[^<]*<\/title>/.exec(res.body)?.[0], url).toBe(
        /<title>[^<]*<\/title>/.exec(INDEX_HTML)?.[0],
      );
      expect(res.body, url).not.toContain('Secret');
      expect(res.body, url).not.toContain('Nobody sees me');
    }
    // Nor is there an image of it.
    const image = await page(`/api/v1/surveys/${hidden}/share-image.png`);
    expect(image.statusCode).toBe(404);
    expect(image.json()).toEqual({ detail: 'Not found.', code: 'NOT_FOUND' });
  });

  it('escapes a hostile title everywhere, and shows an edit at once', async () => {
    const gid = await draft({ name: HOSTILE, cover_headline: 'Headline "quoted" & <i>tagged</i>' });
    const publish = await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, call());
    expect(publish.statusCode, publish.body).toBe(200);
    const html = (await page(`/surveys/${gid}`)).body;
    // No markup of the title's reaches the page: one title element, no new script, no <b>.
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<b>A</b>');
    expect(html).not.toContain('<i>tagged</i>');
    expect(scripts(html)).toBe(scripts(INDEX_HTML));
    expect(titles(html)).toHaveLength(1);
    expect(unescape(titles(html)[0]!)).toBe(`${HOSTILE} · Candor`);
    expect(unescape(metas(html, 'og:title')[0]!)).toBe(`${HOSTILE} · Candor`);
    expect(unescape(metas(html, 'og:description')[0]!)).toContain(
      'Headline "quoted" & <i>tagged</i>',
    );
    // The image renders the same title as text (it is a valid image, not broken markup).
    const image = await page(`/api/v1/surveys/${gid}/share-image.png`);
    expect(image.statusCode).toBe(200);
    expect(pngSize(image.rawPayload)).toEqual({ width: 1200, height: 630 });

    // An edit shows on the next crawl, not after the content cache's timer.
    const renamed = await send(
      app,
      'PUT',
      `${ADMIN}/surveys/${gid}/`,
      {
        name: 'Renamed for sharing',
        cover_headline: 'New headline',
        release_date: new Date(Date.now() - 60_000).toISOString(),
      },
      call(),
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = (await page(`/surveys/${gid}`)).body;
    expect(titles(after)).toEqual(['Renamed for sharing · Candor']);
    expect(metas(after, 'og:image')[0]).not.toBe(metas(html, 'og:image')[0]);
  });

  it('serves the share image: a 1200x630 PNG, cached publicly by version, embeddable anywhere', async () => {
    const [imageUrl] = metas((await page(`/surveys/${money.gid}`)).body, 'og:image');
    const url = imageUrl!.slice(ORIGIN.length);
    const res = await page(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const png = res.rawPayload;
    expect(png.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1200, height: 630 });
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const etag = res.headers.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);
    // The cover is drawn: the right side holds far more detail than the coverless design's.
    const entropy = async (image: Buffer) =>
      (await sharp(image).extract({ left: 860, top: 0, width: 340, height: 630 }).stats()).entropy;
    const plain = await renderShareImage(
      { name: money.name, headline: money.cover_headline, questions: 5, closed: false },
      null,
    );
    expect(await entropy(png)).toBeGreaterThan((await entropy(plain)) + 1);

    // Without the version (an old or hand-made link): the same image, kept briefly.
    const bare = await page(`/api/v1/surveys/${money.gid}/share-image.png`);
    expect(bare.statusCode).toBe(200);
    expect(bare.headers['cache-control']).toBe('public, max-age=300');
    expect(bare.rawPayload.equals(png)).toBe(true);
    // A cache that holds this version revalidates for nothing.
    const again = await app.inject({ url, headers: { host: HOST, 'if-none-match': String(etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('documents the image route in the OpenAPI document', () => {
    const doc = app.swagger() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/v1/surveys/{gid}/share-image.png'] ?? {})).toEqual(['get']);
  });

  it('answers 404 for an image of no listed survey', async () => {
    for (const gid of ['00000000-0000-4000-8000-000000000000', 'not-a-gid']) {
      const res = await page(`/api/v1/surveys/${gid}/share-image.png`);
      expect(res.statusCode, gid).toBe(404);
      expect(res.json(), gid).toEqual({ detail: 'Not found.', code: 'NOT_FOUND' });
    }
  });
});
