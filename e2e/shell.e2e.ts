import type { BrowserContextOptions } from 'playwright-core';
import { describe, expect } from 'vitest';
import { homeSurveys, listedSurveys } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { type People, it } from './fixtures';
import { screenshot } from './screens';

async function open(people: People, options: BrowserContextOptions, path: string) {
  const { context, page, watch } = await people.newPage(options);
  await page.goto(path);
  return { context, page, watch };
}

describe.each([
  ['phone', phone],
  ['desktop', desktop],
] as const)('on a %s', (size, options) => {
  it('home shows the selling points and the bricks in slot order', async ({ people }) => {
    const surveys = await homeSurveys();
    // The six sample surveys, and any an authoring test published before this file ran.
    expect(surveys.length).toBeGreaterThanOrEqual(6);
    const { context, page, watch } = await open(people, options, '/');
    await page.getByRole('heading', { name: 'Surveys', exact: true }).waitFor();
    const names = await page.locator('.brick__name').allTextContents();
    expect(names).toEqual(surveys.map((s) => s.name));
    // A first visit: every open survey is new to this device (issue 30), a closed one never.
    const taking = surveys.filter((s) => s.status === 'Open');
    await expect.poll(() => page.locator('.badge--new').count()).toBe(taking.length);
    const closed = surveys.find((s) => s.status === 'Closed')!;
    await expect(
      page.locator('.brick', { hasText: closed.name }).getByText('Closed · results only').count(),
    ).resolves.toBe(1);
    for (const point of ['Tough choices', 'Taboos', 'Verified humans only']) {
      await expect(page.getByRole('heading', { name: point }).count()).resolves.toBe(1);
    }
    await expect(page.title()).resolves.toContain('Candor');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `home-${size}`);
    watch.assertNoErrors();
    await context.close();
  });

  it('the genre filter narrows the bricks and can be cleared', async ({ people }) => {
    const { context, page, watch } = await open(people, options, '/');
    await page.locator('.brick').first().waitFor();
    const all = await page.locator('.brick').count();
    await page
      .getByRole('group', { name: 'Filter by genre' })
      .getByRole('button', { name: 'Money' })
      .click();
    await expect.poll(() => page.url()).toContain('genre=Money');
    const filtered = await page.locator('.brick').count();
    expect(filtered).toBeGreaterThan(0);
    expect(filtered).toBeLessThan(all);
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await expect.poll(() => page.locator('.brick').count()).toBe(all);
    watch.assertNoErrors();
    await context.close();
  });

  it('a brick opens the survey intro', async ({ people }) => {
    const [first] = await homeSurveys();
    const { context, page, watch } = await open(people, options, '/');
    await page.locator('.brick__link').first().click();
    await page.waitForURL(`**/surveys/${first!.gid}`);
    await page.getByRole('heading', { level: 1, name: first!.name }).waitFor();
    await expect(
      page.getByText(/3 questions\. After each one, rate how interesting/).count(),
    ).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Start the survey' }).isVisible()).resolves.toBe(
      true,
    );
    await expect(page.title()).resolves.toBe(`${first!.name} · Candor`);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `intro-${size}`);
    watch.assertNoErrors();
    await context.close();
  });

  it('the share link opens the survey', async ({ people }) => {
    const surveys = await listedSurveys();
    const closed = surveys.find((s) => s.status === 'Closed')!;
    const { context, page, watch } = await open(
      people,
      options,
      `/${closed.name.replace(/ /g, '_')}/${closed.gid}`,
    );
    await page.waitForURL(`**/surveys/${closed.gid}`);
    await page.getByRole('heading', { level: 1, name: closed.name }).waitFor();
    await expect(page.getByText(/This survey closed/).count()).resolves.toBe(1);
    await screenshot(page, `intro-closed-${size}`);
    watch.assertNoErrors();
    await context.close();
  });

  it('an unknown page shows the not-found page', async ({ people }) => {
    const { context, page, watch } = await open(people, options, '/this/page/does-not-exist');
    await page.getByRole('heading', { name: 'This page does not exist' }).waitFor();
    await screenshot(page, `not-found-${size}`);
    await page.getByRole('link', { name: 'Back to all surveys' }).click();
    await page.getByRole('heading', { name: 'Surveys', exact: true }).waitFor();
    watch.assertNoErrors();
    await context.close();
  });

  it('an unknown survey shows a clear message', async ({ people }) => {
    const { context, page } = await open(
      people,
      options,
      '/surveys/00000000-0000-4000-8000-000000000000',
    );
    await page.getByRole('heading', { name: 'We could not find this survey' }).waitFor();
    await context.close();
  });
});

describe('shell rules', () => {
  it('an old Chrome sees only the outdated-browser message', async ({ people }) => {
    const { context, page } = await open(
      people,
      {
        ...desktop,
        userAgent:
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.130 Safari/537.36',
      },
      '/',
    );
    const message =
      'You are using an outdated browser. It can be updated via your browser settings.';
    await page.getByText(message).waitFor();
    await expect(page.locator('body').innerText()).resolves.toBe(message);
    await screenshot(page, 'outdated-desktop');
    await context.close();
  });

  it('a current browser does not see the outdated message', async ({ people }) => {
    const { context, page } = await open(people, desktop, '/');
    await page.locator('.brick').first().waitFor();
    await expect(page.getByText('You are using an outdated browser').count()).resolves.toBe(0);
    await context.close();
  });
});
