// A survey the person finished reopens on its results: a reload of the end screens, or coming
// back later, never lands on the last rating screen, a question in the middle, or the intro.
import type { SurveyDetail } from '@candor/contracts';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { sampleSurvey } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { type People, it } from './fixtures';
import {
  answerInPage,
  answerOnScreen,
  endResults,
  logIn,
  questionHeading,
  screenshot,
} from './screens';

const baseURL = inject('baseURL');

async function memberAt(people: People, options: BrowserContextOptions) {
  const who = await people.member();
  const opened = await people.newPage(options, who);
  await logIn(opened.page, who);
  await opened.page.waitForURL(`${baseURL}/`);
  return { ...opened, who };
}

const results = (page: Page, s: SurveyDetail) => endResults(page, s.name);

describe('a finished survey', () => {
  it('on a phone, v1: a reload of the outro, and a later visit, open the results', async ({
    people,
  }) => {
    const s = await sampleSurvey((x) => x.name === 'Time Travel');
    const { context, page, watch } = await memberAt(people, phone);
    const last = s.questions.at(-1)!;
    await answerInPage(page, s, s.questions.length - 1);
    await questionHeading(page, last.question).waitFor();
    await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
    await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    await page.getByRole('heading', { name: 'Thank you for your candour' }).waitFor();

    await page.reload();
    await results(page, s).waitFor();
    await expect(page.locator('.results__item').count()).resolves.toBe(s.questions.length);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'finished-reopened-phone');

    // Coming back from the home page: the results again, not the intro.
    await page.goto('/');
    await page.locator('.brick').first().waitFor();
    await page.goto(`/surveys/${s.gid}`);
    await results(page, s).waitFor();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByRole('heading', { name: 'Thank you for your candour' }).waitFor();
    watch.assertNoErrors();
    await context.close();
  });

  it('on a desktop, v2: a reload of the end results stays on them', async ({ people }) => {
    const s = await sampleSurvey((x) => x.variant.startsWith('v2_') && x.status === 'Open');
    const { context, page, watch } = await memberAt(people, desktop);
    const last = s.questions.at(-1)!;
    await answerInPage(page, s, s.questions.length - 1);
    await answerOnScreen(page, last, 'Honestly, it depends on the day.');
    await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    await results(page, s).waitFor();

    await page.reload();
    await results(page, s).waitFor();
    await expect(questionHeading(page, last.question).count()).resolves.toBe(0);
    await expect(page.getByRole('radiogroup').count()).resolves.toBe(0);
    await screenshot(page, 'finished-reopened-desktop');
    watch.assertNoErrors();
    await context.close();
  });
});
