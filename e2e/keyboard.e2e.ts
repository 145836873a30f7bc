// A whole survey with the keyboard alone (issue 17, decision 016): from the home page, Tab and
// Enter to the survey, letter and number keys to answer, digits to rate, Enter to go on; no
// mouse click at all. Focus stays visible and on something that means something all the way.
// Also: the rating's targets are 44 x 44 px at both sizes, and the slide between screens is
// gone with reduced motion (these two with a pointer: they are not about keys).
import type { SurveyDetail } from '@candor/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { sampleSurvey } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import {
  fillPhone,
  logAnswers,
  pinRatings,
  questionHeading,
  screenshot,
  storedAnswers,
} from './screens';

const baseURL = inject('baseURL');
/** Enter on a screen counts once the screen has been there this long (ENTER_ARMS_AFTER_MS). */
const ARMED_MS = 350;

interface Focus {
  tag: string;
  name: string;
  /** A focus ring is drawn (on the radio's drawn box for a rating). */
  ring: boolean;
}

const focusNow = (page: Page): Promise<Focus> =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { tag: 'BODY', name: '', ring: false };
    // A rating's ring is drawn on its box; a video's (its controls are inside it) on its frame.
    const drawn =
      el instanceof HTMLInputElement && el.type === 'radio'
        ? el.nextElementSibling!
        : el instanceof HTMLVideoElement
          ? el.closest('figure')!
          : el;
    const style = getComputedStyle(drawn);
    const ring =
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) ||
      style.boxShadow !== 'none';
    const name = (el.getAttribute('aria-label') ?? el.textContent).trim().slice(0, 200);
    return { tag: el.tagName, name, ring };
  });

/** Focus is on the screen's heading (announced, not a control), or on a control with a ring. */
async function expectMeaningfulFocus(page: Page): Promise<Focus> {
  const focus = await focusNow(page);
  if (focus.tag !== 'H1') {
    expect(focus.tag, 'focus is on something').not.toBe('BODY');
    expect(focus, 'the focused control shows a ring').toMatchObject({ ring: true });
  }
  return focus;
}

/** Tabs until focus is on what `wanted` accepts, checking every stop on the way. */
async function tabTo(page: Page, wanted: (f: Focus) => boolean, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (wanted(await expectMeaningfulFocus(page))) return;
  }
  throw new Error(`Tab never reached the control (${max} stops)`);
}

/** The new screen's heading has focus (the flow moves it there). */
const focusOnHeading = (page: Page, text: string) =>
  expect.poll(() => focusNow(page)).toMatchObject({ tag: 'H1', name: text });

/** Enter once the screen has been there a moment, as a person reading it would press it. */
async function enter(page: Page) {
  await page.waitForTimeout(ARMED_MS);
  await page.keyboard.press('Enter');
}

/** Every score of the rating is a target of at least 44 x 44 px. */
async function expectRatingTargets(page: Page) {
  const options = page.locator('.rating__option');
  await expect(options.count()).resolves.toBe(11);
  for (const box of await options.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { width: Math.round(r.width), height: Math.round(r.height) };
    }),
  )) {
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.height).toBeGreaterThanOrEqual(44);
  }
}

/** The choice picked by `key` on the question on screen (keys A-Z and 1-9 pick the nth). */
function choiceFor(page: Page, key: string) {
  const index = /^[1-9]$/.test(key) ? Number(key) - 1 : key.toUpperCase().charCodeAt(0) - 65;
  return page.getByRole('list', { name: 'Answers' }).getByRole('button').nth(index);
}

/** Answers the closed question on screen with `key`; returns the answer picked. */
async function answerWithKey(
  page: Page,
  q: SurveyDetail['questions'][number],
  key: string,
  fromHeading = true,
) {
  if (fromHeading) await focusOnHeading(page, q.question);
  const choice = choiceFor(page, key);
  const label = (await choice.textContent())!.trim();
  await page.keyboard.press(key);
  // The pick shows as taken, and the screen goes on by itself.
  await expect.poll(() => choice.getAttribute('aria-pressed')).toBe('true');
  return label;
}

describe('the keyboard alone', () => {
  it('on a phone: a visitor answers a whole video survey from the home page, to its end', async ({
    people,
  }) => {
    const s = await sampleSurvey((x) => x.name === 'Time Travel');
    expect(s.questions.length).toBeLessThanOrEqual(s.visitor_questions);
    const { context, page, watch } = await people.newPage(phone);
    // The rating is asked after the first question (of these three), not after each.
    await pinRatings(page);
    await page.goto('/');
    await page.locator('.brick').first().waitFor();
    await tabTo(page, (f) => f.tag === 'A' && f.name.includes(s.name));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: s.name }).waitFor();
    // Enter starts the survey from its intro, once its start is ready (not busy).
    await page.locator('.intro button.button--primary:not([disabled])').waitFor();
    await enter(page);

    const given: string[] = [];
    for (const [i, q] of s.questions.entries()) {
      await questionHeading(page, q.question).waitFor();
      if (i === 0) {
        await screenshot(page, 'keyboard-question-phone', { fullPage: false });
        // Back to the video, Space plays it; a pick while it plays is saved, and the screen
        // waits for Next instead of cutting the video off.
        await focusOnHeading(page, q.question);
        await expect
          .poll(() => page.evaluate(() => document.querySelector('video')?.readyState ?? 0))
          .toBeGreaterThan(0);
        // Shift+Tab back past the video's controls, then Tab into them: their first is Play.
        let seen = false;
        for (let stops = 0; stops < 12; stops++) {
          await page.keyboard.press('Shift+Tab');
          const tag = (await expectMeaningfulFocus(page)).tag;
          if (tag === 'VIDEO') seen = true;
          else if (seen) break;
        }
        await page.keyboard.press('Tab');
        await expect(expectMeaningfulFocus(page)).resolves.toMatchObject({ tag: 'VIDEO' });
        await page.keyboard.press('Space');
        await expect
          .poll(() => page.evaluate(() => document.querySelector('video')?.paused))
          .toBe(false);
        given.push(await answerWithKey(page, q, 'a', false));
        await page.getByText('Your answer is saved. Finish the video if you like').waitFor();
        await expect
          .poll(() => focusNow(page))
          .toMatchObject({ tag: 'BUTTON', name: expect.stringMatching(/^Next/) as string });
        await expectMeaningfulFocus(page);
        await expect(page.evaluate(() => document.querySelector('video')?.paused)).resolves.toBe(
          false,
        );
        await screenshot(page, 'keyboard-picked-phone', { fullPage: false });
        await page.keyboard.press('Enter');
      } else {
        given.push(await answerWithKey(page, q, ['a', '2', 'C'][i]!));
        // The pick as it shows for a moment before the screen goes on.
        if (i === 1) await screenshot(page, 'keyboard-picking-phone', { fullPage: false });
      }
      await page.getByText(`Your answer: ${given[i]!}`).waitFor();
      await focusOnHeading(page, q.question);
      await page.locator('.graph').waitFor();
      if (i === 0) {
        await expectRatingTargets(page);
        await page.locator('.rating').scrollIntoViewIfNeeded();
        await screenshot(page, 'keyboard-rating-phone', { fullPage: false });
        expect(await axeViolations(page)).toEqual([]);
        // A digit rates and goes on.
        await page.keyboard.press('6');
      } else {
        // No rating here: Enter goes on.
        expect(await page.getByRole('radiogroup').count()).toBe(0);
        await enter(page);
      }
    }

    // The end: the visitor's answers, kept in this browser, with the way to count them.
    await page.getByRole('heading', { level: 1, name: 'Thank you for your candour' }).waitFor();
    await expectMeaningfulFocus(page);
    for (const answer of given) {
      await expect(page.getByText(answer, { exact: true }).count()).resolves.toBeGreaterThan(0);
    }
    await screenshot(page, 'keyboard-outro-phone');
    watch.assertNoErrors();
    await context.close();
  });

  it('on a desktop: a member logged in by keys answers a whole survey, saved on the server', async ({
    people,
  }) => {
    const s = await sampleSurvey((x) => x.name === 'Consent in Practice');
    const who = await people.member();
    const { context, page, watch } = await people.newPage(desktop, who);
    const sent = logAnswers(context);
    // The rating is asked after the first and the fifth question.
    await pinRatings(page);
    // Logged in by typing, and Enter in the password field.
    await page.goto('/login');
    await fillPhone(page, who.country, who.national);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.waitForURL(`${baseURL}/`);

    await page.locator('.brick').first().waitFor();
    await tabTo(page, (f) => f.tag === 'A' && f.name.includes(s.name));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: s.name }).waitFor();
    // The start waits (busy, disabled) while this browser's records are read, as a person sees.
    await page.locator('.intro button.button--primary:not([disabled])').waitFor();
    await tabTo(page, (f) => f.tag === 'BUTTON' && f.name.startsWith('Start the survey'));
    await page.keyboard.press('Enter');

    const keys = ['a', '2', 'c', 'B', '1'];
    const given: string[] = [];
    for (const [i, q] of s.questions.entries()) {
      await questionHeading(page, q.question).waitFor();
      if (i === 0) {
        // The key hints, for people with a keyboard, pass axe.
        await expect(
          page.evaluate(
            () => getComputedStyle(document.querySelector('.answer')!, '::before').content,
          ),
        ).resolves.toMatch(/"A"|attr\(data-key\)/);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, 'keyboard-question-desktop');
      }
      given.push(await answerWithKey(page, q, keys[i]!));
      if (i === 0) await screenshot(page, 'keyboard-picked-desktop');
      await page.getByText(`Your answer: ${given[i]!}`).waitFor();
      await focusOnHeading(page, q.question);
      if (i === 0) {
        await page.locator('.chart--bars').first().waitFor();
        await expectRatingTargets(page);
        await screenshot(page, 'keyboard-rating-desktop');
      }
      // Tab to the rating and move with the arrows (no going on), then Enter goes on with it.
      if (i === 4) {
        await tabTo(page, (f) => f.tag === 'INPUT');
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
        await page.waitForTimeout(2 * ARMED_MS);
        // Still here: the arrows moved the choice, they did not go on.
        await expect(page.getByText(`Your answer: ${given[i]!}`).count()).resolves.toBe(1);
        await expect(expectMeaningfulFocus(page)).resolves.toMatchObject({ tag: 'INPUT' });
        await expect(page.getByRole('radio', { checked: true }).count()).resolves.toBe(1);
        await page.keyboard.press('Enter');
      } else if (i === 0) {
        // A digit rates and goes on.
        await page.keyboard.press('3');
      } else {
        expect(await page.getByRole('radiogroup').count()).toBe(0);
        await enter(page);
      }
    }

    await page.getByRole('heading', { level: 1, name: 'Thank you for your candour' }).waitFor();
    await expectMeaningfulFocus(page);
    const stored = storedAnswers(sent).filter((a) => a.gid === s.gid);
    expect(stored.map((a) => a.answer).sort()).toEqual([...given].sort());
    watch.assertNoErrors();
    await context.close();
  });
});

describe('the rating and the moves between screens', () => {
  it('each score of the rating is a 44 x 44 px target, on a phone and on a desktop', async ({
    people,
  }) => {
    const s = await sampleSurvey((x) => x.name === 'Consent in Practice');
    const { context, page, watch } = await people.newPage(phone);
    await pinRatings(page);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
    await page.getByText(/Your answer:/).waitFor();
    await expectRatingTargets(page);
    await page.setViewportSize(desktop.viewport!);
    await expectRatingTargets(page);
    watch.assertNoErrors();
    await context.close();
  });

  it('slides the next screen in, and not at all with reduced motion', async ({ people }) => {
    const s = await sampleSurvey((x) => x.name === 'Consent in Practice');
    const { context, page, watch } = await people.newPage(desktop);
    const screenMotion = () =>
      page.evaluate(() => {
        const el = document.querySelector('.flow > *');
        if (!el) return null;
        const style = getComputedStyle(el);
        return { name: style.animationName, duration: style.animationDuration };
      });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await questionHeading(page, s.questions[0]!.question).waitFor();
    await expect(screenMotion()).resolves.toEqual({ name: 'none', duration: '0s' });

    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
    await page.getByText(/Your answer:/).waitFor();
    const motion = await screenMotion();
    expect(motion?.name).toBe('flow-screen-in');
    expect(parseFloat(motion?.duration ?? '0')).toBeGreaterThan(0);
    watch.assertNoErrors();
    await context.close();
  });
});
