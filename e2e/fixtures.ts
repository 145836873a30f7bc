import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import { desktop } from './chromium';

const shotsDir = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));

/** Saves a full-page screenshot for people to look at (test-results/screenshots). */
export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
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

export interface ListedSurvey {
  gid: string;
  name: string;
  slot: number;
  status: string;
  cover_headline: string;
}

/** The surveys the API lists, in slot order (what the home page must show). */
export async function listedSurveys(baseURL: string): Promise<ListedSurvey[]> {
  const res = await fetch(
    `${baseURL}/api/v1/surveys/open-closed-random-video-surveys?page_size=100`,
  );
  const body = (await res.json()) as { results: ListedSurvey[] };
  return body.results;
}

interface OutboxMessage {
  to: string;
  body: string;
  sent_at: string;
}

/** The text messages the server wrote to its file outbox (DATA_DIR/sms-outbox.jsonl). */
export function readOutbox(dataDir: string): OutboxMessage[] {
  const file = path.join(dataDir, 'sms-outbox.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboxMessage);
}

/** Waits for a new code texted to `to` (E.164) after `after` messages, and returns it. */
export async function waitForCode(dataDir: string, to: string, after = 0): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mine = readOutbox(dataDir).filter((m) => m.to === to);
    const code = mine
      .slice(after)
      .at(-1)
      ?.body.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`No code texted to ${to}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How many messages went to `to` so far. */
export const outboxCount = (dataDir: string, to: string) =>
  readOutbox(dataDir).filter((m) => m.to === to).length;

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
  dataDir: string,
  who: { country: string; national: string; e164: string; password: string; shots?: string },
) {
  const shots = who.shots ?? '';
  if (!page.url().endsWith('/signup')) await page.goto('/signup');
  await fillPhone(page, who.country, who.national);
  await page.getByLabel('Year of birth').fill('1990');
  await page.getByRole('radio', { name: 'Woman' }).check();
  if (shots) await screenshot(page, `signup-${shots}`);
  const before = outboxCount(dataDir, who.e164);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
  const code = await waitForCode(dataDir, who.e164, before);
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

export async function logIn(page: Page, country: string, national: string, password: string) {
  await page.goto('/login');
  await fillPhone(page, country, national);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

// US area codes: each person's number is in another range (the risk checks count per range).
const AREAS = ['202', '212', '312', '415', '617', '713', '206', '305', '512', '303'];

/**
 * The people of one spec file. Each comes from their own address (the server trusts the proxy
 * header in these tests, and its signup risk checks count signups per address) and gets a fresh
 * US number (+1 AAA 555 BBnn, `block` = BB, counted at once, no review); files use their own
 * address prefix and block so they never meet.
 */
export function testPeople(opts: {
  baseURL: string;
  browser: () => Browser;
  ipPrefix: string;
  block: string;
  passphrase: string;
  context?: BrowserContextOptions;
}) {
  let person = 0;
  return {
    /** A new person: a browser context of their own (desktop unless told), a page, an error watch. */
    async newPage(options: BrowserContextOptions = desktop) {
      person++;
      const context = await opts.browser().newContext({
        ...options,
        ...opts.context,
        baseURL: opts.baseURL,
        extraHTTPHeaders: { 'X-Forwarded-For': `${opts.ipPrefix}${person}` },
      });
      const page = await context.newPage();
      return { context, page, watch: watchErrors(page) };
    },

    /** The current person's number and password. */
    member() {
      const n = String(person).padStart(2, '0');
      const area = AREAS[person % AREAS.length]!;
      return {
        country: 'US',
        national: `${area} 555 ${opts.block}${n}`,
        e164: `+1${area}555${opts.block}${n}`,
        password: `${opts.passphrase} ${n}`,
      };
    },

    /** How many people this file has made (for addresses of its own elsewhere). */
    count: () => person,
  };
}

/** A sample survey as the survey API gives it (the fields the end-to-end tests read). */
export interface SurveyInfo {
  gid: string;
  name: string;
  variant: string;
  status: string;
  questions: Array<{ qid: string; question: string; type: string; timer_length: string }>;
}

/** Surveys the end-to-end tests author themselves are named so; sample-survey finders skip them. */
export const AUTHORED_PREFIX = 'E2E ';

/** The full detail of the smallest listed sample survey that `find` accepts. */
export async function sampleSurvey(
  baseURL: string,
  find: (s: SurveyInfo) => boolean,
): Promise<SurveyInfo> {
  const list = await fetch(
    `${baseURL}/api/v1/surveys/open-closed-random-video-surveys?page_size=100`,
  );
  const found = ((await list.json()) as { results: SurveyInfo[] }).results
    .filter((s) => !s.name.startsWith(AUTHORED_PREFIX) && find(s))
    .sort((a, b) => a.questions.length - b.questions.length)[0];
  if (!found) throw new Error('No such sample survey');
  const res = await fetch(`${baseURL}/api/v1/surveys/${found.gid}/video-survey`);
  return (await res.json()) as SurveyInfo;
}
