import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { desktop, launchChromium } from './chromium';
import { logIn, outboxCount, screenshot, signUp, testPeople, toast, waitForCode } from './fixtures';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');
const adminPhone = inject('adminPhone');
const adminPassword = inject('adminPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const tablet: BrowserContextOptions = { viewport: { width: 820, height: 1180 } };

const { newPage, member } = testPeople({
  baseURL,
  browser: () => browser,
  ipPrefix: '192.0.2.',
  block: '03',
  passphrase: 'a patient harbour light',
  context: { reducedMotion: 'reduce' },
});

async function token(who: { e164: string; password: string }): Promise<string> {
  const res = await fetch(`${baseURL}/api/token/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ phone_number: who.e164, password: who.password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access: string }).access;
}

interface SurveyInfo {
  gid: string;
  name: string;
  questions: Array<{ qid: string; question: string; type: string }>;
}

/** The member writes an answer to the open question of the Everyday Taboos survey (API). */
async function writeOpenAnswer(who: { e164: string; password: string }, text: string) {
  const list = (await (
    await fetch(`${baseURL}/api/v1/surveys/open-closed-random-video-surveys?page_size=100`)
  ).json()) as { results: SurveyInfo[] };
  const found = list.results.find((s) => s.name === 'Everyday Taboos');
  if (!found) throw new Error('No sample survey Everyday Taboos');
  const survey = (await (
    await fetch(`${baseURL}/api/v1/surveys/${found.gid}/video-survey`)
  ).json()) as SurveyInfo;
  const open = survey.questions.find((q) => q.type === 'Open');
  if (!open) throw new Error('Everyday Taboos has no open question');
  const res = await fetch(`${baseURL}/api/v1/questions/${open.qid}/answer/`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${await token(who)}`,
    },
    body: JSON.stringify({ text }),
  });
  expect(res.status).toBe(201);
  return open.question;
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/**
 * Signs up through the API with a premium-rate number (+1 900 255 03nn), which the risk checks
 * hold for review; returns the masked number moderators see for it.
 */
let heldBack = 0;
async function heldBackSignup(adminToken: string): Promise<string> {
  heldBack++;
  const e164 = `+1900255030${heldBack % 10}`;
  const ip = { 'X-Forwarded-For': `192.0.2.${200 + heldBack}` };
  const before = outboxCount(dataDir, e164);
  const created = await fetch(
    `${baseURL}/api/v1/user/create/`,
    json(
      {
        phone_number: e164,
        password: 'a held back signup',
        year_of_birth: 1985,
        gender: 'undisclosed',
        country: 'US',
      },
      ip,
    ),
  );
  expect(created.status).toBeLessThan(300);
  const otp = await waitForCode(dataDir, e164, before);
  const verified = await fetch(
    `${baseURL}/api/v1/user/verify/`,
    json({ phone_number: e164, otp, purpose: 'signup' }, ip),
  );
  const { access } = (await verified.json()) as { access: string };
  const me = (await (
    await fetch(`${baseURL}/api/v1/user/detail/`, {
      headers: { Authorization: `Bearer ${access}` },
    })
  ).json()) as { uuid: string; status: string };
  expect(me.status).toBe('under_review');
  const queue = (await (
    await fetch(`${baseURL}/api/v1/admin/signups/?page_size=100`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    })
  ).json()) as { results: Array<{ uuid: string; phone_masked: string }> };
  const mine = queue.results.find((a) => a.uuid === me.uuid);
  if (!mine) throw new Error('The held-back signup is not in the review queue');
  return mine.phone_masked;
}

const admin = {
  country: 'US',
  national: adminPhone.replace(/^\+1/, ''),
  e164: adminPhone,
  password: adminPassword,
};

/** Logs in through the login screen, then opens the staff area from the navbar. */
async function openAdmin(page: Page, who: { country: string; national: string; password: string }) {
  await logIn(page, who.country, who.national, who.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await page.waitForURL(`${baseURL}/admin/signups`);
  await page.getByRole('heading', { level: 1, name: 'Signups under review' }).waitFor();
}

const staffTabs = (page: Page) =>
  page.getByRole('navigation', { name: 'Staff' }).getByRole('link').allTextContents();

const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name, exact: true });

/** Neither the page nor anything in it scrolls sideways. */
async function noSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  if (widths.scroll > widths.client) {
    const wide = await page.evaluate(() =>
      Array.from(document.querySelectorAll('body *'))
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(0, 8)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
    );
    throw new Error(`Wider than the page at ${page.url()}: ${wide.join(', ')}`);
  }
}

describe('the staff area in Chromium', () => {
  it('an admin approves a written answer, promotes, suspends and restores a member; the audit log says so', async () => {
    // A member writes an answer to an open question.
    const m = await newPage(desktop);
    const who = member();
    await signUp(m.page, dataDir, who);
    const text = `Admin e2e ${Date.now()}: that it is normal to talk about it.`;
    const question = await writeOpenAnswer(who, text);
    await m.context.close();

    // Two signups the risk checks held back.
    const adminToken = await token(admin);
    const approveMe = await heldBackSignup(adminToken);
    const rejectMe = await heldBackSignup(adminToken);

    const { context, page, watch } = await newPage(desktop);
    await openAdmin(page, admin);
    expect(await staffTabs(page)).toEqual([
      'Signups',
      'Written answers',
      'Surveys',
      'Genres',
      'Users',
      'Audit log',
      'Results',
      'Analytics',
    ]);

    // Signups: the reasons in words; approve one, reject the other (asked first).
    const signup = (masked: string) => page.getByRole('row').filter({ hasText: masked });
    await signup(approveMe)
      .getByRole('listitem')
      .filter({ hasText: 'The phone number is a premium-rate number.' })
      .waitFor();
    await screenshot(page, 'admin-signups-desktop');
    await signup(approveMe)
      .getByRole('button', { name: `Approve ${approveMe}` })
      .click();
    await toast(page, `${approveMe} approved`).waitFor();
    await signup(approveMe).waitFor({ state: 'detached' });
    await signup(rejectMe)
      .getByRole('button', { name: `Reject ${rejectMe}` })
      .click();
    const reject = page.getByRole('dialog', { name: `Reject ${rejectMe}?` });
    await reject.getByRole('button', { name: 'Cancel' }).click();
    await expect(reject.isVisible()).resolves.toBe(false);
    await signup(rejectMe)
      .getByRole('button', { name: `Reject ${rejectMe}` })
      .click();
    await reject.getByRole('button', { name: 'Reject signup' }).click();
    await toast(page, `${rejectMe} rejected`).waitFor();
    await signup(rejectMe).waitFor({ state: 'detached' });

    // Written answers: the member's answer waits, with its question; approve it.
    await tab(page, 'Written answers').click();
    await page.getByRole('heading', { level: 1, name: 'Written answers' }).waitFor();
    await expect(
      page.getByRole('button', { name: 'Pending', exact: true }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    const item = page.getByRole('listitem').filter({ hasText: text });
    await item.waitFor();
    await expect(item.getByRole('heading', { name: question }).count()).resolves.toBe(1);
    await screenshot(page, 'admin-answers-desktop');
    // Keyboard operable: focus Approve and press Enter.
    await item.getByRole('button', { name: 'Approve' }).focus();
    await page.keyboard.press('Enter');
    await toast(page, 'Answer approved').waitFor();
    await item.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Hidden', exact: true }).click();
    await page.waitForURL(/status=hidden/);
    await page
      .getByText('No hidden answers')
      .or(page.getByRole('list', { name: 'Hidden answers' }))
      .waitFor();

    // Users: search the member by the digits of their number (Enter submits).
    await tab(page, 'Users').click();
    const search = page.getByRole('searchbox', { name: 'Phone number' });
    await search.fill(who.e164.slice(1));
    await search.press('Enter');
    await page.waitForURL(new RegExp(`phone=${who.e164.slice(1)}`));
    await page.getByText(`1 account starting with ${who.e164}`).waitFor();
    const row = page.getByRole('row').filter({ hasText: who.e164 });
    await expect(page.getByRole('row').count()).resolves.toBe(2); // the header and the member
    await expect(row.getByText('Active', { exact: true }).count()).resolves.toBe(1);

    // Promote to moderator: the select asks first.
    await row.getByRole('combobox', { name: `Role of ${who.e164}` }).selectOption('moderator');
    const dialog = page.getByRole('dialog', { name: `Make ${who.e164} a moderator?` });
    await dialog.waitFor();
    await screenshot(page, 'admin-users-confirm-desktop');
    await dialog.getByRole('button', { name: 'Make moderator' }).click();
    await toast(page, `${who.e164} is now moderator`).waitFor();
    await expect.poll(() => row.getByRole('combobox').inputValue()).toBe('moderator');

    // Suspend (asks first), then lift the suspension.
    await row.getByRole('button', { name: `Suspend ${who.e164}` }).click();
    await page
      .getByRole('dialog', { name: `Suspend ${who.e164}?` })
      .getByRole('button', { name: 'Suspend account' })
      .click();
    await toast(page, `${who.e164} is suspended`).waitFor();
    await row.getByText('Suspended', { exact: true }).waitFor();
    await screenshot(page, 'admin-users-desktop');
    await row.getByRole('button', { name: `Lift the suspension of ${who.e164}` }).click();
    await toast(page, `${who.e164} can log in again`).waitFor();
    await row.getByText('Active', { exact: true }).waitFor();

    // The own account: the server refuses, and says why.
    await search.fill(adminPhone.slice(1));
    await search.press('Enter');
    await page.getByText(`1 account starting with ${adminPhone}`).waitFor();
    const own = page.getByRole('row').filter({ hasText: adminPhone });
    await own.getByText('You', { exact: true }).waitFor();
    await own.getByRole('combobox').selectOption('member');
    await page.getByRole('button', { name: 'Make member' }).click();
    await toast(page, 'Ask another admin to change your own account.').waitFor();
    await expect(own.getByRole('combobox').inputValue()).resolves.toBe('admin');

    // The audit log says it all in words, newest first.
    await tab(page, 'Audit log').click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const actions = page.getByRole('rowheader');
    await actions.first().waitFor();
    const said = await actions.allTextContents();
    expect(said.slice(0, 6)).toEqual([
      'lifted a suspension',
      'suspended an account',
      'changed a role from member to moderator',
      'approved a written answer',
      'rejected a signup',
      'approved a signup',
    ]);
    await expect(
      page.getByRole('row').nth(1).getByText('Admin', { exact: true }).count(),
    ).resolves.toBe(1);
    await screenshot(page, 'admin-audit-log-desktop');
    watch.assertNoErrors();
    await context.close();

    // The new moderator logs in: the moderation tabs, not the admins' ones.
    const mod = await newPage(desktop);
    await openAdmin(mod.page, who);
    expect(await staffTabs(mod.page)).toEqual(['Signups', 'Written answers']);
    await mod.page.goto('/admin/users');
    await mod.page.getByRole('heading', { level: 1, name: 'Admins only' }).waitFor();
    for (const adminsTab of ['/admin/results', '/admin/analytics']) {
      await mod.page.goto(adminsTab);
      await mod.page.getByRole('heading', { level: 1, name: 'Admins only' }).waitFor();
    }
    mod.watch.assertNoErrors();
    await mod.context.close();
  });

  it('every tab fits a tablet (portrait and narrow), a landscape tablet and a phone', async () => {
    const { context, page, watch } = await newPage(tablet);
    await openAdmin(page, admin);
    const tabs: Array<[name: string, shot: string, heading: string]> = [
      ['Signups', 'signups', 'Signups under review'],
      ['Written answers', 'answers', 'Written answers'],
      ['Users', 'users', 'Users'],
      ['Audit log', 'audit-log', 'Audit log'],
    ];
    for (const [name, shot, heading] of tabs) {
      await page.setViewportSize({ width: 820, height: 1180 });
      await tab(page, name).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.locator('.admin-loading').waitFor({ state: 'detached' });
      await noSidewaysScroll(page);
      await screenshot(page, `admin-${shot}-tablet`);
      for (const width of [768, 1024, 390]) {
        await page.setViewportSize({ width, height: 1024 });
        await noSidewaysScroll(page);
      }
      if (shot === 'users' || shot === 'signups') await screenshot(page, `admin-${shot}-phone`);
    }
    watch.assertNoErrors();
    await context.close();
  });

  it('a member opening /admin sees the staff-only page and no Admin link', async () => {
    const { context, page, watch } = await newPage(desktop);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'This area is for Candor staff' }).waitFor();
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Log in' }).count(),
    ).resolves.toBe(1);
    const who = member();
    await signUp(page, dataDir, who);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'This area is for Candor staff' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'My mirror' }).waitFor();
    await expect(nav.getByRole('link', { name: 'Admin' }).count()).resolves.toBe(0);
    await expect(page.getByRole('navigation', { name: 'Staff' }).count()).resolves.toBe(0);
    await screenshot(page, 'admin-staff-only-desktop');
    watch.assertNoErrors();
    await context.close();
  });
});
