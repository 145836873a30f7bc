// A shared browser (issue 28): answers a visitor gives belong to that browser tab. The next
// person to log in there is asked before any are added to their account; once the tab is closed
// they are never offered; "This is not my device" clears them. Checked through the API: which
// answers an account has (GET /api/v1/questions/my-attempted-questions/).
import type { SurveyDetail } from '@candor/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { sampleSurvey } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import {
  answerOnScreen,
  fillPhone,
  logAnswers,
  logIn,
  questionHeading,
  screenshot,
  storedAnswers,
} from './screens';

const baseURL = inject('baseURL');
const SURVEY = 'Consent in Practice';

/** Answers the question on screen with its first choice (or a sentence), then goes on. */
async function answerAndGoOn(page: Page, q: SurveyDetail['questions'][number]) {
  await answerOnScreen(page, q);
  await page.getByRole('button', { name: /Skip rating|Next/ }).click();
}

/** A visitor answers the survey's first `n` questions in `page`. */
async function answerAsVisitor(page: Page, s: SurveyDetail, n: number) {
  await page.goto(`/surveys/${s.gid}`);
  await page.getByRole('button', { name: 'Start the survey' }).click();
  for (const q of s.questions.slice(0, n)) await answerAndGoOn(page, q);
}

/** What this browser's database holds: answered questions and outbox items, by owner. */
function stored(page: Page) {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes('candor')) return { answered: [] as string[], outbox: [] as string[] };
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('candor');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(new Error('open failed'));
    });
    const owners = (store: string) =>
      new Promise<string[]>((resolve, reject) => {
        const req = db.transaction(store).objectStore(store).getAll();
        req.onsuccess = () => resolve((req.result as Array<{ owner: string }>).map((r) => r.owner));
        req.onerror = () => reject(new Error('read failed'));
      });
    const out = { answered: await owners('answeredQuestions'), outbox: await owners('outbox') };
    db.close();
    return out;
  });
}

const claimQuestion = (page: Page, n: number) =>
  page.getByRole('dialog', {
    name: `Add the ${n} answers you gave on this device to your account?`,
  });

describe('a shared browser', () => {
  it("asks the next person before adding a visitor's answers; declined, none are theirs", async ({
    people,
  }) => {
    const s = await sampleSurvey((x) => x.name === SURVEY);
    const b = await people.member();
    // A answers two questions as a visitor and walks away, the tab left open.
    const { context, page, watch } = await people.newPage(desktop);
    const sent = logAnswers(context);
    await answerAsVisitor(page, s, 2);
    expect((await stored(page)).answered).toHaveLength(2);
    await page.getByRole('button', { name: 'Not my device' }).waitFor();
    await screenshot(page, 'navbar-not-my-device-desktop', { fullPage: false });

    // B logs in on the same tab: asked first, and nothing of A's is sent meanwhile.
    await logIn(page, b);
    const dialog = claimQuestion(page, 2);
    await dialog.waitFor();
    // The question has the focus, so a screen reader reads it out; the page behind is inert.
    await expect(
      page.evaluate(() => document.activeElement?.textContent.trim() ?? ''),
    ).resolves.toBe('Add the 2 answers you gave on this device to your account?');
    await screenshot(page, 'claim-question-desktop');
    expect(await axeViolations(page)).toEqual([]);
    expect(storedAnswers(sent)).toEqual([]);
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Gone from the browser, never sent: B's account has none of A's answers.
    await expect.poll(() => stored(page)).toEqual({ answered: [], outbox: [] });
    expect(storedAnswers(sent)).toEqual([]);
    // A's survey place went with the answers: the survey opens on its intro for B.
    await page.getByRole('button', { name: 'Start the survey' }).waitFor();
    watch.assertNoErrors();
    await context.close();
  });

  it('never offers, nor sends, the answers of a visitor whose tab was closed', async ({
    people,
  }) => {
    const s = await sampleSurvey((x) => x.name === SURVEY);
    const b = await people.member();
    const { context, page: first, watch } = await people.newPage(desktop);
    const sent = logAnswers(context);
    await answerAsVisitor(first, s, 2);
    expect((await stored(first)).outbox.length).toBeGreaterThan(0);
    await first.close();

    // B opens a new tab of the same browser and logs in.
    const page = await context.newPage();
    await logIn(page, b);
    await page.getByRole('link', { name: 'My mirror' }).waitFor();
    // The outbox loads with the session and deletes the ended tab's items: none was sent.
    await expect.poll(async () => (await stored(page)).outbox).toEqual([]);
    expect(storedAnswers(sent)).toEqual([]);
    expect((await stored(page)).answered).toEqual([]);
    // Not led to A's survey and question either: home, with no question asked.
    await page.waitForURL(`${baseURL}/`);
    await expect(claimQuestion(page, 2).count()).resolves.toBe(0);
    watch.assertNoErrors();
    await context.close();
  });

  it('counts them once when the visitor at the gate logs in and says they are theirs', async ({
    people,
  }) => {
    const s = await sampleSurvey((x) => x.name === SURVEY);
    const a = await people.member();
    const { context, page, watch } = await people.newPage(phone, a);
    const sent = logAnswers(context);
    await answerAsVisitor(page, s, 3);
    await page.getByRole('heading', { name: 'Sign up to go on' }).waitFor();
    await page.getByRole('link', { name: 'I have an account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await fillPhone(page, a.country, a.national);
    await page.getByLabel('Password', { exact: true }).fill(a.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${baseURL}/surveys/${s.gid}?backFromRegister=true`);
    const dialog = claimQuestion(page, 3);
    await dialog.waitFor();
    await screenshot(page, 'claim-question-phone');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Add my 3 answers' }).click();
    // Back at question 4, the three counted once.
    await questionHeading(page, s.questions[3]!.question).waitFor();
    await expect
      .poll(
        async () =>
          storedAnswers(sent)
            .map((x) => x.qid)
            .sort(),
        { timeout: 10_000 },
      )
      .toEqual(
        s.questions
          .slice(0, 3)
          .map((q) => q.qid)
          .sort(),
      );
    watch.assertNoErrors();
    await context.close();
  });

  it('"This is not my device" on the login screen clears what a visitor left', async ({
    people,
  }) => {
    const s = await sampleSurvey((x) => x.name === SURVEY);
    const b = await people.member();
    const { context, page, watch } = await people.newPage(phone);
    const sent = logAnswers(context);
    await answerAsVisitor(page, s, 2);
    // The navbar offers it too while a visitor's answers are kept here.
    await page.getByRole('button', { name: 'Not my device' }).waitFor();
    await screenshot(page, 'navbar-not-my-device-phone', { fullPage: false });
    // Three items and the logo still fit a 390 px phone's navbar, on one line.
    await expect(
      page.evaluate(() => {
        const links = document.querySelector('.navbar__links')!.getBoundingClientRect();
        return { right: links.right <= window.innerWidth, height: links.height < 60 };
      }),
    ).resolves.toEqual({ right: true, height: true });
    await page.goto('/login');
    const notMine = page.getByRole('button', { name: 'This is not my device' });
    // Drawn first: a screenshot right after the navigation was of an empty page.
    await notMine.waitFor();
    await screenshot(page, 'login-not-my-device-phone');
    await notMine.click();
    await page.waitForURL(`${baseURL}/`);
    await expect.poll(() => stored(page)).toEqual({ answered: [], outbox: [] });
    await expect(page.evaluate(() => localStorage.getItem('surveyId'))).resolves.toBeNull();
    // The next person logs in: nothing to ask, nothing sent.
    await logIn(page, b);
    await page.waitForURL(`${baseURL}/`);
    await page.getByRole('link', { name: 'My mirror' }).waitFor();
    await expect(claimQuestion(page, 2).count()).resolves.toBe(0);
    expect(storedAnswers(sent)).toEqual([]);
    watch.assertNoErrors();
    await context.close();
  });
});
