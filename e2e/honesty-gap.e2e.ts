// Issue 29, point 4 (decision 029): one question asked directly and, of other people drawn at
// random on their phones, with randomized response. The author pairs them in the editor; each
// person is asked one of the two; both graphs and the share card say the gap.
import type { AdminSurvey, QuestionResults, SurveyDetail } from '@candor/contracts';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { AUTHORED_PREFIX, answerByApi, call, token } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { newQuestionForm, questionHeading, screenshot } from './screens';

const QUESTION = 'Have you ever driven after a few drinks?';
const ORDINARY = 'Do you drive most days?';
const CHOICES = ['Yes', 'No'];

/**
 * Fixes every one-word draw of the page (the arm of each pair and the randomized-response die
 * ask crypto.getRandomValues for one) to `value`: 0 draws the direct arm, 1 the randomized one
 * (and, at m = 3, keeps the person's own answer).
 */
async function fixDraws(page: Page, value: number) {
  await page.addInitScript((forced) => {
    const original = crypto.getRandomValues.bind(crypto);
    crypto.getRandomValues = <T extends ArrayBufferView | null>(array: T): T => {
      if (array instanceof Uint32Array && array.length === 1) {
        array[0] = forced;
        return array;
      }
      return original(array as never);
    };
  }, value);
}

describe('the honesty gap (decision 029)', () => {
  it(
    'an author pairs a question with its randomized twin; each person is asked one; both graphs say the gap',
    { timeout: 300_000 },
    async ({ people, admin }) => {
      const as = async (path: string, body: object) =>
        call(path, { body, token: await token(admin), ip: admin.ip });
      const name = `${AUTHORED_PREFIX}Gap ${Date.now().toString(36).slice(-4)}`;
      const made = await as('/api/v1/admin/surveys/', {
        name,
        cover_headline: 'What people admit when nobody can know',
        release_date: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      });
      const { gid } = (await made.json()) as AdminSurvey;
      for (const question of [QUESTION, ORDINARY]) {
        const res = await as(`/api/v1/admin/surveys/${gid}/questions/`, {
          type: 'Closed',
          question,
          choices: CHOICES,
          randomise_answers: false,
        });
        expect(res.status).toBe(201);
      }

      // The author adds the randomized twin in the editor and pairs it with question 1.
      const staff = await people.newPage(desktop, admin);
      const form = await newQuestionForm(staff.page, admin, name, QUESTION, CHOICES);
      await form.getByLabel('Randomized response', { exact: true }).selectOption({ index: 1 });
      const pair = form.getByLabel('Also ask it directly (the honesty gap)');
      await expect(pair.locator('option').allTextContents()).resolves.toEqual([
        'No: ask it this way only',
        `Question 1: ${QUESTION}`,
        `Question 2: ${ORDINARY}`,
      ]);
      await pair.selectOption({ index: 1 });
      await screenshot(staff.page, 'gap-authoring-desktop');
      await form.getByRole('button', { name: 'Add question', exact: true }).click();
      await form.waitFor({ state: 'detached' });
      // The list says the pair on both of its questions.
      const facts = staff.page.getByRole('list', { name: 'About this question' });
      await facts.filter({ hasText: 'Paired with question 3' }).waitFor();
      await facts
        .filter({ hasText: 'Randomized response' })
        .filter({ hasText: 'Paired with question 1' })
        .waitFor();
      expect((await as(`/api/v1/admin/surveys/${gid}/publish/`, {})).status).toBe(200);
      const detail = (await (
        await call(`/api/v1/surveys/${gid}/video-survey`)
      ).json()) as SurveyDetail;
      const [direct, , randomized] = detail.questions as [
        SurveyDetail['questions'][number],
        SurveyDetail['questions'][number],
        SurveyDetail['questions'][number],
      ];
      expect(randomized).toMatchObject({ rr_weight: 3, twin_qid: direct.qid });
      expect(direct.twin_qid).toBe(randomized.qid);
      expect(detail.questions_count).toBe(2);

      // 30 members asked directly (a third say Yes); 30 with randomized response, their phones
      // sending what they drew (two in three sent Yes: an estimate of about 83%). Neither arm is
      // nearly all one answer, whose split would not be shown (and so neither would the gap).
      for (let i = 0; i < 30; i++) {
        await answerByApi(await people.member(), gid, direct, undefined, i % 3 ? 'No' : 'Yes');
        await answerByApi(await people.member(), gid, randomized, undefined, i % 3 ? 'Yes' : 'No');
      }
      const gapOf = async () =>
        ((await (await call(`/api/v1/questions/${direct.qid}/results/`)).json()) as QuestionResults)
          .honesty_gap;
      const published = async () => (await gapOf())?.choices.every((c) => c.points !== null);
      // A quiet question's first period may have ended by noise already; closing releases what
      // is pending once (decision 021), and reopening lets people answer again.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      if (!(await published())) {
        expect((await as(`/api/v1/admin/surveys/${gid}/close/`, {})).status).toBe(200);
        await expect.poll(published, { timeout: 30_000, interval: 1000 }).toBe(true);
        expect((await as(`/api/v1/admin/surveys/${gid}/reopen/`, {})).status).toBe(200);
      }
      const gap = (await gapOf())!;
      expect(gap.randomized_qid).toBe(randomized.qid);

      // Two visitors: one drawn to be asked directly (phone), one with randomized response
      // (desktop). Each is asked two questions, never both of the pair.
      for (const [arm, size, options] of [
        [0, 'phone', phone],
        [1, 'desktop', desktop],
      ] as const) {
        const { page, watch } = await people.newPage({ ...options, reducedMotion: 'reduce' });
        await fixDraws(page, arm);
        await page.goto(`/surveys/${gid}`);
        await page.getByRole('button', { name: 'Start the survey' }).click();
        const first = arm === 0 ? QUESTION : ORDINARY;
        await questionHeading(page, first).waitFor();
        await page.getByText('Question 1 of 2').waitFor();
        if (arm === 1) {
          await page
            .getByRole('list', { name: 'Answers' })
            .getByRole('button', { name: 'No' })
            .click();
          await page.getByRole('button', { name: /^(Next|Skip rating and go on)/ }).click();
          await questionHeading(page, QUESTION).waitFor();
          await page.getByText('Question 2 of 2').waitFor();
        }
        // The randomized twin comes with its explainer; the direct question without.
        await expect(page.locator('details.rr-explainer').count()).resolves.toBe(arm);
        await page
          .getByRole('list', { name: 'Answers' })
          .getByRole('button', { name: 'Yes' })
          .click();
        const graph = page.getByRole('figure', { name: 'How everyone answered' });
        const region = graph.getByRole('region', { name: 'The honesty gap' });
        await region.waitFor();
        const text = (await region.textContent()) ?? '';
        expect(text).toMatch(
          /When nobody can know, about \d+ points? (more|fewer) say “(Yes|No)” \(-?\d+ to -?\d+\)\.|No clear gap/,
        );
        expect(text).toContain(
          `Asked directly of about ${gap.direct_respondents!.toLocaleString('en')} verified people`,
        );
        await region.scrollIntoViewIfNeeded();
        await screenshot(page, `gap-results-${size}`);
        expect(await axeViolations(page)).toEqual([]);
        watch.assertNoErrors();
      }
    },
  );
});
