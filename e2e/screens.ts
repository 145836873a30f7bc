// What a person does on the screens, shared by the specs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnswerResponse, SurveyDetail } from '@candor/contracts';
import type { BrowserContext, Download, Locator, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { outboxCount, waitForCode } from './api';
import { keepSecret, nextCode, secretOf } from './second-factor';

const shotsDir = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));

/**
 * Saves a full-page screenshot for people to look at (test-results/screenshots). `fullPage:
 * false` keeps to the viewport: after Chromium's full-page capture of an emulated touch phone,
 * hover styles under the pointer apply that a real phone (no hover) never shows.
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  fs.mkdirSync(shotsDir, { recursive: true });
  // Finite animations and transitions are finished first: a screen fading in reads as grey.
  await page.screenshot({
    path: path.join(shotsDir, `${name}.png`),
    fullPage,
    animations: 'disabled',
  });
}

/** Collects page errors and console errors; a test ends with `assertNoErrors()`. */
export function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // Chromium logs every 4xx answer as a console error; those are expected API answers
    // (an expired token before its refresh, a refused password). Server errors are not.
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(m.text()))
      return;
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  return {
    errors,
    assertNoErrors: () => expect(errors).toEqual([]),
  };
}

/** The text of a file the page downloaded. */
export async function readDownload(download: Download): Promise<string> {
  return fs.readFileSync(await download.path(), 'utf8');
}

/** The question on screen, by its text. */
export const questionHeading = (page: Page, text: string) =>
  page.getByRole('heading', { level: 1, name: text });

/** A toast with this text. */
export const toast = (page: Page, text: string | RegExp) =>
  page.locator('[data-sonner-toast]', { hasText: text }).first();

/** Types a number into the phone field: picks the country, then the national number. */
export async function fillPhone(page: Page, country: string, national: string) {
  await page.getByLabel('Country calling code').selectOption(country);
  await page.getByLabel('Phone number').fill(national);
}

/** Signs up through the screens with the code from the file outbox; ends on the welcome screen. */
export async function signUp(
  page: Page,
  who: { country: string; national: string; e164: string; password: string; shots?: string },
) {
  const shots = who.shots ?? '';
  if (!page.url().endsWith('/signup')) await page.goto('/signup');
  await fillPhone(page, who.country, who.national);
  await page.getByLabel('Year of birth').fill('1990');
  await page.getByRole('radio', { name: 'Woman' }).check();
  if (shots) await screenshot(page, `signup-${shots}`);
  const before = outboxCount(who.e164);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
  const code = await waitForCode(who.e164, before);
  if (shots) await screenshot(page, `verify-${shots}`);
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Choose a password' }).waitFor();
  await page.getByLabel('Password').fill(who.password);
  if (shots) await screenshot(page, `set-password-${shots}`);
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await page.getByRole('heading', { name: /You're verified/ }).waitFor();
  if (shots) await screenshot(page, `welcome-${shots}`);
}

/** Logs in through the login screen (and does not wait for the outcome). */
export async function logIn(
  page: Page,
  who: { country: string; national: string; password: string; e164?: string; staff?: boolean },
) {
  await page.goto('/login');
  await fillPhone(page, who.country, who.national);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  // Staff (known by their authenticator, or said to be): the second step (decision 024).
  if (who.e164 && (who.staff || secretOf(who.e164))) await giveSecondFactor(page, who.e164);
}

/**
 * The second step of a staff login in the page: the first time, the setup key is read off the
 * screen (as a person would type it into their app) and kept; then the app's code is typed.
 */
export async function giveSecondFactor(page: Page, e164: string) {
  await page.waitForURL('**/login/code');
  const enrol = page.getByRole('heading', { level: 1, name: 'Set up your authenticator' });
  const enter = page.getByRole('heading', { level: 1, name: 'Enter your code' });
  await enrol.or(enter).waitFor();
  if (await enrol.isVisible()) {
    const key = page.locator('.second-factor__key');
    await expect.poll(() => key.textContent()).toMatch(/^[A-Z2-7 ]{16,}$/);
    keepSecret(e164, (await key.textContent())!.replace(/\s/g, ''));
    await page.getByLabel('First code from the app').fill(await nextCode(e164));
    await page.getByRole('button', { name: 'Turn on and log in' }).click();
  } else {
    await page.getByLabel('6-digit code').fill(await nextCode(e164));
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
  }
  await page.waitForURL((url) => url.pathname !== '/login/code');
}

/**
 * Logs in as staff (the password, then the second factor: set up now if this is their first
 * login), then opens the staff area from the navbar (it lands on the signups).
 */
export async function openAdmin(
  page: Page,
  who: { country: string; national: string; password: string; e164: string },
) {
  await logIn(page, { ...who, staff: true });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await page.waitForURL(`${inject('baseURL')}/admin/signups`);
}

/** A tab of the staff area's navigation. */
export const staffTab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name, exact: true });

/**
 * Logs staff in, opens the survey named `name` in the editor and its new-question form, with
 * the question and its choices typed in; returns the form.
 */
export async function newQuestionForm(
  page: Page,
  who: Parameters<typeof openAdmin>[1],
  name: string,
  question: string,
  choices: readonly string[],
): Promise<Locator> {
  await openAdmin(page, who);
  await staffTab(page, 'Surveys').click();
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('button', { name: 'Add question' }).first().click();
  const form = page.locator('form.question-form');
  await form.getByLabel('Question', { exact: true }).fill(question);
  for (const [i, choice] of choices.entries()) {
    const field = form.getByLabel(`Choice ${i + 1}`, { exact: true });
    if (!(await field.count())) await form.getByRole('button', { name: 'Add a choice' }).click();
    await field.fill(choice);
  }
  await form.getByLabel('Shuffle the choices for each person').uncheck();
  return form;
}

/** One answer a page sent, as the API saw it. */
export interface SentAnswer {
  qid: string;
  status: number;
  /** Sent with an anonymous credential (`Candor-Credential`). */
  credential: boolean;
  /** Sent with the session (`Authorization`) or a cookie. */
  session: boolean;
  /** The API's body: the stored answer on 200/201. */
  response: AnswerResponse | null;
}

/**
 * Every answer the context's pages send, from now on. The API cannot say which answers a member
 * gave (decision 020: they carry no account), so a test reads what the browser sent and what
 * the API acknowledged.
 */
export function logAnswers(context: BrowserContext): SentAnswer[] {
  const log: SentAnswer[] = [];
  context.on('response', (res) => {
    const m = /\/api\/v1\/questions\/([^/]+)\/answer\/$/.exec(res.url());
    if (!m || res.request().method() !== 'POST') return;
    void (async () => {
      const headers = await res.request().allHeaders();
      const body = (await res.json().catch(() => null)) as AnswerResponse | null;
      log.push({
        qid: m[1]!,
        status: res.status(),
        credential: 'candor-credential' in headers,
        session: 'authorization' in headers || 'cookie' in headers,
        response: res.ok() ? body : null,
      });
    })();
  });
  return log;
}

/**
 * The answers the API stored (one per question however often it was sent), after checking that
 * each went with a credential and without the session.
 */
export function storedAnswers(log: SentAnswer[]): AnswerResponse[] {
  for (const a of log) {
    expect(a.credential, `answer to ${a.qid} carries a credential`).toBe(true);
    expect(a.session, `answer to ${a.qid} carries no session`).toBe(false);
  }
  const byQid = new Map<string, AnswerResponse>();
  for (const a of log) if (a.response) byQid.set(a.qid, a.response);
  return [...byQid.values()];
}

/**
 * Pins the page's Math.random, which only the survey's shuffle draws from: the interest rating
 * is then asked after the first question and every fourth after it (`rateAt` 0, decision 007),
 * and the choices keep one order, for tests that need a rating on a known screen.
 */
export async function pinRatings(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Math.random = () => 0.01;
  });
}

/**
 * The end results of a survey (all its graphs): headed by the survey's name, under "How
 * everyone answered" ("Final results" once it is closed). Its h1, to wait for.
 */
export const endResults = (page: Page, name: string) =>
  page
    .getByRole('region', { name, exact: true })
    .filter({ hasText: /^(How everyone answered|Final results)/ })
    .getByRole('heading', { level: 1, name, exact: true });

/**
 * Opens the graphs of the end results in place: on a long survey each question is a row whose
 * graph opens from its button (a short one shows its graphs at once). `count`: how many, from
 * the top; all by default.
 */
export async function openEndGraphs(page: Page, count = Infinity) {
  const toggles = page.locator('.results__list h2 > button[aria-expanded]');
  const n = Math.min(count, await toggles.count());
  for (let i = 0; i < n; i++) {
    const toggle = toggles.nth(i);
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  }
}

/**
 * Answers the question once it is on screen: its first choice, or `text` to a written one.
 */
export async function answerOnScreen(
  page: Page,
  q: SurveyDetail['questions'][number],
  text = 'It depends on who is asking.',
) {
  await questionHeading(page, q.question).waitFor();
  if (q.type === 'Open') {
    await page.getByLabel('Your answer').fill(text);
    await page.getByRole('button', { name: 'Send my answer' }).click();
  } else {
    await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
  }
}

/** What this browser's records hold as `owner`'s answers: qid to answer. */
export function deviceAnswers(page: Page, owner: string): Promise<Map<string, string>> {
  return page
    .evaluate(
      (who) =>
        new Promise<Array<[string, string]>>((resolve, reject) => {
          const open = indexedDB.open('candor');
          open.onerror = () => reject(new Error('no database'));
          open.onsuccess = () => {
            const all = open.result
              .transaction('answeredQuestions')
              .objectStore('answeredQuestions')
              .getAll();
            all.onsuccess = () =>
              resolve(
                (all.result as Array<{ qid: string; owner: string; answer: string }>)
                  .filter((r) => r.owner === who)
                  .map((r) => [r.qid, r.answer]),
              );
          };
        }),
      owner,
    )
    .then((pairs) => new Map(pairs));
}

/** The feedback screen's way on without a score: "Skip rating and go on" where it asks, else Next. */
export const goOn = (page: Page) =>
  page.getByRole('button', { name: /^(Skip rating and go on|Next)/ }).click();

/**
 * Answers the survey in the page as its member does, from its intro: the first choice, or "It
 * depends." to a written question, going on past each feedback screen without a score, for the
 * first `count` questions (all by default). The answers go with this browser's credential and
 * stay on its device, as a person's do. Leaves the next question, or the end, on screen.
 */
export async function answerInPage(page: Page, s: SurveyDetail, count = s.questions.length) {
  await page.goto(`/surveys/${s.gid}`);
  await page.getByRole('button', { name: /^(Start the survey|Continue)/ }).click();
  for (const q of s.questions.slice(0, count)) {
    await answerOnScreen(page, q, 'It depends.');
    await goOn(page);
  }
  if (count < s.questions.length)
    await questionHeading(page, s.questions[count]!.question).waitFor();
}
