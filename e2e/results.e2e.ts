import type { MyData, QuestionResults, SurveyDetail } from '@candor/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { call, logInByApi, sampleSurvey } from './api';
import { desktop, phone } from './chromium';
import { it, test } from './fixtures';
import {
  logIn,
  pinRatings,
  questionHeading,
  readDownload,
  screenshot,
  signUp,
  toast,
} from './screens';

const baseURL = inject('baseURL');

test.override('contextOptions', { acceptDownloads: true, reducedMotion: 'reduce' });

const survey = (name: string) => sampleSurvey((s) => s.name === name);

/**
 * A question's published results as everyone reads them, without a session, as the web app does
 * (one breakdown or none): a member's answers go with an anonymous credential, so what the API
 * would tell their session says nothing of them.
 */
async function published(qid: string, breakdown?: string) {
  const query = breakdown ? `?breakdown=${breakdown}` : '';
  const res = await call(`/api/v1/questions/${qid}/results/${query}`);
  return (await res.json()) as QuestionResults;
}

/** Starts the survey and answers its first question with its first real choice. */
async function answerFirst(page: Page, s: SurveyDetail): Promise<string> {
  await page.goto(`/surveys/${s.gid}`);
  await page.getByRole('button', { name: 'Start the survey' }).click();
  const q = s.questions[0]!;
  await page.getByRole('heading', { level: 1, name: q.question }).waitFor();
  const first = page.getByRole('list', { name: 'Answers' }).getByRole('button').first();
  const label = (await first.textContent())!.trim();
  await first.click();
  await page.getByRole('heading', { name: 'How everyone answered' }).waitFor();
  return label;
}

const GENDER_GROUPS = ['Women', 'Men', 'Non-binary', 'Another gender', 'Prefer not to say'];

/** Switches the graph to a breakdown and waits for its groups. */
async function breakDownBy(page: Page, label: string) {
  const group = page.getByRole('group', { name: 'Show answers by' });
  await group.getByRole('button', { name: label }).click();
  // The switch re-renders after the click: wait for it to show as pressed.
  await group.locator('button[aria-pressed="true"]', { hasText: label }).waitFor();
  await page.locator('.groups__item').first().waitFor();
}

/** At `width` px the page scrolls only down, never sideways; then back to the phone's width. */
async function fitsWidth(page: Page, width: number, shot: string) {
  const before = page.viewportSize()!;
  await page.setViewportSize({ width, height: before.height });
  await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBe(width);
  await screenshot(page, shot);
  await page.setViewportSize(before);
}

describe('results, mirror and my data in Chromium', () => {
  it('a member sees the graph and a breakdown, the mirror, downloads and deletes their data', async ({
    people,
  }) => {
    const s = await survey('Time Travel');
    const q = s.questions[0]!;
    const { context, page, watch, who } = await people.newPage(phone);
    // The first question's feedback asks for the rating (one question in four does).
    await pinRatings(page);
    await signUp(page, who);
    const given = await answerFirst(page, s);

    // The whole graph: the own choice named in words, in the chart and its table alternative,
    // said to count within the published threshold of the next update.
    await page.waitForFunction(() => document.querySelector('.chart--bars') !== null);
    const overall = await published(q.qid);
    const when = `yours counts within about ${overall.next_update_after.toLocaleString('en')} more answers`;
    const label = await page.locator('.bars__row--mine .bars__label').textContent();
    expect(label?.replace(/\s+/g, ' ')).toBe(`${given} · ${when}`);
    await expect(page.getByRole('rowheader', { name: `${given} (${when})` }).count()).resolves.toBe(
      1,
    );
    // Left blank is a bar: the bars add up to everyone counted (100%, give or take rounding).
    const overallBars = page.locator('.chart--bars .bars__row');
    await expect(overallBars.last().locator('.bars__label').textContent()).resolves.toBe(
      'Left blank',
    );
    const widths = await overallBars
      .locator('.bars__fill')
      .evaluateAll((els) => els.map((el) => parseFloat((el as HTMLElement).style.width)));
    expect(Math.abs(widths.reduce((a, b) => a + b, 0) - 100)).toBeLessThan(0.5);
    await page.getByText(/^[\d,]+ verified people$/).waitFor();
    // On a phone the reveal shows the own bar and the lead; every answer is a tap away.
    await page.getByRole('button', { name: /^See all \d+ answers$/ }).click();
    await expect(overallBars.last().isVisible()).resolves.toBe(true);
    await screenshot(page, 'results-graph-phone');

    // By gender: every group named for people, each either with its bars or said hidden.
    await breakDownBy(page, 'Gender');
    const groups = page.locator('.groups__item');
    const names = await groups.locator('.groups__name').allTextContents();
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) {
      expect(GENDER_GROUPS.some((g) => name.startsWith(g))).toBe(true);
    }
    for (const text of await groups.allTextContents()) {
      expect(text).toMatch(/hidden to protect privacy|\d+%/i);
      expect(text).not.toMatch(/Nobody|n = /);
    }
    // A hidden cell says so and has no bar; a share inside its noise says "under about N%";
    // neither is ever drawn as an exact-looking 0%.
    for (const row of await page.locator('.bars__row').all()) {
      const value = (await row.locator('.bars__value').textContent())!;
      expect(value).toMatch(/^(\d+%|hidden|under about \d+%)$/);
      expect(value).not.toBe('0%');
      await expect(row.locator('.bars__fill').count()).resolves.toBe(value === 'hidden' ? 0 : 1);
    }
    // Each shown group's note is that group's own margin from the API, never the overall one.
    const byGender = (await published(q.qid, 'gender')).breakdown!.groups;
    const GENDER_KEYS = ['female', 'male', 'non_binary', 'other', 'undisclosed'];
    let checked = 0;
    for (const item of await page.locator('.groups__item:not(.groups__item--hidden)').all()) {
      const name = (await item.locator('.groups__name').textContent())!;
      const key = GENDER_KEYS[GENDER_GROUPS.findIndex((g) => name.startsWith(g))]!;
      const group = byGender.find((g) => g.key === key)!;
      expect(group.margin, key).not.toBeNull();
      const points = Math.max(1, Math.round(group.margin!));
      await expect(item.locator('.groups__margin').textContent()).resolves.toBe(
        `Each share here is within ±${points} ${points === 1 ? 'point' : 'points'}, 95 times in 100`,
      );
      // A group of a few hundred is far noisier than the whole: its note is not the overall one.
      expect(group.margin!).toBeGreaterThan(overall.margin!);
      await expect(item.locator('.groups__name').textContent()).resolves.toMatch(
        new RegExp(`· ${group.respondents!.toLocaleString('en')} verified people$`),
      );
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
    await expect(page.getByText(/Each share is within ±/).count()).resolves.toBe(0);
    await expect(
      page.locator('.groups__item:not(.groups__item--hidden)').count(),
    ).resolves.toBeGreaterThan(0);
    await page.locator('.groups').scrollIntoViewIfNeeded();
    await screenshot(page, 'results-breakdown-phone');
    await fitsWidth(page, 320, 'results-breakdown-320');
    // A score picked goes on by itself (decision 016), to the next question.
    await page.getByRole('radio', { name: '8', exact: true }).click({ force: true });
    await questionHeading(page, s.questions[1]!.question).waitFor();

    // The mirror: the question, the answer and how many answered the same.
    await page.getByRole('link', { name: 'My mirror' }).click();
    await page.getByRole('heading', { level: 1, name: 'Where you stand' }).waitFor();
    const item = page.locator('.mirror-item', { hasText: q.question });
    await item.waitFor();
    await expect(item.locator('.mirror-item__answer').textContent()).resolves.toBe(
      `Your answer ${given}`,
    );
    // The mirror sets the device's answer against the published results everyone reads.
    const now = await published(q.qid);
    const share = now.choices.find((c) => c.choice === given);
    const expected =
      now.respondents === null
        ? /^No results yet/
        : share?.percent == null
          ? /Share hidden to protect privacy/
          : share.margin != null && share.percent <= share.margin
            ? new RegExp(`^Under about \\d+% answered the same`)
            : new RegExp(`^About ${Math.round(share.percent)}%( \\(±\\d+\\))? answered the same`);
    await expect(item.locator('.mirror-item__same p').textContent()).resolves.toMatch(expected);
    await screenshot(page, 'mirror-phone');
    await fitsWidth(page, 320, 'mirror-320');

    // Download my data: a JSON file with the phone number and the answer.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('candor-my-data.json');
    const data = JSON.parse(await readDownload(download)) as MyData;
    expect(data.account.phone_number).toBe(who.e164);
    expect(data.answers.find((a) => a.qid === q.qid)?.answer).toBe(given);

    // Delete: the dialog says what goes; a wrong password is refused under its field.
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.waitFor();
    await dialog
      .getByText(
        'This erases your phone number and country, your sessions on every device, your encrypted vault with your year of birth and gender, your answers, ratings and timings; your answers leave all future results. This cannot be undone.',
      )
      .waitFor();
    await dialog.getByLabel('Your password').fill('not my password at all');
    await screenshot(page, 'delete-confirm-phone');
    await dialog.getByRole('button', { name: 'Delete my account', exact: true }).click();
    await dialog.getByText('That is not your password.').waitFor();
    await expect(logInByApi(who).then((t) => t.status)).resolves.toBe(200);
    await dialog.getByLabel('Your password').fill(who.password);
    await dialog.getByRole('button', { name: 'Delete my account', exact: true }).click();
    await page.waitForURL(`${baseURL}/`);
    await toast(page, 'Your account was deleted').waitFor();
    await page.getByRole('link', { name: 'Log in' }).waitFor();
    await expect(page.getByRole('link', { name: 'My mirror' }).count()).resolves.toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('AuthToken'))).toBeNull();

    // The account is gone: the same phone and password no longer log in.
    await logIn(page, who);
    await page
      .locator('.auth-card [role="alert"]', {
        hasText: 'The phone number or password is not right.',
      })
      .waitFor();
    await expect(page.getByRole('heading', { name: 'Log in' }).count()).resolves.toBe(1);
    const refused = await logInByApi(who);
    expect(refused.status).toBe(400);
    expect(refused.access).toBeUndefined();
    watch.assertNoErrors();
    await context.close();
  });

  it('on a desktop: a breakdown by age, the mirror and the delete confirmation', async ({
    people,
  }) => {
    const s = await survey('Time Travel');
    const { context, page, watch, who } = await people.newPage(desktop);
    await signUp(page, who);
    const given = await answerFirst(page, s);
    await breakDownBy(page, 'Age');
    const names = await page.locator('.groups__name').allTextContents();
    expect(names.every((n) => /^(\d\d–\d\d|65 and over)/.test(n))).toBe(true);
    expect(names[0]).toMatch(/^18–24/);
    await screenshot(page, 'results-breakdown-desktop');
    await breakDownBy(page, 'Country');
    await screenshot(page, 'results-breakdown-country-desktop');
    await page
      .getByRole('group', { name: 'Show answers by' })
      .getByRole('button', { name: 'All' })
      .click();
    await page
      .getByRole('rowheader', {
        name: new RegExp(
          `^${given.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(yours counts within about [\\d,]+ more answers\\)$`,
        ),
      })
      .waitFor({ state: 'attached' });
    await page.getByRole('button', { name: /^(Skip rating and go on|Next)/ }).click();
    await page.goto('/me');
    await page
      .locator('.mirror-item')
      .first()
      .waitFor()
      .catch(async (err: unknown) => {
        await screenshot(page, 'failure-mirror-desktop');
        throw err;
      });
    await screenshot(page, 'mirror-desktop');
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.waitFor();
    await screenshot(page, 'delete-confirm-desktop');
    // Keeping the account closes the dialog and keeps the session.
    await dialog.getByRole('button', { name: 'Keep my account' }).click();
    await expect(dialog.isVisible()).resolves.toBe(false);
    await page.getByRole('heading', { level: 1, name: 'Where you stand' }).waitFor();
    watch.assertNoErrors();
    await context.close();
  });

  it('a new member sees an empty mirror with a way to the surveys', async ({ people }) => {
    const { context, page, watch, who } = await people.newPage(phone);
    await signUp(page, who);
    await page.goto('/me');
    await page.getByText('You have not answered any question yet.', { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Find a survey' }).waitFor();
    await screenshot(page, 'mirror-empty-phone');
    watch.assertNoErrors();
    await context.close();
  });

  it('a logged-out visitor gets no cookie on /, a survey and /privacy, and /me asks to log in', async ({
    people,
  }) => {
    const s = await survey('Consent in Practice');
    const { context, page, watch } = await people.newPage(desktop);
    await page.goto('/');
    await page.locator('.brick').first().waitFor();
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).waitFor();
    await page.goto('/privacy');
    await page.getByText('Candor sets no cookies while you are logged out.').waitFor();
    await page.goto('/me');
    await page.waitForURL(`${baseURL}/login`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect(await context.cookies()).toEqual([]);
    watch.assertNoErrors();
    await context.close();
  });
});
