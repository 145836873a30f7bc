// Issue 17's defects around the reveal, each as a person meets it: the 35-question results that
// crashed, a failed screen load, visitors who never saw a graph, the visitor's dead-end outro,
// the own answer that read 0%, and answers that looked picked under a finger.
import type { Question } from '@candor/contracts';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { call, sampleSurvey } from './api';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import {
  answerInPage,
  endResults,
  logAnswers,
  logIn,
  openEndGraphs,
  questionHeading,
  screenshot,
  signUp,
  storedAnswers,
} from './screens';

const baseURL = inject('baseURL');

const survey = (name: string) => sampleSurvey((s) => s.name === name);
const sizes = [
  ['phone', phone],
  ['desktop', desktop],
] as const satisfies ReadonlyArray<readonly [string, BrowserContextOptions]>;
/** The bars drawn at once, for assertions and screenshots on what is drawn, not its growth. */
const still = (options: BrowserContextOptions): BrowserContextOptions => ({
  ...options,
  reducedMotion: 'reduce',
});

/** Answers the closed question on screen with its first real choice; returns the choice. */
async function answerFirstChoice(page: Page, q: Question): Promise<string> {
  await questionHeading(page, q.question).waitFor();
  const first = page.getByRole('list', { name: 'Answers' }).getByRole('button').first();
  const label = (await first.textContent())!.trim();
  await first.click();
  return label;
}

/** A finger's flick to the bottom of the page, in steps, without waiting for anything. */
async function flickToBottom(page: Page) {
  for (let i = 0; i < 30; i++) {
    await page.mouse.wheel(0, 900);
    await page.waitForTimeout(15);
  }
}

/** A text as a regular expression that matches it literally. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('defect 1: the 35-question results, and a screen that fails', () => {
  it.for(sizes)(
    'on a %s, scrolling to the bottom as the 35 results appear keeps the page',
    { timeout: 180_000 },
    async ([size, options], { people }) => {
      const s = await survey('Life and Death');
      expect(s.questions).toHaveLength(35);
      const closed = s.questions.filter((q) => q.type === 'Closed').length;
      const member = await people.member();
      const { context, page, watch } = await people.newPage(options, member);
      await logIn(page, member);
      await page.getByRole('link', { name: 'My mirror' }).waitFor();
      await answerInPage(page, s);
      // The review saw the crash in 2 of ~6 tries at phone size: try several times.
      const heading = endResults(page, s.name);
      const seeAnswers = page.getByRole('button', { name: 'See your answers' });
      for (let round = 0; round < (size === 'phone' ? 8 : 3); round++) {
        await page.goto(`/surveys/${s.gid}`);
        // A finished survey opens on its intro (or, once it reopens on them, the results).
        await heading.or(seeAnswers).first().waitFor();
        if (await seeAnswers.isVisible()) await seeAnswers.click();
        await heading.waitFor();
        await flickToBottom(page);
        await page.waitForTimeout(700);
        await page.getByRole('button', { name: 'Finish' }).waitFor({ timeout: 5_000 });
      }
      // A row per question, each naming the own answer and everyone's headline (its graph,
      // drawn with CSS, opens in place).
      await page.waitForFunction(() => document.querySelectorAll('.chart--loading').length === 0);
      await expect(page.locator('.results__item .report__answer-text').count()).resolves.toBe(
        s.questions.length,
      );
      await expect(page.getByText('Loading…').count()).resolves.toBe(0);
      // Every closed question's graph opened at once: its bars drawn, the own answer named.
      await openEndGraphs(page);
      await expect.poll(() => page.locator('.results__item .bars__row--mine').count()).toBe(closed);
      await screenshot(page, `results-35-${size}`);
      await page.getByRole('button', { name: 'Finish' }).click();
      await page.getByRole('heading', { name: 'Thank you for your candour' }).waitFor();
      watch.assertNoErrors();
      await context.close();
    },
  );

  it.for(sizes)(
    'on a %s, a screen that fails to load shows a friendly error with a retry',
    async ([size, options], { people }) => {
      const s = await survey('Time Travel');
      const { context, page } = await people.newPage(options);
      await page.goto('/');
      await page.locator('.brick').first().waitFor();
      // The survey screen's code cannot be fetched (a dropped connection, or a deploy).
      const chunk = /\/assets\/survey-[^/]*\.js$/;
      await page.route(chunk, (route) => route.abort());
      await page.goto(`/surveys/${s.gid}`);
      await page.getByRole('heading', { level: 1, name: 'This page could not be shown' }).waitFor();
      // The app stays: its navigation is there, and no stack trace is shown.
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await expect(page.getByText('Unexpected Application Error').count()).resolves.toBe(0);
      await expect(page.locator('pre').count()).resolves.toBe(0);
      await expect(page.title()).resolves.toBe('Something went wrong · Candor');
      await screenshot(page, `route-error-${size}`);
      await page.unroute(chunk);
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('button', { name: 'Start the survey' }).waitFor();
      await context.close();
    },
  );
});

describe('defect 2: a visitor sees the published graph after answering', () => {
  it.for(sizes)('on a %s', async ([size, options], { people }) => {
    const s = await survey('Time Travel');
    const q = s.questions[0]!;
    // A visitor's results call: published numbers, no token needed.
    const anonymous = await call(`/api/v1/questions/${q.qid}/results/`);
    expect(anonymous.status).toBe(200);
    const { context, page, watch } = await people.newPage(still(options));
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    const given = await answerFirstChoice(page, q);
    await page.getByRole('heading', { name: 'How everyone answered' }).waitFor();
    await page.getByText('Your answer is not in this yet', { exact: false }).waitFor();
    await page.getByText(/^[\d,]+ verified people$/).waitFor();
    // The own choice is named, and said to count once they sign up, in the chart's text
    // alternative.
    await page
      .getByRole('rowheader', { name: `${given} (yours counts once you sign up)` })
      .waitFor({ state: 'attached' });
    await page.locator('.chart--bars').waitFor();
    await screenshot(page, `feedback-visitor-${size}`);
    // Answers stay in the browser: no account, no cookie.
    expect(await context.cookies()).toEqual([]);
    watch.assertNoErrors();
    await context.close();
  });
});

describe('defect 3: a visitor who finished within the free questions is asked to count them', () => {
  it.for(sizes)('on a %s', async ([size, options], { people }) => {
    const s = await survey('Time Travel');
    expect(s.questions.length).toBeLessThanOrEqual(s.visitor_questions);
    const { context, page, watch, who } = await people.newPage(still(options));
    const sent = logAnswers(context);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    for (const q of s.questions) {
      await answerFirstChoice(page, q);
      await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    }
    await page.getByRole('heading', { name: 'Thank you for your candour' }).waitFor();
    const n = s.questions.length;
    const card = page.getByRole('region', { name: `Your ${n} answers are not counted yet` });
    await card.waitFor();
    // At the peak: before the share link and the list of answers.
    const [cardTop, shareTop] = await Promise.all([
      card.boundingBox().then((b) => b!.y),
      page
        .getByLabel('Ask a friend where they stand')
        .boundingBox()
        .then((b) => b!.y),
    ]);
    expect(cardTop).toBeLessThan(shareTop);
    await screenshot(page, `outro-visitor-${size}`);
    await card.getByRole('link', { name: `Count my ${n} answers and see where I stand` }).click();
    await signUp(page, who);
    // Asked first (issue 28); then the answers are sent and counted once, and the welcome
    // screen leads back to the survey.
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Add my/ })
      .click();
    await expect.poll(async () => storedAnswers(sent).length, { timeout: 10_000 }).toBe(n);
    await page.getByRole('link', { name: 'Back to your survey' }).click();
    await page.waitForURL(`${baseURL}/surveys/${s.gid}?backFromRegister=true`);
    // Back as a member: the survey goes on from the visitor's last answer, now sent, so it
    // joins the published numbers at their next update.
    const feedback = page.getByText(/Your answer:/);
    await feedback
      .or(page.getByRole('heading', { name: 'Thank you for your candour' }))
      .or(endResults(page, s.name))
      .first()
      .waitFor();
    if (await feedback.isVisible()) {
      await page
        .getByText(/yours counts within about [\d,]+ more answers/)
        .first()
        .waitFor();
      await page.locator('.chart--bars').waitFor();
    }
    await expect(page.getByText('not in this yet', { exact: false }).count()).resolves.toBe(0);
    await expect(page.getByText('not counted yet', { exact: false }).count()).resolves.toBe(0);
    await screenshot(page, `back-after-signup-${size}`);
    watch.assertNoErrors();
    await context.close();
  });
});

describe('defect 4: the own answer says it joins at the next update', () => {
  it.for(sizes)('on a %s', async ([size, options], { people }) => {
    const s = await survey('Time Travel');
    const { context, page, watch, who } = await people.newPage(still(options));
    await signUp(page, who);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    const given = await answerFirstChoice(page, s.questions[0]!);
    await page.getByRole('heading', { name: 'How everyone answered' }).waitFor();
    await page.locator('.chart--bars').waitFor();
    // Above the bar that reads the published share ("under about N%" for a choice nobody
    // else made), with when it counts: the published threshold of the next update.
    const label = await page.locator('.bars__row--mine .bars__label').textContent();
    expect(label?.replace(/\s+/g, ' ')).toMatch(
      new RegExp(`^${escaped(given)} · yours counts within about [\\d,]+ more answers$`),
    );
    await page
      .getByRole('rowheader', {
        name: new RegExp(
          `^${escaped(given)} \\(yours counts within about [\\d,]+ more answers\\)$`,
        ),
      })
      .waitFor({ state: 'attached' });
    await screenshot(page, `feedback-pending-${size}`);
    watch.assertNoErrors();
    await context.close();
  });
});

describe('defect 5: no pre-selected look under a finger', () => {
  it.for(sizes)('on a %s', async ([size, options], { people }) => {
    const s = await survey('Time Travel');
    const { context, page, watch } = await people.newPage(still(options));
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await questionHeading(page, s.questions[0]!.question).waitFor();
    const answers = page.getByRole('list', { name: 'Answers' }).getByRole('button');
    const look = (i: number) =>
      answers.nth(i).evaluate((el) => {
        const css = getComputedStyle(el);
        return `${css.borderColor} ${css.backgroundColor} ${css.color}`;
      });
    // Where a pointer hovers (a mouse), or where a finger last touched (a touch screen keeps
    // :hover there after the tap that opened the question).
    await answers.nth(0).hover();
    await page.waitForTimeout(300); // past the border's transition
    const [hovered, other] = [await look(0), await look(1)];
    if (size === 'phone') expect(hovered).toBe(other);
    else expect(hovered).not.toBe(other);
    await screenshot(page, `question-hover-${size}`, { fullPage: false });
    watch.assertNoErrors();
    await context.close();
  });
});
