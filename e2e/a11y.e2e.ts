// axe on every screen a visitor, a member or a staff member can reach, in the light and the dark
// colour scheme, at both sizes: 0 moderate, serious or critical violations (issue 30: heading
// order, landmark names and a main heading count too), and in the dark no large light
// surface (a card or a page left light). One browser context per role: each screen is opened
// once, then checked in both schemes; all findings of a run are reported together.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { answerByApi, call, outboxCount, sampleSurvey, token, waitForCode } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { it, test } from './fixtures';
import {
  answerInPage,
  endResults,
  fillPhone,
  goOn,
  logIn,
  openAdmin,
  openEndGraphs,
  pinRatings,
  questionHeading,
  screenshot,
  staffTab,
  toast,
} from './screens';

const baseURL = inject('baseURL');

// No transitions: a colour is measured where it ends, not halfway through a fade.
test.override('contextOptions', { reducedMotion: 'reduce' });

const sizes = [
  ['phone', phone],
  ['desktop', desktop],
] as const satisfies ReadonlyArray<readonly [string, BrowserContextOptions]>;

const survey = (name: string) => sampleSurvey((s) => s.name === name);
/** A role's whole round of screens: well under a minute on a quiet machine, more on a busy one. */
const round = { timeout: 180_000 };

/**
 * Elements that paint a large light background while the page is dark: a surface that kept its
 * light colour (the page itself, a card, a table), which reads as a glaring hole.
 */
function lightSurfaces(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const found: string[] = [];
    const all = [
      document.documentElement,
      ...Array.from(document.querySelectorAll('body, body *')),
    ];
    for (const el of all) {
      const box = el.getBoundingClientRect();
      const root = el === document.documentElement || el === document.body;
      if (!root && box.width * box.height < 20_000) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      const m = /rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)/.exec(style.backgroundColor);
      if (!m || Number(m[4] ?? 1) < 0.5) continue;
      const [r, g, b] = [m[1], m[2], m[3]].map((v) => channel(Number(v)));
      if (0.2126 * r! + 0.7152 * g! + 0.0722 * b! < 0.35) continue;
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${
        typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : ''
      }`;
      const said = `light surface ${name} (${style.backgroundColor})`;
      if (!found.includes(said)) found.push(said);
    }
    return found;
  });
}

/** Checks the screen shown now in the dark and then the light scheme; collects what fails. */
function auditor(page: Page, size: string) {
  const found: string[] = [];
  return {
    found,
    async check(screen: string) {
      for (const colorScheme of ['dark', 'light'] as const) {
        await page.emulateMedia({ colorScheme });
        const problems = await axeViolations(page, 'moderate');
        if (colorScheme === 'dark') problems.push(...(await lightSurfaces(page)));
        for (const p of problems) found.push(`${size}, ${screen}, ${colorScheme}: ${p}`);
      }
    },
  };
}

/** Answers the closed question on screen with its first choice and waits for what follows. */
async function answerFirstChoice(page: Page, question: string) {
  await questionHeading(page, question).waitFor();
  await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
}

/** The graph after an answer, drawn (not its loading placeholder). */
async function graphShown(page: Page) {
  await page.locator('.chart--bars').first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll('.chart--loading').length === 0);
}

describe.each(sizes)('on a %s, every screen passes axe in both colour schemes', (size, options) => {
  it("a visitor's screens", round, async ({ people }) => {
    const member = await people.member();
    const timeTravel = await survey('Time Travel');
    const consent = await survey('Consent in Practice');
    const closed = await sampleSurvey((s) => s.status === 'Closed');
    const { context, page, watch } = await people.newPage(options);
    const audit = auditor(page, size);

    await page.goto('/');
    await page.locator('.brick').first().waitFor();
    await audit.check('home');
    await page
      .getByRole('group', { name: 'Filter by genre' })
      .getByRole('button', { name: 'Money' })
      .click();
    await page.locator('.genre-filter button[aria-pressed="true"]', { hasText: 'Money' }).waitFor();
    await audit.check('home, one genre');

    // A survey beyond the free questions: the intro, a question, the graph, then the gate.
    await page.goto(`/surveys/${consent.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).waitFor();
    await audit.check('survey intro');
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await questionHeading(page, consent.questions[0]!.question).waitFor();
    await audit.check('a question');
    for (const [i, q] of consent.questions.slice(0, 3).entries()) {
      await answerFirstChoice(page, q.question);
      if (i === 0) {
        await graphShown(page);
        await audit.check('the graph after an answer');
      }
      await goOn(page);
    }
    await page.getByRole('heading', { level: 1, name: 'Sign up to go on' }).waitFor();
    await audit.check('sign-up gate');

    // A survey within the free questions: its outro invites to count the answers.
    await page.goto(`/surveys/${timeTravel.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    for (const q of timeTravel.questions) {
      await answerFirstChoice(page, q.question);
      await goOn(page);
    }
    await page.getByRole('heading', { level: 1, name: 'Thank you for your candour' }).waitFor();
    await audit.check('outro');

    await page.goto(`/surveys/${closed.gid}`);
    await page.getByRole('button', { name: 'See the results' }).click();
    await endResults(page, closed.name).waitFor();
    // A long survey's graphs open in place: the first one opened is checked with the page.
    await openEndGraphs(page, 1);
    await graphShown(page);
    await audit.check("a closed survey's results");
    await screenshot(page, `a11y-closed-results-${size}`);

    await page.goto('/privacy');
    await page.getByRole('heading', { level: 1, name: 'Privacy, plainly' }).waitFor();
    await audit.check('privacy');

    await page.goto('/login');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.locator('.field__error').first().waitFor();
    await audit.check('login with errors');
    await fillPhone(page, member.country, member.national);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    // A refusal that is not about one field shows in the card (issue 30), not as a toast.
    await page.locator('.form-alert').first().waitFor();
    await audit.check('login refused, with its alert');

    await page.goto('/signup');
    await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
    await audit.check('signup');

    await page.goto('/forgot-password');
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    await audit.check('forgot password');
    const before = outboxCount(member.e164);
    await fillPhone(page, member.country, member.national);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByRole('heading', { level: 1, name: 'Enter your code' }).waitFor();
    await page.getByLabel('6-digit code').fill(await waitForCode(member.e164, before));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    await audit.check('new password');

    await page.goto('/this/page/does-not-exist');
    await page.getByRole('heading', { name: 'This page does not exist' }).waitFor();
    await audit.check('not found');

    // A screen whose code cannot be fetched: the error screen (a fresh page: none is cached).
    const broken = await context.newPage();
    await broken.route(/\/assets\/survey-[^/]*\.js$/, (route) => route.abort());
    await broken.goto(`/surveys/${timeTravel.gid}`);
    await broken.getByRole('heading', { name: 'This page could not be shown' }).waitFor();
    const brokenAudit = auditor(broken, size);
    await brokenAudit.check('error screen');
    audit.found.push(...brokenAudit.found);

    expect(audit.found).toEqual([]);
    watch.assertNoErrors();
    await context.close();
  });

  it("a member's screens, from signup to the mirror", round, async ({ people }) => {
    const timeTravel = await survey('Time Travel');
    const v2 = await sampleSurvey((s) => s.variant.startsWith('v2_') && s.status === 'Open');
    const { context, page, watch, who } = await people.newPage(options);
    const audit = auditor(page, size);
    // The first question's feedback asks for the rating (one question in four does).
    await pinRatings(page);

    // Signup, code, password and welcome, each checked as the person sees it.
    await page.goto('/signup');
    await fillPhone(page, who.country, who.national);
    await page.getByLabel('Year of birth').fill('1990');
    await page.getByRole('radio', { name: 'Woman' }).check();
    await audit.check('signup, filled in');
    const before = outboxCount(who.e164);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await audit.check('verify');
    await page.getByLabel('6-digit code').fill(await waitForCode(who.e164, before));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Choose a password' }).waitFor();
    await page.getByLabel('Password').fill(who.password);
    await audit.check('set password');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('heading', { name: /You're verified/ }).waitFor();
    await audit.check('welcome');

    await page.goto('/');
    await page.locator('.brick').first().waitFor();
    await audit.check('home, logged in');

    // A v1 survey: the graph with the own answer, a breakdown, a picked rating.
    await page.goto(`/surveys/${timeTravel.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await answerFirstChoice(page, timeTravel.questions[0]!.question);
    await graphShown(page);
    await audit.check('the graph with my answer');
    const breakdown = page.getByRole('group', { name: 'Show answers by' });
    await breakdown.getByRole('button', { name: 'Gender' }).click();
    await breakdown.locator('button[aria-pressed="true"]', { hasText: 'Gender' }).waitFor();
    await page.locator('.groups__item').first().waitFor();
    await page.getByRole('radio', { name: '8', exact: true }).check({ force: true });
    await audit.check('the graph by gender, rated');

    // A v2 survey: its last question, then everyone's answers at the end and the outro.
    await answerInPage(page, v2, v2.questions.length - 1);
    const last = v2.questions.at(-1)!;
    if (last.type === 'Open') {
      await page.getByLabel('Your answer').fill('Honestly, it depends on the day.');
      await audit.check('an open question');
      await page.getByRole('button', { name: 'Send my answer' }).click();
    } else {
      await answerFirstChoice(page, last.question);
    }
    await goOn(page);
    await endResults(page, v2.name).waitFor();
    await openEndGraphs(page, 1);
    await graphShown(page);
    await audit.check('end results');
    await screenshot(page, `a11y-end-results-${size}`);
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByRole('heading', { level: 1, name: 'Thank you for your candour' }).waitFor();
    await audit.check('outro, logged in');

    await page.goto('/me');
    await page.getByRole('heading', { level: 1, name: 'Where you stand' }).waitFor();
    await page.locator('.mirror-survey').first().waitFor();
    // A survey of many answers folds them under its summary: open the first, so they are audited.
    const fold = page.locator('.mirror-survey__all > summary').first();
    if (await fold.count()) await fold.click();
    await page.locator('.mirror-item').first().waitFor();
    await audit.check('mirror');
    await screenshot(page, `a11y-mirror-${size}`);
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    await page.getByRole('dialog', { name: 'Delete your account?' }).waitFor();
    await audit.check('delete account dialog');
    await page.getByRole('button', { name: 'Keep my account' }).click();

    await page.goto('/admin');
    await page.getByRole('heading', { name: 'This area is for Candor staff' }).waitFor();
    await audit.check('staff only');

    expect(audit.found).toEqual([]);
    watch.assertNoErrors();
    await context.close();
  });

  it(
    "staff screens: every tab of an admin's and a moderator's",
    round,
    async ({ people, admin }) => {
      // Something in each queue: a held-back signup and a written answer to moderate.
      await people.member('premium');
      const writer = await people.member();
      const taboos = await survey('Everyday Taboos');
      const open = taboos.questions.find((q) => q.type === 'Open')!;
      await answerByApi(writer, taboos.gid, open, 'Talking about money with friends, honestly.');

      const { context, page, watch } = await people.newPage(options, admin);
      const audit = auditor(page, size);
      await openAdmin(page, admin);
      await page.getByRole('heading', { level: 1, name: 'Signups under review' }).waitFor();
      await page.locator('.admin-table tbody tr').first().waitFor();
      await toast(page, 'Logged In').waitFor({ state: 'detached' });
      await audit.check('signups');

      await staffTab(page, 'Written answers').click();
      await page.getByRole('heading', { level: 1, name: 'Written answers' }).waitFor();
      await page.locator('.moderation-item').first().waitFor();
      await audit.check('written answers');

      await staffTab(page, 'Surveys').click();
      await page.getByRole('heading', { level: 1, name: 'Surveys' }).waitFor();
      await page.getByRole('link', { name: 'Time Travel', exact: true }).waitFor();
      await audit.check('surveys');
      await page.getByRole('link', { name: 'Time Travel', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: /Time Travel/ }).waitFor();
      await page.locator('.question-card').first().waitFor();
      await audit.check('survey editor');
      await page.getByRole('link', { name: 'Preview' }).click();
      await page.getByText('Preview: answers are not recorded.').waitFor();
      await audit.check('survey preview');
      await screenshot(page, `a11y-survey-preview-${size}`);
      await page.goto('/admin/surveys/new');
      await page.getByRole('heading', { level: 1, name: 'New survey' }).waitFor();
      await audit.check('new survey');

      await staffTab(page, 'Genres').click();
      await page.getByRole('heading', { level: 1, name: 'Genres' }).waitFor();
      await page.locator('.admin-table tbody tr').first().waitFor();
      await audit.check('genres');

      await staffTab(page, 'Users').click();
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await page.locator('.admin-table tbody tr').first().waitFor();
      await audit.check('users');

      await staffTab(page, 'Audit log').click();
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      await page.locator('.admin-table--log tbody tr').first().waitFor();
      await audit.check('audit log');

      await staffTab(page, 'Results').click();
      await page.getByRole('heading', { level: 1, name: 'Results' }).waitFor();
      await page
        .getByRole('combobox', { name: 'Survey', exact: true })
        .selectOption({ label: 'Time Travel' });
      await page.locator('.chart--bars').first().waitFor();
      await audit.check('results');

      await staffTab(page, 'Analytics').click();
      await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
      await page.locator('.views-chart__columns').waitFor();
      await audit.check('analytics');

      // A moderator: the two queues, and the admins' tabs said to be closed to them.
      const moderator = await people.member();
      const promoted = await call(`/api/v1/admin/users/${moderator.user.uuid}/role/`, {
        body: { role: 'moderator' },
        token: await token(admin),
      });
      expect(promoted.status).toBe(200);
      const mod = await people.newPage(options, moderator);
      const modAudit = auditor(mod.page, size);
      // A moderator's first login sets up their authenticator (decision 024).
      await logIn(mod.page, { ...moderator, staff: true });
      await mod.page.waitForURL(`${baseURL}/`);
      await mod.page.goto('/admin/users');
      await mod.page.getByRole('heading', { level: 1, name: 'Admins only' }).waitFor();
      await modAudit.check('admins only, as a moderator');
      audit.found.push(...modAudit.found);

      expect(audit.found).toEqual([]);
      watch.assertNoErrors();
      mod.watch.assertNoErrors();
      await context.close();
    },
  );
});
