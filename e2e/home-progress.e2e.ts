// A home that knows you (issue 30, point 3): each brick says where the person on this device
// stands with its survey (new, continue n/N, done), read from this device's records only, with
// a time estimate and the published number of people who answered (never a count of its own).
import type { SurveyDetail, SurveySummary } from '@candor/contracts';
import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { listedSurveys, sampleSurvey } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { logIn, questionHeading, screenshot } from './screens';

const SURVEY = 'Time Travel';

const brick = (page: Page, name: string): Locator =>
  page.locator('.brick', { has: page.locator('.brick__name', { hasText: name }) });

/** The brick's state badge as a person sees it (its words for screen readers apart). */
const stateOf = (b: Locator) => b.locator('.brick__state [aria-hidden="true"]');

/** Answers the question on screen with its first choice, then goes on past its graph. */
async function answerAndGoOn(page: Page, q: SurveyDetail['questions'][number]) {
  await questionHeading(page, q.question).waitFor();
  await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
  await page.getByRole('button', { name: /Skip rating|Next/ }).click();
}

/** Back to the home page the way a person goes: the navbar's Candor link. */
async function home(page: Page) {
  await page.getByRole('link', { name: 'Candor home' }).click();
  await page.getByRole('heading', { name: 'Surveys', exact: true }).waitFor();
}

/** What the list publishes of how many answered (the first question's published number). */
async function published(name: string): Promise<SurveySummary['respondents']> {
  return (await listedSurveys()).find((s) => s.name === name)!.respondents;
}

describe.each([
  ['phone', phone],
  ['desktop', desktop],
] as const)('the home page on a %s', (size, options) => {
  it('says new, then "Continue n/N" with the time left, then done; a fresh visitor sees new', async ({
    people,
  }) => {
    const s = await sampleSurvey((x) => x.name === SURVEY);
    expect(s.questions.length).toBeGreaterThan(1);
    expect(s.visitor_questions).toBeGreaterThanOrEqual(s.questions.length);
    const { context, page, watch } = await people.newPage(options);
    await page.goto('/');
    const tile = brick(page, SURVEY);
    // Untouched on this device: new, with the whole survey's time.
    await expect.poll(() => stateOf(tile).textContent()).toBe('New');
    await expect(tile.locator('.brick__meta').textContent()).resolves.toMatch(
      new RegExp(`^${s.questions.length} questions · about \\d+ min(?! left)`),
    );
    // How many answered: the list's published number, or nothing at all (never 0).
    const n = await published(SURVEY);
    await expect(tile.locator('.brick__people').count()).resolves.toBe(n ? 1 : 0);
    if (n) {
      await expect(tile.locator('.brick__people').textContent()).resolves.toBe(
        `About ${n.toLocaleString('en-US')} ${n === 1 ? 'person' : 'people'} answered`,
      );
    }
    await screenshot(page, `home-progress-new-${size}`, { fullPage: false });

    // One question answered as a visitor: continue 1/N, the rest's time, new gone.
    await tile.getByRole('link').click();
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await answerAndGoOn(page, s.questions[0]!);
    await questionHeading(page, s.questions[1]!.question).waitFor();
    await home(page);
    await expect.poll(() => stateOf(tile).textContent()).toBe(`Continue 1/${s.questions.length}`);
    await expect(
      tile.getByText(`Continue: 1 of ${s.questions.length} answered`).count(),
    ).resolves.toBe(1);
    await expect(tile.locator('.brick__meta').textContent()).resolves.toMatch(/about \d+ min left/);
    await expect(tile.locator('.badge--new').count()).resolves.toBe(0);
    await expect(tile.locator('.brick__progress').isVisible()).resolves.toBe(true);
    // The other surveys are still new to this device.
    await expect(
      page.locator('.brick__state', { hasText: /^New/ }).count(),
    ).resolves.toBeGreaterThan(0);
    expect(await axeViolations(page, 'moderate')).toEqual([]);
    await tile.scrollIntoViewIfNeeded();
    await screenshot(page, `home-progress-continue-${size}`, { fullPage: false });

    // The rest answered: done, with neither new nor a time left.
    await tile.getByRole('link').click();
    // Back where they left it (the saved place), or its intro's "Continue".
    const next = questionHeading(page, s.questions[1]!.question);
    const resume = page.getByRole('button', { name: /Continue/ });
    await next.or(resume).waitFor();
    if (await resume.isVisible()) await resume.click();
    for (const q of s.questions.slice(1)) await answerAndGoOn(page, q);
    await page.waitForURL(`**/surveys/${s.gid}`);
    await home(page);
    await expect.poll(() => stateOf(tile).textContent()).toBe('Done');
    await expect(tile.locator('.badge--new').count()).resolves.toBe(0);
    await expect(tile.locator('.brick__progress').count()).resolves.toBe(0);
    await expect(tile.locator('.brick__meta').textContent()).resolves.not.toMatch(/min/);
    // A reload reads the same from the device.
    await page.reload();
    await expect.poll(() => stateOf(tile).textContent()).toBe('Done');
    expect(await axeViolations(page, 'moderate')).toEqual([]);
    await screenshot(page, `home-progress-done-${size}`);
    watch.assertNoErrors();

    // Someone else, on another device: new to them.
    const fresh = await people.newPage(options);
    await fresh.page.goto('/');
    await expect.poll(() => stateOf(brick(fresh.page, SURVEY)).textContent()).toBe('New');
    fresh.watch.assertNoErrors();
    await fresh.context.close();
    await context.close();
  });
});

describe("a member's home page", () => {
  it('says continue from what their device answered, and never asks the server which they answered', async ({
    people,
  }) => {
    const s = await sampleSurvey((x) => x.name === 'Consent in Practice');
    const member = await people.member();
    const { context, page, watch } = await people.newPage(phone, member);
    await logIn(page, member);
    await page.getByRole('link', { name: 'My mirror' }).waitFor();
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await answerAndGoOn(page, s.questions[0]!);
    await questionHeading(page, s.questions[1]!.question).waitFor();

    // Home again, in a new page load: every API request it makes is recorded.
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/')) asked.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await page.goto('/');
    const tile = brick(page, s.name);
    await expect.poll(() => stateOf(tile).textContent()).toBe(`Continue 1/${s.questions.length}`);
    await expect(stateOf(brick(page, SURVEY)).textContent()).resolves.toBe('New');
    await page.waitForTimeout(500);
    // Decision 020: nothing per account about answering (the spec's attempted questions); the
    // bricks' state came from this device. The one read of the account's answers given before
    // credentials (the old path's list, copied to the device once a page) is not asked by them.
    expect(asked.filter((r) => /attempted|my-data|answers/.test(r))).toEqual([]);
    await screenshot(page, 'home-progress-member-phone', { fullPage: false });
    watch.assertNoErrors();
    await context.close();
  });
});
