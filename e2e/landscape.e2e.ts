// The spec's landscape alert (touch devices, in portrait or below 560 px of height), shown where
// it matters: on video and graph screens, worded for the screen's shape, dismissed for the tab.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { sampleSurvey } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { type People, it } from './fixtures';
import { logIn, questionHeading, screenshot } from './screens';

const baseURL = inject('baseURL');
const alert = (page: Page) => page.locator('.landscape-alert');
const timeTravel = () => sampleSurvey((s) => s.name === 'Time Travel');

const phoneLandscape: BrowserContextOptions = { ...phone, viewport: { width: 844, height: 390 } };
const tabletLandscape: BrowserContextOptions = { ...phone, viewport: { width: 1180, height: 820 } };

/** A member logged in through the screens, on a browser of this shape. */
async function memberAt(people: People, options: BrowserContextOptions) {
  const who = await people.member();
  const opened = await people.newPage(options, who);
  await logIn(opened.page, who);
  await opened.page.waitForURL(`${baseURL}/`);
  return opened;
}

/** Opens a survey and starts it. */
async function start(page: Page, gid: string) {
  await page.goto(`/surveys/${gid}`);
  await page.getByRole('button', { name: /Start the survey|Continue/ }).click();
}

async function answerFirstChoice(page: Page) {
  await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
}

describe('the landscape alert', () => {
  it('on a phone in portrait: not on the home page; on video and graph screens, until "Got it" for the tab', async ({
    people,
  }) => {
    const s = await timeTravel();
    const { context, page, watch } = await memberAt(people, phone);
    await page.locator('.brick').first().waitFor();
    await expect(alert(page).count()).resolves.toBe(0);

    await start(page, s.gid);
    await questionHeading(page, s.questions[0]!.question).waitFor();
    await expect(alert(page).innerText()).resolves.toMatch(/Turn your phone sideways.*video/);
    await screenshot(page, 'landscape-alert-video-phone');
    await answerFirstChoice(page);
    await page.locator('.chart--bars').first().waitFor();
    await expect(alert(page).innerText()).resolves.toMatch(/Turn your phone sideways.*graph/);
    // The rating screen's own controls come before nothing: the alert is no trap for focus.
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'landscape-alert-graph-phone');

    await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    await questionHeading(page, s.questions[1]!.question).waitFor();
    await page.getByRole('button', { name: 'Got it' }).click();
    await expect(alert(page).count()).resolves.toBe(0);
    await answerFirstChoice(page);
    await page.locator('.chart--bars').first().waitFor();
    await expect(alert(page).count()).resolves.toBe(0);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: s.questions[1]!.question }).waitFor();
    await page.locator('.chart--bars').first().waitFor();
    await expect(alert(page).count()).resolves.toBe(0);
    // Another survey screen of the same tab: still dismissed.
    await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    await questionHeading(page, s.questions[2]!.question).waitFor();
    await expect(alert(page).count()).resolves.toBe(0);
    watch.assertNoErrors();
    await context.close();
  });

  it('on a phone in landscape: the video sits beside the question, and the alert does not ask to turn it', async ({
    people,
  }) => {
    const s = await timeTravel();
    const { context, page, watch } = await people.newPage(phoneLandscape);
    await page.goto('/');
    await page.locator('.brick').first().waitFor();
    await expect(alert(page).count()).resolves.toBe(0);
    await start(page, s.gid);
    const heading = questionHeading(page, s.questions[0]!.question);
    await heading.waitFor();
    const said = await alert(page).innerText();
    expect(said).not.toMatch(/landscape|turn|sideways/i);
    expect(said).toMatch(/full screen/i);
    const video = await page.locator('.question-video').boundingBox();
    const text = await heading.boundingBox();
    expect(video!.x + video!.width).toBeLessThanOrEqual(text!.x);
    expect(video!.y).toBeLessThan(text!.y + text!.height);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'landscape-video-phone-landscape');
    watch.assertNoErrors();
    await context.close();
  });

  it('on a desktop and a tall landscape tablet: no alert, the video beside the question', async ({
    people,
  }) => {
    const s = await timeTravel();
    for (const [shape, options] of [
      ['desktop', desktop],
      ['tablet-landscape', tabletLandscape],
    ] as const) {
      const { context, page, watch } = await people.newPage(options);
      await start(page, s.gid);
      const heading = questionHeading(page, s.questions[0]!.question);
      await heading.waitFor();
      await page.locator('.question-video video').waitFor();
      await expect(alert(page).count()).resolves.toBe(0);
      const video = await page.locator('.question-video').boundingBox();
      const text = await heading.boundingBox();
      expect(video!.x + video!.width).toBeLessThanOrEqual(text!.x);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `landscape-video-${shape}`);
      watch.assertNoErrors();
      await context.close();
    }
  });
});
