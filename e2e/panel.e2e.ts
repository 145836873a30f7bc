// A research-panel respondent in Chromium: arrives with the panel's link, answers as a visitor,
// signs up midway, finishes, and gets a completion code the server issued and can verify.
import type { PanelCodeCheck, SurveyDetail } from '@candor/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { type Caller, call, sampleSurvey, token } from './api';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { answerOnScreen, logIn, readDownload, screenshot, signUp } from './screens';

const baseURL = inject('baseURL');

/** The operators' check of a code a panel reports. */
async function checkCode(admin: Caller, gid: string, panel: string, pid: string, code: string) {
  const res = await call(`/api/v1/admin/surveys/${gid}/panel-completions/check/`, {
    body: { panel, pid, code },
    token: await token(admin),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as PanelCodeCheck;
}

/** Answers the question on screen (the first choice, or a sentence), rates it where asked and goes on. */
async function answerAndGoOn(page: Page, q: SurveyDetail['questions'][number]) {
  await answerOnScreen(page, q);
  // Where the screen asks for the rating (one question in four), a score picked goes on by
  // itself (decision 016); elsewhere Next does.
  await page.locator('.feedback__actions').waitFor();
  if (await page.getByRole('radiogroup').isVisible()) {
    await page.getByRole('radio', { name: '6', exact: true }).click({ force: true });
  } else {
    await page.getByRole('button', { name: /^Next/ }).click();
  }
}

describe('research panel respondents in Chromium', () => {
  it('a panel visitor signs up midway, finishes, and gets a code the server verifies', async ({
    people,
    admin,
  }) => {
    const s = await sampleSurvey((x) => x.name === 'Consent in Practice');
    // Unique per attempt: the counts below are this attempt's alone.
    const panel = `e2e-panel-${Date.now().toString(36)}`;
    const pid = 'PID-4711';
    const returnUrl = 'https://panel.example/complete?study=9';
    const { context, page, watch, who } = await people.newPage(phone);
    const link = new URLSearchParams({ panel, pid, return: returnUrl });
    await page.goto(`/surveys/${s.gid}?${link.toString()}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    for (const q of s.questions.slice(0, 3)) await answerAndGoOn(page, q);

    // Signing up leaves the survey (and its link's parameters) and comes back without them.
    await page.getByRole('heading', { name: 'Sign up to go on' }).waitFor();
    await page.getByRole('link', { name: 'Sign up and go on' }).click();
    await signUp(page, who);
    await page.getByRole('dialog').getByRole('button', { name: 'Add my 3 answers' }).click();
    await page.getByRole('link', { name: 'Back to your survey' }).click();
    await page.waitForURL(`${baseURL}/surveys/${s.gid}?backFromRegister=true`);
    for (const q of s.questions.slice(3)) await answerAndGoOn(page, q);

    await page.getByRole('heading', { name: 'Thank you for your candour' }).waitFor();
    const shown = page.getByTestId('panel-code');
    await shown.waitFor({ timeout: 20_000 });
    const code = (await shown.textContent())!.trim();
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{12}$/);
    const back = page.getByRole('link', { name: 'Return to the panel' });
    expect(await back.getAttribute('href')).toBe(returnUrl);
    await screenshot(page, 'panel-outro-phone');

    // Candor issued it to this participant: valid; for another participant, or altered, not.
    expect((await checkCode(admin, s.gid, panel, pid, code)).valid).toBe(true);
    expect((await checkCode(admin, s.gid, panel, 'PID-4712', code)).valid).toBe(false);
    const altered = `${code.slice(0, 11)}${code.endsWith('A') ? 'B' : 'A'}`;
    expect((await checkCode(admin, s.gid, panel, pid, altered)).valid).toBe(false);
    watch.assertNoErrors();
    await context.close();

    // The operator sees the completion beside the survey's results, and downloads it.
    const staff = await people.newPage(desktop, admin);
    await logIn(staff.page, admin);
    await staff.page.waitForURL(`${baseURL}/`);
    await staff.page.goto(`/admin/results?survey=${s.gid}`);
    const section = staff.page.getByRole('region', { name: 'Panel completions' });
    const row = section.getByRole('row').filter({ hasText: panel });
    await row.waitFor();
    await expect(row.getByRole('cell').nth(1).textContent()).resolves.toBe('1');
    await screenshot(staff.page, 'panel-completions-admin-desktop');
    const [download] = await Promise.all([
      staff.page.waitForEvent('download'),
      section.getByRole('button', { name: 'Download completions CSV' }).click(),
    ]);
    const csv = await readDownload(download);
    expect(csv).toContain(`"${panel}","${code}"`);
    expect(csv).not.toContain(pid);
    staff.watch.assertNoErrors();
    await staff.context.close();
  }, 120_000);
});
