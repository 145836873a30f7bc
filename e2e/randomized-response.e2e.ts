// Issue 29, point 3 (decision 028): a randomized-response question as its author makes it and
// a member answers it. The device draws the answer it sends before anything leaves it; the
// person's own answer stays on the device and in their mirror.
import type { AdminSurvey, AnswerRequest, QuestionResults, SurveyDetail } from '@candor/contracts';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { AUTHORED_PREFIX, answerByApi, call, token } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { type Admin, it } from './fixtures';
import { deviceAnswers, logIn, newQuestionForm, questionHeading, screenshot } from './screens';

const QUESTION = 'Have you ever cheated on a partner?';
const CHOICES = ['Yes', 'No', 'I would rather not think about it'];
const SUMMARY = 'Private even from us: your phone may send another answer';

/** A draft survey made by API, opened in the editor of the staff area. */
async function draftSurvey(admin: Admin, name: string): Promise<string> {
  const made = await call('/api/v1/admin/surveys/', {
    body: {
      name,
      cover_headline: 'The one you never told',
      release_date: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    },
    token: await token(admin),
    ip: admin.ip,
  });
  expect(made.status).toBe(201);
  return ((await made.json()) as AdminSurvey).gid;
}

/**
 * Lets the test fix the device's next draw: while `window.__rrForce` is set, a one-word draw
 * (what the randomized-response draw asks crypto.getRandomValues for) returns it. Everything
 * else the page draws stays random.
 */
async function forceableDraw(page: Page) {
  await page.addInitScript(() => {
    const original = crypto.getRandomValues.bind(crypto);
    crypto.getRandomValues = <T extends ArrayBufferView | null>(array: T): T => {
      const forced = (window as { __rrForce?: number }).__rrForce;
      if (forced !== undefined && array instanceof Uint32Array && array.length === 1) {
        array[0] = forced;
        return array;
      }
      return original(array as never);
    };
  });
}

describe('randomized-response questions (decision 028)', () => {
  it(
    'an admin turns it on, a member’s phone sends a drawn answer and keeps their own',
    {
      timeout: 180_000,
    },
    async ({ people, admin }) => {
      const name = `${AUTHORED_PREFIX}Secrets ${Date.now().toString(36).slice(-4)}`;
      const gid = await draftSurvey(admin, name);

      // The author picks a strength, each said with its odds for this question's answers.
      const staff = await people.newPage(desktop, admin);
      const form = await newQuestionForm(staff.page, admin, name, QUESTION, CHOICES);
      const strength = form.getByLabel('Randomized response', { exact: true });
      // 3 answers: the strongest sends the person's own 3 times in 5, so at most 60% sure.
      await expect(strength.locator('option').allTextContents()).resolves.toEqual([
        'Off: answers are sent as given',
        'Strongest deniability: sent as given 3 times in 5, at most 60% sure of anyone',
        'Balanced: sent as given 9 times in 11, at most 82% sure of anyone',
        'Lighter, narrower margins: sent as given 19 times in 21, at most 90% sure of anyone',
      ]);
      await strength.selectOption({ index: 1 });
      await screenshot(staff.page, 'rr-authoring-desktop');
      await form.getByRole('button', { name: 'Add question', exact: true }).click();
      await form.waitFor({ state: 'detached' });
      const publish = await call(`/api/v1/admin/surveys/${gid}/publish/`, {
        body: {},
        token: await token(admin),
        ip: admin.ip,
      });
      expect(publish.status).toBe(200);
      const detail = (await (
        await call(`/api/v1/surveys/${gid}/video-survey`)
      ).json()) as SurveyDetail;
      expect(detail.questions[0]!.rr_weight).toBe(3);
      // Published: the strength is said, no longer offered.
      await staff.page.reload();
      await staff.page.getByRole('button', { name: /^Edit question 1/ }).click();
      await staff.page
        .locator('form.question-form')
        .getByText('On (Strongest deniability). Fixed once the survey is published')
        .waitFor();

      // A member answers "Yes"; the device's draw is fixed to its 5th side: another answer.
      const member = await people.member();
      const { page, watch } = await people.newPage(phone, member);
      await forceableDraw(page);
      const sent: AnswerRequest[] = [];
      page.on('request', (req) => {
        if (
          req.method() === 'POST' &&
          req.url().endsWith(`/questions/${detail.questions[0]!.qid}/answer/`)
        ) {
          sent.push(req.postDataJSON() as AnswerRequest);
        }
      });
      await logIn(page, member);
      await page.getByRole('link', { name: 'My mirror' }).waitFor();
      await page.goto(`/surveys/${gid}`);
      await page.getByRole('button', { name: 'Start the survey' }).click();
      await questionHeading(page, QUESTION).waitFor();
      const explainer = page.locator('details.rr-explainer');
      await explainer.getByText(SUMMARY).click();
      await explainer
        .getByText(
          'the phone rolls a 5-sided die. On 3 sides it sends your answer; on each of the other 2, another answer instead.',
          { exact: false },
        )
        .waitFor();
      await explainer
        .getByText('can be at most 60% sure of your answer without other clues', { exact: false })
        .waitFor();
      await screenshot(page, 'rr-question-phone');
      expect(await axeViolations(page)).toEqual([]);

      // Side 5 of 5 (r = 4): past the 3 that keep "Yes", the second other answer.
      await page.evaluate(() => {
        (window as { __rrForce?: number }).__rrForce = 4;
      });
      await page
        .getByRole('list', { name: 'Answers' })
        .getByRole('button', { name: 'Yes' })
        .click();
      await page.getByRole('heading', { name: 'How everyone answered' }).waitFor();
      await page.evaluate(() => {
        delete (window as { __rrForce?: number }).__rrForce;
      });
      await expect.poll(() => sent.length, { timeout: 15_000 }).toBeGreaterThan(0);
      expect(sent.every((b) => b.choice === 'I would rather not think about it')).toBe(true);
      // The person's own answer stays on this device, never sent.
      const own = await deviceAnswers(page, member.user.uuid);
      expect(own.get(detail.questions[0]!.qid)).toBe('Yes');

      // The mirror shows their own answer, not the one the phone sent.
      await page.getByRole('link', { name: 'My mirror' }).click();
      const section = page.getByRole('region', { name, exact: true });
      await section.waitFor();
      await expect(section.textContent()).resolves.toContain('Yes');
      await expect(section.textContent()).resolves.not.toContain('rather not think');
      await screenshot(page, 'rr-mirror-phone');
      watch.assertNoErrors();
    },
  );

  it(
    'published results read as estimates, each answer with its range, on a phone and a desktop',
    {
      timeout: 240_000,
    },
    async ({ people, admin }) => {
      const as = async (path: string, body: object) =>
        call(path, { body, token: await token(admin), ip: admin.ip });
      const made = await as('/api/v1/admin/surveys/', {
        name: `${AUTHORED_PREFIX}Estimates ${Date.now().toString(36).slice(-4)}`,
        cover_headline: 'What people would not say out loud',
        release_date: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      });
      const { gid } = (await made.json()) as AdminSurvey;
      expect(
        (
          await as(`/api/v1/admin/surveys/${gid}/questions/`, {
            type: 'Closed',
            question: QUESTION,
            choices: CHOICES,
            randomise_answers: false,
            rr_weight: 9,
          })
        ).status,
      ).toBe(201);
      expect((await as(`/api/v1/admin/surveys/${gid}/publish/`, {})).status).toBe(200);
      const detail = (await (
        await call(`/api/v1/surveys/${gid}/video-survey`)
      ).json()) as SurveyDetail;
      const q = detail.questions[0]!;
      // What 36 members' phones sent: the results are worked back from it.
      const sentChoices = [...Array<string>(12).fill('Yes'), ...Array<string>(24).fill('No')];
      for (const choice of sentChoices) {
        await answerByApi(await people.member(), gid, q, undefined, choice);
      }
      // A quiet question's first period may have ended by noise before these arrived (the
      // e2e server tests each period every second: docs/privacy.md, "Quiet questions"), so the
      // next would wait for 40 more. Closing the survey releases what is pending once (decision
      // 021); reopening lets a visitor answer. The answers are mixed in a second or two first.
      const results = async () =>
        ((await (await call(`/api/v1/questions/${q.qid}/results/`)).json()) as QuestionResults)
          .respondents;
      await new Promise((resolve) => setTimeout(resolve, 4000));
      if ((await results()) === null) {
        expect((await as(`/api/v1/admin/surveys/${gid}/close/`, {})).status).toBe(200);
        await expect.poll(results, { timeout: 30_000, interval: 1000 }).not.toBeNull();
        expect((await as(`/api/v1/admin/surveys/${gid}/reopen/`, {})).status).toBe(200);
      }

      for (const [size, options] of [
        ['phone', phone],
        ['desktop', desktop],
      ] as const) {
        // A visitor answers and sees everyone's answers at once (instant feedback).
        const { page, watch } = await people.newPage({ ...options, reducedMotion: 'reduce' });
        await page.goto(`/surveys/${gid}`);
        await page.getByRole('button', { name: 'Start the survey' }).click();
        await questionHeading(page, QUESTION).waitFor();
        await page
          .getByRole('list', { name: 'Answers' })
          .getByRole('button', { name: 'No', exact: true })
          .click();
        const graph = page.getByRole('figure', { name: 'How everyone answered' });
        await graph
          .getByText('Estimated: each phone sent its person’s answer 9 times in 11', {
            exact: false,
          })
          .waitFor();
        // Each answer's estimate with its range, or, where its interval reaches 0 (few answers,
        // a wide margin), "under about N%": never an exact-looking number.
        const bars = await graph
          .locator('.chart--bars .bars__row:not(.bars__row--blank)')
          .allTextContents();
        expect(bars).toHaveLength(CHOICES.length);
        for (const bar of bars) expect(bar).toMatch(/estimated \d+–\d+%|under about \d+%/);
        await screenshot(page, `rr-results-${size}`);
        expect(await axeViolations(page)).toEqual([]);
        watch.assertNoErrors();
      }
    },
  );
});
