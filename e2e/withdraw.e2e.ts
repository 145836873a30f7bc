// Withdrawing one survey's answers from the mirror (issue 28, decision 020 slice 4): with the
// survey's credential and no session, the API takes them out of the results and the database;
// this device's record goes too, and answering the survey again is refused.
import type { Page, Request } from 'playwright-core';
import { describe, expect } from 'vitest';
import { sampleSurvey } from './api';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { logAnswers, logIn, questionHeading, screenshot, storedAnswers, toast } from './screens';

const sizes = [
  ['phone', phone],
  ['desktop', desktop],
] as const;

/** Picks the first real choice of the closed question on screen. */
async function pickFirst(page: Page): Promise<void> {
  await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
}

describe('withdrawing a survey’s answers', () => {
  it.for(sizes)(
    'on a %s, the mirror withdraws them with the credential alone, and they are gone',
    { timeout: 120_000 },
    async ([size, options], { people }) => {
      const s = await sampleSurvey((x) => x.name === 'Consent in Practice');
      const member = await people.member();
      const { context, page, watch } = await people.newPage(options, member);
      const sent = logAnswers(context);
      await logIn(page, member);
      await page.getByRole('link', { name: 'My mirror' }).waitFor();
      await page.goto(`/surveys/${s.gid}`);
      await page.getByRole('button', { name: 'Start the survey' }).click();
      for (const q of s.questions.slice(0, 2)) {
        await questionHeading(page, q.question).waitFor();
        await pickFirst(page);
        await page.getByText(/^Your answer: /).waitFor();
        await page
          .getByRole('button', { name: /Skip rating and go on|Next/ })
          .first()
          .click();
      }
      await expect.poll(() => storedAnswers(sent).length).toBe(2);

      await page.getByRole('link', { name: 'My mirror' }).click();
      await page.getByRole('heading', { level: 1, name: 'Where you stand' }).waitFor();
      const group = page.locator('.mirror-survey').filter({ hasText: s.name });
      await expect.poll(() => group.locator('.mirror-item').count()).toBe(2);
      await group.getByRole('button', { name: 'Withdraw these answers…' }).click();
      const dialog = page.getByRole('dialog', { name: `Withdraw your answers to ${s.name}?` });
      await dialog.waitFor();
      await expect(dialog.textContent()).resolves.toContain('You cannot answer this survey again');
      await screenshot(page, `withdraw-dialog-${size}`, { fullPage: false });

      const requests: Request[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/answers/withdrawal/')) requests.push(r);
      });
      await dialog.getByRole('button', { name: 'Withdraw my answers' }).click();
      await toast(page, `Your answers to ${s.name} were withdrawn`).waitFor();
      await expect.poll(() => group.count()).toBe(0);
      await screenshot(page, `withdraw-done-${size}`);

      // One request, with the credential and without the session or a cookie.
      expect(requests).toHaveLength(1);
      const headers = await requests[0]!.allHeaders();
      expect(headers['candor-credential']).toMatch(/^[\w-]+\.[\w-]+$/);
      expect(headers.authorization).toBeUndefined();
      expect(headers.cookie).toBeUndefined();

      // This device no longer holds the answers: after a reload the mirror stays without them,
      // and the survey does not offer to continue where they were.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Where you stand' }).waitFor();
      await page.locator('.mirror__loading').waitFor({ state: 'detached' });
      await expect(group.count()).resolves.toBe(0);

      // The survey's page says so, and offers no start.
      await page.goto(`/surveys/${s.gid}`);
      await page
        .getByRole('heading', { level: 1, name: `You withdrew your answers to ${s.name}` })
        .waitFor();
      await expect(
        page.getByRole('button', { name: /Start the survey|Continue/ }).count(),
      ).resolves.toBe(0);
      await screenshot(page, `withdraw-survey-page-${size}`);
      watch.assertNoErrors();
      await context.close();
    },
  );
});
