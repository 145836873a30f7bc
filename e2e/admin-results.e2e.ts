import type { SurveyCodebook, SurveyExport } from '@candor/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { desktop } from './chromium';
import { it, test } from './fixtures';
import type { Person } from './people';
import {
  openAdmin as openStaffArea,
  readDownload,
  screenshot,
  staffTab as tab,
  toast,
} from './screens';

const baseURL = inject('baseURL');

test.override('contextOptions', { reducedMotion: 'reduce' });

const tablet = { viewport: { width: 820, height: 1180 } };

async function openAdmin(page: Page, admin: Person) {
  await openStaffArea(page, admin);
  // The screenshots show the screens, not the login's toast.
  await toast(page, 'Logged In').waitFor({ state: 'detached' });
}

/**
 * Neither the page nor anything in it scrolls sideways, once the charts have followed the new
 * width (they measure their box after a resize, a frame or two later).
 */
async function noSidewaysScroll(page: Page) {
  await expect
    .poll(() => wideElements(page), { message: `wider than the page at ${page.url()}` })
    .toEqual([]);
}

function wideElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return Array.from(document.querySelectorAll('body *'))
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .slice(0, 8)
      .map(
        (e) =>
          `${e.tagName}.${e.getAttribute('class')} ${Math.round(e.getBoundingClientRect().right)}`,
      );
  });
}

const question = 'A machine can tell you the exact date of your death. Do you look?';

describe('results and analytics in the staff area', () => {
  it('an admin reads a question’s published results, breaks them down and exports the survey', async ({
    people,
    admin,
  }) => {
    const { context, page, watch } = await people.newPage(desktop, admin);
    await openAdmin(page, admin);
    await tab(page, 'Results').click();
    await page.waitForURL(`${baseURL}/admin/results`);
    await page.getByRole('heading', { level: 1, name: 'Results' }).waitFor();
    await page.getByText('Staff see the same privacy-protected numbers as members').waitFor();

    await page
      .getByRole('combobox', { name: 'Survey', exact: true })
      .selectOption({ label: 'Time Travel' });
    await page
      .getByRole('combobox', { name: 'Question', exact: true })
      .selectOption({ label: `2. ${question}` });
    await page.waitForURL(/survey=.*question=/);
    await page.getByRole('heading', { level: 2, name: question }).waitFor();

    // The graph members see: 60 made-up answers pass the privacy threshold.
    const graph = page.getByRole('figure', { name: 'How everyone answered' });
    await graph.locator('.chart--bars').waitFor();
    await expect(graph.getByText(/^[\d,]+ verified people$/).count()).resolves.toBe(1);
    // Insights: the seeded answers have no timings or ratings, and the screen says so.
    const insights = page.getByRole('complementary', { name: 'Answer quality and interest' });
    await insights
      .getByText(/^Median answer time|^Not enough timed answers yet \(\d+ of 10 needed\)$/)
      .first()
      .waitFor();
    await insights
      .getByText(/^Mean interest|^Not enough ratings yet \(\d+ of 10 needed\)$/)
      .first()
      .waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-results-desktop');

    // How far people got: each question's published count, as a share of the first.
    const reach = page.getByRole('region', { name: 'How far people got' });
    const rows = reach.getByRole('row');
    await expect.poll(() => rows.count()).toBe(4);
    await rows
      .nth(1)
      .getByText(/^About [\d,]+ \(±\d+\)$/)
      .waitFor();
    await rows
      .nth(1)
      .getByText(/^100%$/)
      .waitFor();
    await reach.scrollIntoViewIfNeeded();
    await screenshot(page, 'admin-results-reach-desktop');

    // Broken down by gender: groups by name, from the staff endpoint.
    const gender = graph.getByRole('button', { name: 'Gender' });
    await gender.click();
    // The switch re-renders after the click: wait for it to show as pressed.
    await graph.locator('button[aria-pressed="true"]', { hasText: 'Gender' }).waitFor();
    await graph.locator('.groups__item').first().waitFor();
    await expect(graph.getByText('Women').count()).resolves.toBe(1);
    await screenshot(page, 'admin-results-gender-desktop');

    // Exports: the server's file names, a CSV with its header, JSON with every question.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    const csvText = await readDownload(csv);
    expect(csvText.split('\n')[0]!.startsWith('"question_position"')).toBe(true);
    expect(csvText.split('\n')[0]).toContain('"margin","sampling_margin","privacy_margin"');
    expect(csvText).toContain(question);

    // How sure the numbers are: the model, for operators, one click away.
    await page.getByText('How sure the numbers are (the ± margins)').click();
    await expect(
      page.getByText(/95% credibility interval, as AAPOR advises for opt-in samples/).isVisible(),
    ).resolves.toBe(true);
    await screenshot(page, 'admin-results-method-desktop');

    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    expect(json.suggestedFilename()).toMatch(/\.json$/);
    const body = JSON.parse(await readDownload(json)) as SurveyExport;
    expect(body.name).toBe('Time Travel');
    expect(body.questions).toHaveLength(3);
    // The codebook says what each column means, the CSV's first line in order.
    const [book] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download codebook' }).click(),
    ]);
    expect(book.suggestedFilename()).toMatch(/\.codebook\.json$/);
    const codebook = JSON.parse(await readDownload(book)) as SurveyCodebook;
    expect(codebook.questions).toHaveLength(3);
    expect(codebook).toEqual(body.codebook);

    // Reload keeps the choice (it lives in the address).
    await page.reload();
    await page.getByRole('heading', { level: 2, name: question }).waitFor();

    // Tablet and phone: nothing scrolls sideways.
    for (const width of [820, 390]) {
      await page.setViewportSize({ width, height: 1180 });
      await page.locator('.chart--bars').first().waitFor();
      await noSidewaysScroll(page);
    }
    await page.setViewportSize({ width: 820, height: 1180 });
    await screenshot(page, 'admin-results-tablet');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'admin-results-phone');
    await reach.scrollIntoViewIfNeeded();
    await screenshot(page, 'admin-results-reach-phone', { fullPage: false });
    watch.assertNoErrors();
    await context.close();
  });

  it('an admin sees page views per day, top pages and referring sites for 7, 30 or 90 days', async ({
    people,
    admin,
  }) => {
    const { context, page, watch } = await people.newPage(desktop, admin);
    await openAdmin(page, admin);
    await tab(page, 'Analytics').click();
    await page.waitForURL(`${baseURL}/admin/analytics`);
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();

    // The production build counts every navigation of these tests (analytics is on by default).
    const total = page.locator('.analytics__number');
    await total.waitFor();
    expect(Number((await total.textContent())!.replace(/\D/g, ''))).toBeGreaterThan(0);
    await page.getByText(/page views? in the last 30 days/).waitFor();
    await page.locator('.views-chart__columns').waitFor();
    const pages = page.getByRole('table', { name: 'Top pages' });
    await expect(
      pages.getByRole('rowheader', { name: '/login', exact: true }).count(),
    ).resolves.toBe(1);
    // Staff's own work is not traffic: these tests' many staff pages are in no figure.
    await expect(pages.getByRole('rowheader', { name: /^\/admin/ }).count()).resolves.toBe(0);
    await page.getByRole('table', { name: 'Top referring sites' }).waitFor();
    // The chart's table alternative: one row per day (and the header).
    const perDay = page.getByRole('table', { name: 'Page views per day, oldest first' });
    await expect(perDay.getByRole('row').count()).resolves.toBe(31);
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-analytics-desktop');

    const seven = page
      .getByRole('group', { name: 'Period' })
      .getByRole('button', { name: '7 days' });
    await seven.click();
    await page.waitForURL(/days=7/);
    await page
      .getByRole('group', { name: 'Period' })
      .locator('button[aria-pressed="true"]', { hasText: '7 days' })
      .waitFor();
    await page.getByText(/page views? in the last 7 days/).waitFor();
    await expect(perDay.getByRole('row').count()).resolves.toBe(8);

    await page.setViewportSize(tablet.viewport);
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-analytics-tablet');
    await page.setViewportSize({ width: 390, height: 844 });
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-analytics-phone');
    watch.assertNoErrors();
    await context.close();
  });
});
