// Moving through a survey with a screen reader or a keyboard: focus lands on each new screen's
// heading (so it is announced); timed questions can be given more time before they run out
// (WCAG 2.2.1), keep their deadline across a reload, and say "Time's up" when they run out.
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { sampleSurvey } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { logIn, questionHeading, screenshot } from './screens';

const consent = () => sampleSurvey((s) => s.name === 'Consent in Practice');

/** The focused element: its tag and its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return { tag: el?.tagName ?? '', text: el?.textContent.trim() ?? '' };
  });

/** Seconds left on the countdown, as shown. */
async function secondsLeft(page: Page): Promise<number> {
  const text = await page.locator('.countdown__text').innerText();
  return Number(/(\d+)s left/.exec(text)?.[1] ?? NaN);
}

describe.each([
  ['phone', phone],
  ['desktop', desktop],
] as const)('on a %s', (size, options) => {
  it('after Start, an answer and Next, focus is on the new screen’s heading', async ({
    people,
  }) => {
    const s = await consent();
    const { context, page, watch } = await people.newPage(options);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await questionHeading(page, s.questions[0]!.question).waitFor();
    await expect.poll(() => focused(page)).toEqual({ tag: 'H1', text: s.questions[0]!.question });

    // The keyboard alone: Tab to the first answer, Enter to give it.
    await page.keyboard.press('Tab');
    await expect(focused(page)).resolves.toMatchObject({ tag: 'BUTTON' });
    await page.keyboard.press('Enter');
    await page.getByText(/Your answer:/).waitFor();
    await expect.poll(() => focused(page)).toEqual({ tag: 'H1', text: s.questions[0]!.question });
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    await questionHeading(page, s.questions[1]!.question).waitFor();
    await expect.poll(() => focused(page)).toEqual({ tag: 'H1', text: s.questions[1]!.question });
    // The heading holds focus without a ring drawn around it like a control.
    await expect(
      page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle),
    ).resolves.toBe('none');
    await screenshot(page, `focus-question-${size}`);
    watch.assertNoErrors();
    await context.close();
  });

  it('a written answer’s box takes the focus, read with its question', async ({ people }) => {
    // The open survey whose first written question comes soonest.
    const withOpen = await Promise.all(
      ['Money Talks', 'Honest About Sex', 'Everyday Taboos'].map(async (name) => {
        const found = await sampleSurvey((x) => x.name === name && x.status === 'Open').catch(
          () => null,
        );
        return { s: found!, at: found ? found.questions.findIndex((q) => q.type === 'Open') : -1 };
      }),
    );
    const { s, at } = withOpen.filter((x) => x.at >= 0).sort((a, b) => a.at - b.at)[0]!;
    const who = await people.member();
    const { context, page, watch } = await people.newPage(options, who);
    await logIn(page, who);
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.goto(`/surveys/${s.gid}`);
    await page.locator('.intro button.button--primary:not([disabled])').waitFor();
    await page.getByRole('button', { name: 'Start the survey' }).click();
    for (const q of s.questions.slice(0, at)) {
      await questionHeading(page, q.question).waitFor();
      await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
      await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    }
    const open = s.questions[at]!;
    await questionHeading(page, open.question).waitFor();
    const box = page.getByLabel('Your answer');
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    // The box is described by the question, so a screen reader says what it is for.
    const described = await box.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
    expect(described).toContain(open.question);
    await page.keyboard.type('Typed straight away.');
    await expect(box.inputValue()).resolves.toBe('Typed straight away.');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `focus-written-answer-${size}`, { fullPage: false });
    watch.assertNoErrors();
    await context.close();
  });

  it('a timed question offers more time before it runs out, then says "Time’s up"', async ({
    people,
  }) => {
    const s = await consent();
    const timed = s.questions[1]!;
    expect(timed.timer_length).toBe('0:00:25');
    const { context, page, watch } = await people.newPage(options);
    await page.clock.install();
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await questionHeading(page, s.questions[0]!.question).waitFor();
    await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
    await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    await questionHeading(page, timed.question).waitFor();
    await expect.poll(() => secondsLeft(page)).toBe(25);

    await page.clock.runFor(20_000);
    await expect.poll(() => secondsLeft(page)).toBeLessThanOrEqual(5);
    // Warned in words before it runs out, with the way to get more time.
    await page.getByText(/Need more time\?/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `timer-more-time-${size}`);
    await page.getByRole('button', { name: /More time/ }).click();
    await expect.poll(() => secondsLeft(page)).toBeGreaterThan(30);
    await page.clock.runFor(20_000);
    await expect(questionHeading(page, timed.question).count()).resolves.toBe(1);
    await expect(page.getByText(/Your answer:|Time’s up|Time's up/).count()).resolves.toBe(0);

    await page.clock.runFor(30_000);
    await page.getByText('Time’s up').first().waitFor();
    await expect(page.getByText('You left this one blank.').count()).resolves.toBe(0);
    await screenshot(page, `timer-times-up-${size}`);
    watch.assertNoErrors();
    await context.close();
  });
});

describe('a reload', () => {
  it('keeps a timed question’s deadline instead of starting it again', async ({ people }) => {
    const s = await consent();
    const timed = s.questions[1]!;
    const { context, page, watch } = await people.newPage(phone);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await questionHeading(page, s.questions[0]!.question).waitFor();
    await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
    await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    await questionHeading(page, timed.question).waitFor();
    await page.waitForTimeout(4_000);
    await page.reload();
    await questionHeading(page, timed.question).waitFor();
    await page.locator('.countdown__text').waitFor();
    expect(await secondsLeft(page)).toBeLessThanOrEqual(21);
    watch.assertNoErrors();
    await context.close();
  });
});
