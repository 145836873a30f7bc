// A timed video question respects its video (issue 30, point 5): the clock starts when the
// video ends, not when the screen opens; a video that fails to load says so, offers a link and
// "skip this one", and the clock never records a blank for it.
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { sampleSurvey } from './api';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { questionHeading, screenshot } from './screens';

const timeTravel = () => sampleSurvey((s) => s.name === 'Time Travel');

/** Answers the first question and goes on to the second, the timed one with a video. */
async function toTimedVideo(page: Page, gid: string, first: string, timed: string) {
  await page.goto(`/surveys/${gid}`);
  await page.getByRole('button', { name: 'Start the survey' }).click();
  await questionHeading(page, first).waitFor();
  await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
  await page.getByRole('button', { name: /Skip rating|Next/ }).click();
  await questionHeading(page, timed).waitFor();
}

describe.each([
  ['phone', phone],
  ['desktop', desktop],
] as const)('a timed video question on a %s', (size, options) => {
  it('starts its clock when the video ends, not when the screen opens', async ({ people }) => {
    const s = await timeTravel();
    const timed = s.questions[1]!;
    expect(timed.timer_length).toBe('0:00:30');
    const { context, page, watch } = await people.newPage(options);
    await toTimedVideo(page, s.gid, s.questions[0]!.question, timed.question);
    // No clock yet, however long the person takes before playing.
    await page
      .getByText('You have 30 seconds to answer, counted from the end of the video.')
      .waitFor();
    await page.waitForTimeout(1500);
    await expect(page.locator('.countdown').count()).resolves.toBe(0);
    await screenshot(page, `video-timer-waiting-${size}`);

    // Played to its end (muted, as a test may autoplay), the clock starts with all its time.
    await page.evaluate(async () => {
      const video = document.querySelector<HTMLVideoElement>('.question-video video')!;
      video.muted = true;
      await video.play();
    });
    await page.locator('.countdown__text').waitFor({ timeout: 20_000 });
    const left = Number(
      /(\d+)s left/.exec(await page.locator('.countdown__text').innerText())?.[1],
    );
    expect(left).toBeGreaterThanOrEqual(28);
    await expect(page.getByText(/counted from the end of the video/).count()).resolves.toBe(0);
    watch.assertNoErrors();
    await context.close();
  });

  it('says a video failed, with a link and "skip this one", and never runs out for it', async ({
    people,
  }) => {
    const s = await timeTravel();
    const timed = s.questions[1]!;
    const { context, page, watch } = await people.newPage(options);
    // The clip of the timed question cannot be loaded.
    await page.route(/time-travel-2\.mp4/, (route) => route.abort('failed'));
    await toTimedVideo(page, s.gid, s.questions[0]!.question, timed.question);
    const failed = page.getByRole('alert').filter({ hasText: 'This video could not be loaded' });
    await failed.waitFor({ timeout: 20_000 });
    await expect(
      failed.getByRole('link', { name: 'Open the video in a new tab' }).count(),
    ).resolves.toBe(1);
    await expect(page.locator('.countdown').count()).resolves.toBe(0);
    await screenshot(page, `video-failed-${size}`);
    // Skipping is the person's own act: it goes on, as a blank they chose.
    await failed.getByRole('button', { name: 'skip this one' }).click();
    await page.locator('.question__text').waitFor({ state: 'detached' });
    await expect(page.getByText('Time’s up').count()).resolves.toBe(0);
    // The load failure is what this test made; the page shows no other error.
    expect(watch.errors.filter((e) => !/Failed to load resource|ERR_FAILED/.test(e))).toEqual([]);
    await context.close();
  });
});
