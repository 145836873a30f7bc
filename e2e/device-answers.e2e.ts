// The member's answers are the device's (issue 28, decision 020): the mirror and where a survey
// resumes come from this browser's records alone. The member answers in the page (with the
// survey's credential); with the API's lists unreachable the device still shows the answers,
// and neither the spec's "my attempted questions" nor the API's mirror is ever asked: the
// server holds nothing of the member's answers (the old path's were severed, decision 020).
import { describe, expect } from 'vitest';
import { call, sampleSurvey, token } from './api';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { answerInPage, deviceAnswers, logIn, questionHeading, screenshot } from './screens';

const sizes = [
  ['phone', phone],
  ['desktop', desktop],
] as const;

describe("the member's answers on their device", () => {
  it.for(sizes)(
    "on a %s, the device alone shows the member's answers and where the survey resumes",
    { timeout: 120_000 },
    async ([size, options], { people }) => {
      const s = await sampleSurvey((x) => x.name === 'Time Travel');
      const member = await people.member();
      const answered = s.questions.slice(0, 2);
      const { context, page, watch } = await people.newPage(options, member);
      const asked: string[] = [];
      page.on('request', (r) => {
        if (/my-attempted-questions|\/user\/mirror\//.test(r.url())) asked.push(r.url());
      });
      await logIn(page, member);
      await page.getByRole('link', { name: 'My mirror' }).waitFor();
      await answerInPage(page, s, answered.length);
      await page.getByRole('link', { name: 'My mirror' }).click();
      await page.getByRole('heading', { level: 1, name: 'Where you stand' }).waitFor();
      const group = page.locator('.mirror-survey').filter({ hasText: s.name });
      await expect.poll(() => group.locator('.mirror-item').count(), { timeout: 10_000 }).toBe(2);
      const detail = await call('/api/v1/user/detail/', { token: await token(member) });
      const { uuid } = (await detail.json()) as { uuid: string };
      expect([...(await deviceAnswers(page, uuid)).keys()].sort()).toEqual(
        answered.map((q) => q.qid).sort(),
      );
      // Nothing per account about answering is asked.
      expect(asked).toEqual([]);
      watch.assertNoErrors();

      // The API's lists gone: the mirror and the survey still know what was answered.
      await page.route(/my-attempted-questions|\/user\/mirror\//, (route) => route.abort());
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Where you stand' }).waitFor();
      await expect.poll(() => group.locator('.mirror-item').count(), { timeout: 10_000 }).toBe(2);
      for (const q of answered) await expect(group.getByText(q.question).count()).resolves.toBe(1);
      await screenshot(page, `device-answers-mirror-${size}`);

      // The survey goes on after them: at once where this tab kept its place, else from "Continue".
      await page.goto(`/surveys/${s.gid}`);
      const goOnFrom = page.getByRole('button', { name: /Continue/ });
      const next = questionHeading(page, s.questions[answered.length]!.question);
      await goOnFrom.or(next).first().waitFor();
      if (await goOnFrom.isVisible()) await goOnFrom.click();
      const onScreen = async (qs: typeof s.questions) => {
        for (const q of qs) if (await questionHeading(page, q.question).isVisible()) return true;
        return false;
      };
      await expect.poll(() => onScreen(s.questions.slice(2))).toBe(true);
      expect(await onScreen(answered)).toBe(false);
      await context.close();
    },
  );
});
