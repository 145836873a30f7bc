import type { SurveyDetail, SurveySummary } from '@candor/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { sampleSurvey } from './api';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import {
  endResults,
  logAnswers,
  openEndGraphs,
  pinRatings,
  questionHeading,
  screenshot,
  signUp,
  storedAnswers,
} from './screens';

const baseURL = inject('baseURL');

const survey = (find: (s: SurveySummary) => boolean) => sampleSurvey(find);

/** Answers the question on screen: the first real choice, or a sentence for an open one. */
async function answer(page: Page, q: SurveyDetail['questions'][number]): Promise<string> {
  await questionHeading(page, q.question).waitFor();
  if (q.type === 'Open') {
    const text = 'Honestly, it depends on the day.';
    await page.getByLabel('Your answer').fill(text);
    await page.getByRole('button', { name: 'Send my answer' }).click();
    return text;
  }
  const first = page.getByRole('list', { name: 'Answers' }).getByRole('button').first();
  const label = (await first.textContent())!.trim();
  await first.click();
  return label;
}

/** Rates the question; a score picked goes on by itself (decision 016). */
async function rateAndGoOn(page: Page, score: string) {
  await page.getByRole('radio', { name: score, exact: true }).click({ force: true });
}

/** Rates where the screen asks (one question in four does, decision 007), else goes on. */
async function rateIfAskedAndGoOn(page: Page, score: string) {
  await page.locator('.feedback__actions').waitFor();
  if (await page.getByRole('radiogroup').isVisible()) await rateAndGoOn(page, score);
  else await page.getByRole('button', { name: /^Next/ }).click();
}

describe('answering in Chromium', () => {
  it('a member completes a v1 video survey: graph after each answer, rating, outro', async ({
    people,
  }) => {
    const s = await survey(
      (x) => x.variant.startsWith('v1_') && x.status === 'Open' && x.name === 'Time Travel',
    );
    const { context, page, watch, who } = await people.newPage(phone);
    const sent = logAnswers(context);
    // The rating comes after the first question (and every fourth after it), not after each.
    await pinRatings(page);
    await signUp(page, who);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    for (const [i, q] of s.questions.entries()) {
      await questionHeading(page, q.question).waitFor();
      // The question's video plays in the page, with its captions track.
      const video = page.locator('.question-video video');
      await video.waitFor();
      await expect(video.locator('track[kind="captions"]').count()).resolves.toBe(1);
      if (i === 0) await screenshot(page, 'question-video-phone');
      const given = await answer(page, q);
      await page.getByRole('heading', { name: 'How everyone answered' }).waitFor();
      await page.getByText(`Your answer: ${given}`).waitFor();
      // The own choice is marked in the chart's text alternative, not by colour alone.
      await expect(
        page
          .getByRole('rowheader', {
            name: new RegExp(
              `^${given.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(yours counts within about [\\d,]+ more answers\\)$`,
            ),
          })
          .count(),
      ).resolves.toBe(1);
      if (i === 0) {
        // The chart arrives lazily: photograph it drawn, not its placeholder.
        await page.locator('.chart--bars').waitFor();
        await screenshot(page, 'feedback-graph-phone');
      }
      if (i === 0) {
        await rateAndGoOn(page, '7');
      } else {
        expect(await page.getByRole('radiogroup').count()).toBe(0);
        await page.getByRole('button', { name: /^Next/ }).click();
      }
    }
    await page.getByRole('heading', { name: 'Thank you for your candour' }).waitFor();
    await screenshot(page, 'outro-phone');
    await expect.poll(() => storedAnswers(sent).length).toBe(s.questions.length);
    const stored = storedAnswers(sent);
    expect(stored.map((a) => a.qid).sort()).toEqual(s.questions.map((q) => q.qid).sort());
    watch.assertNoErrors();
    await context.close();
  });

  it('a member completes a v2 survey and sees every graph at the end', async ({ people }) => {
    const s = await survey((x) => x.variant.startsWith('v2_') && x.status === 'Open');
    const { context, page, watch, who } = await people.newPage(desktop);
    const sent = logAnswers(context);
    await signUp(page, who);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    for (const [i, q] of s.questions.entries()) {
      await answer(page, q);
      await page.getByText('You see how everyone answered at the end.').waitFor();
      if (i === 0) await screenshot(page, 'feedback-v2-desktop');
      await page.getByRole('button', { name: /^(Skip rating and go on|Next)/ }).click();
    }
    await endResults(page, s.name).waitFor();
    await expect(page.locator('.results__item').count()).resolves.toBe(s.questions.length);
    // A long survey lists its questions: each graph opens in place.
    await openEndGraphs(page);
    // Every closed question's bars are drawn (none left loading), each with its own choice
    // named: said to join at the next update (the answers were just given), or counted where an
    // update came out since (a quiet question's period can end on its noise: decision 011).
    const closed = s.questions.filter((q) => q.type === 'Closed').length;
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('.chart--bars').length === n &&
        document.querySelectorAll('.chart--loading').length === 0,
      closed,
    );
    const mine = page.locator('.bars__row--mine .bars__mine');
    await expect(mine.count()).resolves.toBe(closed);
    for (const text of await mine.allTextContents()) {
      expect(text).toMatch(/^ · (yours counts within about [\d,]+ more answers|your answer)$/);
    }
    await screenshot(page, 'results-v2-desktop');
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByRole('heading', { name: 'Thank you for your candour' }).waitFor();
    await screenshot(page, 'outro-desktop');
    await expect.poll(() => storedAnswers(sent).length).toBe(s.questions.length);
    watch.assertNoErrors();
    await context.close();
  });

  it('a visitor answers 3 questions, signs up, returns to question 4; the 3 count once', async ({
    people,
  }) => {
    const s = await survey((x) => x.name === 'Consent in Practice');
    const { context, page, watch, who } = await people.newPage(phone);
    const sent = logAnswers(context);
    await page.goto(`/surveys/${s.gid}`);
    // The wall is announced before the first question (issue 30, point 2).
    await page
      .getByText(
        '3 free questions, then a free account to go on. What you answered comes with you.',
      )
      .waitFor();
    await screenshot(page, 'intro-visitor-phone');
    await page.getByRole('button', { name: 'Start the survey' }).click();
    const given: string[] = [];
    for (const q of s.questions.slice(0, 3)) {
      // A timer may run on a question; the clock is real here, and each answer takes a second.
      given.push(await answer(page, q));
      // The published graph, with the visitor's own answer said not to be in it yet.
      await page.getByText('Your answer is not in this yet.').waitFor();
      await page.locator('.graph').waitFor();
      await rateIfAskedAndGoOn(page, '5');
    }
    await page.getByRole('heading', { name: 'Sign up to go on' }).waitFor();
    await screenshot(page, 'visitor-gate-phone');
    // The privacy page's promise: no cookie at all for a logged-out visitor.
    expect(await context.cookies()).toEqual([]);
    await page.getByRole('link', { name: 'Sign up and go on' }).click();
    await signUp(page, who);
    // Asked before the answers given on this device become the account's (issue 28).
    await page.getByRole('dialog').getByRole('button', { name: 'Add my 3 answers' }).click();
    await page.getByRole('link', { name: 'Back to your survey' }).click();
    await page.waitForURL(`${baseURL}/surveys/${s.gid}?backFromRegister=true`);
    await questionHeading(page, s.questions[3]!.question).waitFor();
    await expect.poll(async () => storedAnswers(sent).length, { timeout: 10_000 }).toBe(3);
    const stored = storedAnswers(sent);
    expect(stored.map((a) => a.answer).sort()).toEqual([...given].sort());
    watch.assertNoErrors();
    await context.close();
  });

  it.for([
    ['phone', phone],
    ['desktop', desktop],
  ] as const)(
    'on a %s, a visitor to a survey with graphs at the end sees one graph before the wall',
    async ([size, options], { people }) => {
      const s = await survey((x) => x.variant.startsWith('v2_') && x.status === 'Open');
      expect(s.visitor_questions).toBeLessThan(s.questions.length);
      const { context, page, watch } = await people.newPage(options);
      await page.goto(`/surveys/${s.gid}`);
      await page
        .getByText(`${s.visitor_questions} free questions, then a free account to go on.`, {
          exact: false,
        })
        .waitFor();
      await page
        .getByText('You see how everyone answered at the end, and after your last free question.')
        .waitFor();
      await page.getByRole('button', { name: 'Start the survey' }).click();
      for (const [i, q] of s.questions.slice(0, s.visitor_questions).entries()) {
        await answer(page, q);
        const last = i === s.visitor_questions - 1;
        // No graph after the first free answers (graphs come at the end); after the last, one.
        if (last) {
          await page.getByText('Your answer is not in this yet.').waitFor();
          await page.locator('.graph').waitFor();
          await screenshot(page, `visitor-graph-before-wall-${size}`);
        } else {
          await page.getByText('Your answer is not counted yet.').waitFor();
          await expect(page.locator('.graph').count()).resolves.toBe(0);
        }
        await rateIfAskedAndGoOn(page, '6');
      }
      await page.getByRole('heading', { name: 'Sign up to go on' }).waitFor();
      watch.assertNoErrors();
      await context.close();
    },
  );

  it.for([
    ['phone', phone],
    ['desktop', desktop],
  ] as const)(
    'on a %s, Back steps to the screen before within the survey, and leaves it only from the intro',
    async ([size, options], { people }) => {
      const s = await survey((x) => x.name === 'Consent in Practice');
      const { context, page, watch, who } = await people.newPage(options);
      await signUp(page, who);
      await page.goto('/');
      await page.getByRole('link', { name: 'My mirror' }).waitFor();
      await page.goto(`/surveys/${s.gid}`);
      await page.getByRole('button', { name: 'Start the survey' }).click();
      const first = await answer(page, s.questions[0]!);
      await page.getByText(`Your answer: ${first}`).waitFor();
      await page.getByRole('button', { name: /Skip rating|Next/ }).click();
      await questionHeading(page, s.questions[1]!.question).waitFor();

      // Back: the first question's graph (answered once: its question screen is skipped).
      await page.goBack();
      await page.getByText(`Your answer: ${first}`).waitFor();
      expect(page.url()).toBe(`${baseURL}/surveys/${s.gid}`);
      await screenshot(page, `back-to-feedback-${size}`);
      // Back again: the intro, still in the survey.
      await page.goBack();
      await page.getByRole('button', { name: /Continue|Start the survey/ }).waitFor();
      expect(page.url()).toBe(`${baseURL}/surveys/${s.gid}`);
      // Forward retraces the steps.
      await page.goForward();
      await page.getByText(`Your answer: ${first}`).waitFor();
      await page.goForward();
      await questionHeading(page, s.questions[1]!.question).waitFor();
      // Leaving is a Back from the intro: the page before the survey.
      await page.goBack();
      await page.goBack();
      await page.getByRole('button', { name: /Continue|Start the survey/ }).waitFor();
      await page.goBack();
      await page.waitForURL(`${baseURL}/`);
      watch.assertNoErrors();
      await context.close();
    },
  );

  it('a reload mid-survey keeps the question and the shuffled order', async ({ people }) => {
    const s = await survey((x) => x.name === 'Consent in Practice');
    const { context, page, watch, who } = await people.newPage(desktop);
    await signUp(page, who);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await answer(page, s.questions[0]!);
    await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    const q = s.questions[2]!; // no timer, shuffled
    await answer(page, s.questions[1]!);
    await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    await questionHeading(page, q.question).waitFor();
    const order = () =>
      page.getByRole('list', { name: 'Answers' }).getByRole('button').allTextContents();
    const before = await order();
    await page.reload();
    await questionHeading(page, q.question).waitFor();
    expect(await order()).toEqual(before);
    watch.assertNoErrors();
    await context.close();
  });

  it('a double click on an answer stores one answer', async ({ people }) => {
    const s = await survey((x) => x.name === 'Consent in Practice');
    const { context, page, watch, who } = await people.newPage(desktop);
    const sent = logAnswers(context);
    await signUp(page, who);
    const answers: number[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/answer/')) answers.push(1);
    });
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await questionHeading(page, s.questions[0]!.question).waitFor();
    await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().dblclick();
    await page.getByText(/Your answer:/).waitFor();
    expect(answers).toHaveLength(1);
    await expect.poll(() => storedAnswers(sent).length).toBe(1);
    watch.assertNoErrors();
    await context.close();
  });

  it('a double click on Start or on Skip rating answers nothing on the screen after', async ({
    people,
  }) => {
    // Where an answer lies under the button of the screen before (desktop): found by hand.
    const cases = [
      { name: 'Honest About Sex', button: /Start the survey/, before: 0 },
      { name: 'Life and Death', button: /Skip rating/, before: 1 },
    ];
    for (const c of cases) {
      const s = await survey((x) => x.name === c.name);
      const { context, page, watch, who } = await people.newPage(desktop);
      const log = logAnswers(context);
      // The first question's feedback asks for the rating, so its button says "Skip rating".
      await pinRatings(page);
      await signUp(page, who);
      // The questions answers were sent for (the outbox may send one answer twice: its
      // idempotency key makes that one answer).
      const sent = new Set<string>();
      page.on('request', (r) => {
        if (r.url().endsWith('/answer/')) sent.add(r.url());
      });
      await page.goto(`/surveys/${s.gid}`);
      if (c.before > 0) {
        await page.getByRole('button', { name: 'Start the survey' }).click();
        await answer(page, s.questions[0]!);
      }
      await page.getByRole('button', { name: c.button }).dblclick();
      const next = s.questions[c.before]!;
      await questionHeading(page, next.question).waitFor();
      await page.waitForTimeout(1000);
      // Still on that question, nothing picked, nothing sent beyond the answers before.
      await questionHeading(page, next.question).waitFor();
      await expect(page.locator('.answer--picked').count()).resolves.toBe(0);
      expect(sent.size).toBe(c.before);
      await expect.poll(() => storedAnswers(log).length).toBe(c.before);
      watch.assertNoErrors();
      await context.close();
    }
  });

  it('an answer given offline is sent once the browser reconnects', async ({ people }) => {
    const s = await survey((x) => x.name === 'Consent in Practice');
    const { context, page, who } = await people.newPage(phone);
    const sent = logAnswers(context);
    await signUp(page, who);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await questionHeading(page, s.questions[0]!.question).waitFor();
    await context.setOffline(true);
    const given = await answer(page, s.questions[0]!);
    await page.getByText('You seem to be offline.').waitFor();
    await screenshot(page, 'feedback-offline-phone');
    expect(storedAnswers(sent)).toHaveLength(0);
    await context.setOffline(false);
    await expect
      .poll(async () => storedAnswers(sent).map((a) => a.answer), { timeout: 15_000 })
      .toEqual([given]);
    await context.close();
  });

  it('an offline visitor is told the graph waits for the network, and sees it once back', async ({
    people,
  }) => {
    const s = await survey((x) => x.name === 'Consent in Practice');
    const { context, page } = await people.newPage(phone);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await questionHeading(page, s.questions[0]!.question).waitFor();
    await context.setOffline(true);
    await answer(page, s.questions[0]!);
    await page.getByText('The graph shows as soon as you are back online.').waitFor();
    await expect(page.locator('.chart--loading').count()).resolves.toBe(0);
    await screenshot(page, 'feedback-offline-visitor-phone');
    await context.setOffline(false);
    await page.locator('.graph').waitFor();
    await context.close();
  });

  it('a timer running out records the question as left blank, and says time was up', async ({
    people,
  }) => {
    const s = await survey((x) => x.name === 'Consent in Practice');
    const timed = s.questions.findIndex((q) => q.timer_length !== '0:00:00');
    expect(timed).toBeGreaterThan(0);
    const { context, page, watch, who } = await people.newPage(desktop);
    const sent = logAnswers(context);
    await signUp(page, who);
    await page.clock.install();
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    for (const q of s.questions.slice(0, timed)) {
      await answer(page, q);
      await page.getByRole('button', { name: /Skip rating|Next/ }).click();
    }
    await questionHeading(page, s.questions[timed]!.question).waitFor();
    await page.getByText(/\d+s left/).waitFor();
    await screenshot(page, 'question-timer-desktop');
    await page.clock.fastForward('01:00');
    await page.getByText('Time’s up.').waitFor();
    await expect
      .poll(
        async () => storedAnswers(sent).find((a) => a.qid === s.questions[timed]!.qid)?.is_blank,
      )
      .toBe(true);
    watch.assertNoErrors();
    await context.close();
  });

  for (const [name, size] of [
    ['phone', phone],
    ['desktop', desktop],
  ] as const) {
    it(`someone who taps through faster than anyone reads is told, once, to take their time (${name})`, async ({
      people,
    }) => {
      // Three closed questions with nothing to watch or time: what a visitor answers for free.
      const plain = (q: SurveyDetail['questions'][number]) =>
        q.type === 'Closed' && !q.video_link_1 && q.timer_length === '0:00:00';
      const s = await survey((x) => x.status === 'Open' && x.questions.slice(0, 3).every(plain));
      const { context, page, watch } = await people.newPage(size);
      await page.goto(`/surveys/${s.gid}`);
      await page.getByRole('button', { name: 'Start the survey' }).click();
      const note = page.locator('.question__pace');
      // Tapping the first answer of each as soon as it takes a tap: under 300 ms a word.
      for (const [i, q] of s.questions.slice(0, 2).entries()) {
        await answer(page, q);
        const next = s.questions[i + 1]!;
        const heading = questionHeading(page, next.question);
        const goOn = page.getByRole('button', { name: /Skip rating|^Next/ });
        await expect
          .poll(async () => (await heading.isVisible()) || (await goOn.isVisible()))
          .toBe(true);
        if (!(await heading.isVisible())) await goOn.click();
        await heading.waitFor();
        if (i === 0) await expect(note.count()).resolves.toBe(0);
      }
      // Two of two answers rushed: the third question says so, kindly, and its heading reads it.
      await expect(note.textContent()).resolves.toMatch(/^No rush\. There are no right answers/);
      const described = await questionHeading(page, s.questions[2]!.question).getAttribute(
        'aria-describedby',
      );
      expect(described).toBe(await note.getAttribute('id'));
      await screenshot(page, `take-your-time-${name}`);
      watch.assertNoErrors();
      await context.close();
    });
  }
});
