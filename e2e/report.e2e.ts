// The end results of a long survey read like a report (issue 30, point 4): the survey's name as
// the page's heading, what the numbers mean said once, one row per question whose graph opens
// in place with its share control, and a page on a phone far shorter than every graph at once.
import type { BrowserContextOptions } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { sampleSurvey } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { answerInPage, logIn, screenshot } from './screens';

const baseURL = inject('baseURL');

const sizes = [
  ['phone', phone],
  ['desktop', desktop],
] as const satisfies ReadonlyArray<readonly [string, BrowserContextOptions]>;

const APPROXIMATE = /^Approximate: every number is rounded and lightly blurred/;

describe('the end results of a long survey', () => {
  it.for(sizes)(
    'on a %s: the survey’s name, the notes once, a row per question, a graph opened in place',
    { timeout: 120_000 },
    async ([size, options], { people }) => {
      const s = await sampleSurvey((x) => x.name === 'Honest About Sex');
      const n = s.questions.length;
      expect(n).toBeGreaterThanOrEqual(15);
      expect(s.variant.startsWith('v2_')).toBe(true);

      // A member finishes the survey in the page.
      const who = await people.member();
      const { page, watch } = await people.newPage(options, who);
      await logIn(page, who);
      await page.waitForURL(`${baseURL}/`);
      const last = s.questions.at(-1)!;
      await answerInPage(page, s, n - 1);
      if (last.type === 'Open') {
        await page.getByLabel('Your answer').fill('Honestly, it depends on the day.');
        await page.getByRole('button', { name: 'Send my answer' }).click();
      } else {
        await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
      }
      await page.getByRole('button', { name: /Skip rating|Next/ }).click();

      // The survey's name heads the page, the only h1.
      const heading = page.getByRole('heading', { level: 1, name: s.name, exact: true });
      await heading.waitFor();
      await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1);

      // A row per question, each a closed disclosure; every row's summary loaded.
      const list = page.locator('ol.results__list');
      const toggles = list.locator('h2 > button[aria-expanded]');
      await expect.poll(() => toggles.count()).toBe(n);
      await expect(list.locator('button[aria-expanded="true"]').count()).resolves.toBe(0);
      await expect.poll(() => list.getByText('Loading…').count()).toBe(0);
      await expect(page.getByRole('figure').count()).resolves.toBe(0);

      // What the numbers mean: said once for the page, not under every graph.
      await expect(page.getByText(APPROXIMATE).count()).resolves.toBe(1);
      expect(await page.getByText(/^Results move in steps/).count()).toBeLessThanOrEqual(1);

      // On a phone, far shorter than 15 graphs one after another (11,600 px before).
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      if (size === 'phone') expect(height).toBeLessThan(1200 + 220 * n);
      expect(await axeViolations(page, 'moderate')).toEqual([]);
      await screenshot(page, `report-${size}`);

      // Open the first closed question's graph in place: focus stays on its button, the graph
      // follows it, named by its question, with its own margin and its share control.
      const q = s.questions.find((x) => x.type === 'Closed')!;
      const row = list.locator('li', { has: page.getByRole('heading', { name: q.question }) });
      const toggle = row.getByRole('button', { name: new RegExp(`^${escape(q.question)}`) });
      await toggle.click();
      await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
      await expect(
        toggle.evaluate(
          (el) => el === document.activeElement || el.contains(document.activeElement),
        ),
      ).resolves.toBe(true);
      const graph = row.getByRole('figure', { name: q.question });
      await graph.waitFor();
      await expect(
        graph.getByText(/Each share is within ±\d+ points? of the true one/).count(),
      ).resolves.toBe(1);
      await expect(page.getByText(APPROXIMATE).count()).resolves.toBe(1);
      const share = row.getByRole('button', { name: /^Share this result/ });
      await share.waitFor();
      expect(await axeViolations(page, 'moderate')).toEqual([]);
      await screenshot(page, `report-open-${size}`);
      await share.click();
      const dialog = page.getByRole('dialog', { name: 'Share this result' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(false);

      // It closes again, and Finish goes on to the outro.
      await toggle.click();
      await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
      await expect(row.getByRole('figure').count()).resolves.toBe(0);
      await page.getByRole('button', { name: 'Finish' }).click();
      await page.getByRole('heading', { name: 'Thank you for your candour' }).waitFor();
      watch.assertNoErrors();
    },
  );
});

/** A question's text as a literal in a regular expression. */
function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
