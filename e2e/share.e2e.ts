// Issue 17, sharing: link previews a crawler reads without running script, the phone's share
// sheet with the survey's link only, and a result card that leaves out the sharer's answer
// unless they choose to show it (and never sends it anywhere).
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { sampleSurvey } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { questionHeading, screenshot } from './screens';

const baseURL = inject('baseURL');

const sizes = [
  ['phone', phone],
  ['desktop', desktop],
] as const satisfies ReadonlyArray<readonly [string, BrowserContextOptions]>;

/** `content` of the page's `<meta>` with this name or property. */
function meta(html: string, key: string): string | undefined {
  for (const [tag] of html.matchAll(/<meta\s[^>]*>/g)) {
    if (tag.includes(`="${key}"`)) return /content="([^"]*)"/.exec(tag)?.[1];
  }
  return undefined;
}

interface Shared {
  title?: string;
  text?: string;
  url?: string;
  files: Array<{ name: string; type: string; size: number }>;
}

/**
 * A share sheet in the page (the browser API's boundary): `navigator.share` records what it was
 * given, and `canShare` says files can go, as on a phone.
 */
async function withShareSheet(page: Page) {
  await page.addInitScript(() => {
    const calls: unknown[] = [];
    (window as unknown as { __shared: unknown[] }).__shared = calls;
    Object.defineProperty(Navigator.prototype, 'share', {
      configurable: true,
      value: (data: ShareData) => {
        calls.push({
          title: data.title,
          text: data.text,
          url: data.url,
          files: (data.files ?? []).map((f) => ({ name: f.name, type: f.type, size: f.size })),
        });
        return Promise.resolve();
      },
    });
    Object.defineProperty(Navigator.prototype, 'canShare', {
      configurable: true,
      value: () => true,
    });
  });
  return () => page.evaluate(() => (window as unknown as { __shared: Shared[] }).__shared);
}

describe('link previews', () => {
  it('a crawler reads the survey’s title, description, image and card from plain HTML', async () => {
    const s = await sampleSurvey((x) => x.name === 'Time Travel');
    // The share link as people paste it, fetched without a browser (no script runs).
    const res = await fetch(s.shareable_link.replace(/^https?:\/\/[^/]+/, baseURL));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toBe('Time Travel · Candor');
    expect(meta(html, 'og:title')).toBe('Time Travel · Candor');
    expect(meta(html, 'og:description')).toContain(s.cover_headline);
    expect(meta(html, 'og:url')).toBe(s.shareable_link);
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    const image = meta(html, 'og:image')!;
    expect(image).toMatch(new RegExp(`^${baseURL}/api/v1/surveys/${s.gid}/share-image\\.png\\?v=`));
    // The image itself: a 1200x630 PNG any site may show.
    const png = await fetch(image);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);
    // A survey that is not out gets the site's page, not a preview.
    const unknown = await fetch(`${baseURL}/surveys/00000000-0000-4000-8000-000000000000`);
    expect(/<title>([^<]*)<\/title>/.exec(await unknown.text())?.[1]).toBe(
      'Candor: tough questions, honest answers',
    );
  });
});

describe('the share sheet', () => {
  it('on a phone, Share hands the sheet the survey’s link and name only', async ({ people }) => {
    const s = await sampleSurvey((x) => x.name === 'Time Travel');
    const { context, page, watch } = await people.newPage(phone);
    const shared = await withShareSheet(page);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).waitFor();
    await screenshot(page, 'share-intro-phone');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await expect.poll(shared).toHaveLength(1);
    const [call] = await shared();
    expect(call).toEqual({
      title: 'Time Travel',
      text: 'Time Travel on Candor: where do you stand?',
      url: s.shareable_link,
      files: [],
    });
    // The link is the survey's, with nothing added: no answer, token or number.
    expect(new URL(call!.url!).search).toBe('');
    expect(await axeViolations(page)).toEqual([]);
    watch.assertNoErrors();
    await context.close();
  });
});

describe('the result card', () => {
  it.for(sizes)(
    'on a %s, leaves out my answer unless I tick the box, and sends nothing',
    async ([size, options], { people }) => {
      const s = await sampleSurvey((x) => x.name === 'Time Travel');
      const q = s.questions[0]!;
      const { context, page, watch } = await people.newPage({
        ...options,
        reducedMotion: 'reduce',
      });
      const shared = await withShareSheet(page);
      await page.goto(`/surveys/${s.gid}`);
      await page.getByRole('button', { name: 'Start the survey' }).click();
      await questionHeading(page, q.question).waitFor();
      // The first choice that is not the leave-blank one.
      const first = page.getByRole('list', { name: 'Answers' }).getByRole('button').first();
      const given = (await first.textContent())!.trim();
      await first.click();
      await page.getByRole('heading', { name: 'How everyone answered' }).waitFor();

      // From here on, nothing the page sends may carry the answer.
      const sent: string[] = [];
      page.on('request', (r) => sent.push(`${r.method()} ${r.url()} ${r.postData() ?? ''}`));
      await page.getByRole('button', { name: /^Share this result/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Share this result' });
      const card = dialog.getByRole('img');
      await expect.poll(() => card.getAttribute('data-card-mine')).toBe('hidden');
      const alt = (await card.getAttribute('alt'))!;
      expect(alt).toContain(q.question);
      expect(alt).toContain('My answer is not on the card.');
      expect(alt).not.toContain('(my answer)');
      await screenshot(page, `share-card-${size}`, { fullPage: false });
      expect(await axeViolations(page)).toEqual([]);

      await dialog.getByRole('checkbox', { name: 'Show my answer on the card' }).check();
      await expect.poll(() => card.getAttribute('data-card-mine')).toBe('shown');
      expect(await card.getAttribute('alt')).toContain(`My answer: ${given}.`);
      await screenshot(page, `share-card-mine-${size}`, { fullPage: false });

      await dialog.getByRole('button', { name: 'Share image' }).click();
      await expect.poll(shared).toHaveLength(1);
      const [call] = await shared();
      expect(call!.files).toEqual([
        { name: 'candor-result.png', type: 'image/png', size: expect.any(Number) as number },
      ]);
      expect(call!.files[0]!.size).toBeGreaterThan(10_000);
      expect(call!.text).toContain(s.shareable_link);
      expect(call!.url).toBeUndefined();
      // The card was drawn and shared in the page: no request went out with it.
      expect(sent.filter((r) => !r.startsWith('GET '))).toEqual([]);
      expect(sent.filter((r) => r.includes(encodeURIComponent(given)))).toEqual([]);
      watch.assertNoErrors();
      await context.close();
    },
  );
});
