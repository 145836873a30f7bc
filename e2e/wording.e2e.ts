// Words and small screens a new user meets: the reset code's promise, the groups of a breakdown,
// a closed survey's intro, /signup for a member, and a survey without a cover on the home page.
import type { AdminSurvey } from '@candor/contracts';
import { describe, expect, inject } from 'vitest';
import { AUTHORED_PREFIX, call, sampleSurvey, token } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { type Admin, it } from './fixtures';
import { fillPhone, logIn, questionHeading, screenshot } from './screens';

const baseURL = inject('baseURL');

/** Publishes a one-question survey without a cover image, as an admin would (API). */
async function publishUncovered(admin: Admin): Promise<string> {
  const name = `${AUTHORED_PREFIX}No cover ${Date.now()}`;
  const made = await call('/api/v1/admin/surveys/', {
    body: {
      name,
      cover_headline: 'A survey that has no picture yet',
      // Released days ago: no "New" badge (shell.e2e counts the sample survey's one).
      release_date: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    },
    token: await token(admin),
    ip: admin.ip,
  });
  expect(made.status).toBe(201);
  const { gid } = (await made.json()) as AdminSurvey;
  const q = await call(`/api/v1/admin/surveys/${gid}/questions/`, {
    body: {
      type: 'Closed',
      question: 'Is a picture worth a thousand words?',
      choices: ['Yes', 'No'],
    },
    token: await token(admin),
    ip: admin.ip,
  });
  expect(q.status).toBe(201);
  const published = await call(`/api/v1/admin/surveys/${gid}/publish/`, {
    body: {},
    token: await token(admin),
    ip: admin.ip,
  });
  expect(published.status).toBe(200);
  return name;
}

describe('the words of the account screens', () => {
  it('a reset for a number with no account promises nothing it cannot know', async ({ people }) => {
    const nobody = people.person('GB');
    const { context, page, watch } = await people.newPage(phone, nobody);
    await page.goto('/forgot-password');
    await fillPhone(page, 'GB', nobody.national);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await page.getByText('If this number has an account, we texted it a code.').waitFor();
    await expect(page.getByText(/We sent a/).count()).resolves.toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'verify-reset-phone');
    watch.assertNoErrors();
    await context.close();
  });

  it('a member opening /signup goes home', async ({ people }) => {
    const who = await people.member();
    const { context, page, watch } = await people.newPage(desktop, who);
    await logIn(page, who);
    await page.waitForURL(`${baseURL}/`);
    await page.goto('/signup');
    await page.waitForURL(`${baseURL}/`);
    await page.locator('.brick').first().waitFor();
    await expect(page.getByRole('heading', { name: 'Sign up' }).count()).resolves.toBe(0);
    watch.assertNoErrors();
    await context.close();
  });

  it('gender reads the same on signup and in a breakdown; no "Under 18" band on an 18+ product', async ({
    people,
  }) => {
    const s = await sampleSurvey((x) => x.name === 'Time Travel');
    const member = await people.member();
    const { context, page, watch } = await people.newPage(phone, member);
    await page.goto('/signup');
    await page.getByRole('radio', { name: 'Another gender' }).waitFor();
    await expect(page.getByRole('radio', { name: 'Other', exact: true }).count()).resolves.toBe(0);

    await logIn(page, member);
    await page.waitForURL(`${baseURL}/`);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await questionHeading(page, s.questions[0]!.question).waitFor();
    await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
    const by = page.getByRole('group', { name: 'Show answers by' });
    await by.getByRole('button', { name: 'Gender' }).click();
    await page.locator('.groups__name').first().waitFor();
    const genders = await page.locator('.groups__name').allTextContents();
    expect(genders.some((n) => n.startsWith('Another gender'))).toBe(true);
    expect(genders.some((n) => /^Other\b/.test(n))).toBe(false);
    await by.getByRole('button', { name: 'Age' }).click();
    await expect.poll(() => page.locator('.groups__name').first().textContent()).toMatch(/^18–24/);
    const ages = await page.locator('.groups__name').allTextContents();
    expect(ages.some((n) => /under 18/i.test(n))).toBe(false);
    await screenshot(page, 'breakdown-age-phone');
    watch.assertNoErrors();
    await context.close();
  });
});

describe.each([
  ['phone', phone],
  ['desktop', desktop],
] as const)('on a %s', (size, options) => {
  it('a closed survey’s intro does not ask for ratings', async ({ people }) => {
    const s = await sampleSurvey((x) => x.status === 'Closed');
    const { context, page, watch } = await people.newPage(options);
    await page.goto(`/surveys/${s.gid}`);
    await page.getByRole('heading', { level: 1, name: s.name }).waitFor();
    await page.getByText(/This survey closed/).waitFor();
    const intro = await page.locator('.intro__content').innerText();
    expect(intro).not.toMatch(/\brate\b|interesting/i);
    expect(intro).toMatch(/See the results/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `intro-closed-${size}`);
    watch.assertNoErrors();
    await context.close();
  });

  it('a survey without a cover image gets a designed brick, not a black one', async ({
    people,
    admin,
  }) => {
    const name = await publishUncovered(admin);
    const { context, page, watch } = await people.newPage(options);
    await page.goto('/');
    // The page arrives drawn by the server; the app then replaces it (decision 017). Wait for
    // the app (a visitor's navbar links), so the brick read below is the one that stays.
    await page.getByRole('link', { name: 'Log in' }).waitFor();
    const brick = page.locator('.brick', { hasText: name });
    await brick.waitFor();
    const look = await brick.locator('.brick__link').evaluate((el) => {
      const style = getComputedStyle(el);
      return { image: style.backgroundImage, color: style.backgroundColor };
    });
    expect(look.image).toMatch(/gradient/);
    expect(await axeViolations(page)).toEqual([]);
    await brick.scrollIntoViewIfNeeded();
    await screenshot(page, `home-uncovered-${size}`);
    await brick.locator('.brick__link').click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `intro-uncovered-${size}`);
    watch.assertNoErrors();
    await context.close();
  });
});
