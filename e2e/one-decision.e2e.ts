// One decision per screen (issue 30, point 1): after each kind of answer the way on is in view
// without scrolling, at a phone's size and a desktop's; after a v1 choice the headline of the
// graph is too, above it; and the interest rating is asked after one question in four, not
// after every one.
import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { sampleSurvey } from './api';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { answerOnScreen, logIn, questionHeading, screenshot } from './screens';

const sizes = [
  ['phone', phone],
  ['desktop', desktop],
] as const;

/** The element's box lies inside the viewport, whole (once the screen's slide-in ended). */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running'),
  );
  const box = await locator.boundingBox();
  const view = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= view.height + 0.5;
}

const wayOn = (page: Page) => page.getByRole('button', { name: /^(Skip rating and go on|Next)/ });

describe('one decision per screen', () => {
  it.for(sizes)(
    'on a %s, the way on and the headline are in view after every answer, and the rating comes one question in four',
    { timeout: 240_000 },
    async ([size, options], { people }) => {
      const member = await people.member();
      const { context, page, watch } = await people.newPage(options, member);
      await logIn(page, member);
      await page.getByRole('link', { name: 'My mirror' }).waitFor();

      // A v1 survey: closed questions with their graph, and a written one.
      const v1 = await sampleSurvey((x) => x.name === 'Everyday Taboos');
      await page.goto(`/surveys/${v1.gid}`);
      await page.getByRole('button', { name: 'Start the survey' }).click();
      let rated = 0;
      for (const [i, q] of v1.questions.entries()) {
        await answerOnScreen(page, q);
        await page.getByText(/^Your answer: /).waitFor();
        if (q.type === 'Closed') {
          const headline = page.locator('.graph__headline');
          await headline.waitFor();
          expect(await inView(page, headline), `headline of question ${i + 1}`).toBe(true);
          // Not under the band that holds the way on.
          const bar = await page.locator('.feedback__actions').boundingBox();
          const line = await headline.boundingBox();
          expect(line!.y + line!.height).toBeLessThanOrEqual(bar!.y + 0.5);
        }
        expect(await inView(page, wayOn(page)), `way on after question ${i + 1}`).toBe(true);
        const unfold = page.getByRole('button', { name: /^See all \d+ answers$/ });
        if (q.type === 'Closed') {
          // The own bar is in view too; on a phone the other answers are a tap away.
          const own = page.locator('.chart--bars .bars__row--mine');
          expect(await inView(page, own), `own bar of question ${i + 1}`).toBe(true);
          if (size === 'desktop') expect(await unfold.isVisible()).toBe(false);
        }
        if (await page.getByRole('radiogroup').isVisible()) rated++;
        if (i === 0) await screenshot(page, `one-decision-v1-${size}`, { fullPage: false });
        if (i === 0 && size === 'phone') {
          const rows = page.locator('.chart--bars .bars__row');
          const all = await rows.count();
          expect(await unfold.isVisible()).toBe(true);
          expect(await inView(page, unfold)).toBe(true);
          await expect(unfold.getAttribute('aria-expanded')).resolves.toBe('false');
          await expect(unfold.textContent()).resolves.toBe(`See all ${all} answers`);
          const shown = async () =>
            (await rows.evaluateAll((els) => els.filter((el) => el.checkVisibility()))).length;
          expect(await shown()).toBeLessThan(all);
          await unfold.click();
          expect(await shown()).toBe(all);
          const fewer = page.getByRole('button', { name: 'Show fewer answers' });
          await expect(fewer.getAttribute('aria-expanded')).resolves.toBe('true');
          await screenshot(page, 'one-decision-unfolded-phone');
        }
        if (q.type === 'Open') {
          await screenshot(page, `one-decision-open-${size}`, { fullPage: false });
        }
        await wayOn(page).click();
      }
      const n = v1.questions.length;
      expect(rated).toBeGreaterThanOrEqual(Math.floor(n / 4));
      expect(rated).toBeLessThanOrEqual(Math.ceil(n / 4));

      // A v2 survey: no graph until the end, the way on in view all the same.
      const v2 = await sampleSurvey((x) => x.name === 'Honest About Sex');
      await page.goto(`/surveys/${v2.gid}`);
      await page.getByRole('button', { name: 'Start the survey' }).click();
      for (const q of v2.questions.slice(0, 2)) {
        await questionHeading(page, q.question).waitFor();
        await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
        await page.getByText(/^Your answer: /).waitFor();
        expect(await inView(page, wayOn(page))).toBe(true);
        await wayOn(page).click();
      }
      watch.assertNoErrors();
      await context.close();
    },
  );
});
