import { type ReviewAccountList, maskPhoneNumber } from '@candor/contracts';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { type Caller, answerByApi, call, sampleSurvey, token } from './api';
import { desktop } from './chromium';
import { type People, it, test } from './fixtures';
import type { Person } from './people';
import { openAdmin as openStaffArea, screenshot, signUp, staffTab as tab, toast } from './screens';

test.override('contextOptions', { reducedMotion: 'reduce' });

const tablet: BrowserContextOptions = { viewport: { width: 820, height: 1180 } };

/** The member writes an answer to the open question of the Everyday Taboos survey (API). */
async function writeOpenAnswer(who: Caller, text: string) {
  const survey = await sampleSurvey((s) => s.name === 'Everyday Taboos');
  const open = survey.questions.find((q) => q.type === 'Open');
  if (!open) throw new Error('Everyday Taboos has no open question');
  await answerByApi(who, survey.gid, open, text);
  return open.question;
}

/**
 * Signs up through the API with a premium-rate number, which the risk checks hold for review;
 * returns the masked number moderators see for it.
 */
async function heldBackSignup(people: People, admin: Caller): Promise<string> {
  const held = await people.member('premium');
  expect(held.user.status).toBe('under_review');
  const queue = (await (
    await call('/api/v1/admin/signups/?page_size=100', { token: await token(admin) })
  ).json()) as ReviewAccountList;
  const mine = queue.results.find((a) => a.uuid === held.user.uuid);
  if (!mine) throw new Error('The held-back signup is not in the review queue');
  return mine.phone_masked;
}

/** Logs in through the login screen, then opens the staff area from the navbar. */
async function openAdmin(page: Page, who: Person) {
  await openStaffArea(page, who);
  await page.getByRole('heading', { level: 1, name: 'Signups under review' }).waitFor();
}

const staffTabs = (page: Page) =>
  page.getByRole('navigation', { name: 'Staff' }).getByRole('link').allTextContents();

/** Every staff tab is in sight: none hidden past the tab bar's edge (it never scrolls). */
async function tabsInSight(page: Page) {
  const hidden = await page.evaluate(() => {
    const bar = document.querySelector('.admin__tabs')!.getBoundingClientRect();
    return Array.from(document.querySelectorAll('.admin__tab'))
      .filter((t) => {
        const r = t.getBoundingClientRect();
        return r.left < bar.left - 1 || r.right > bar.right + 1;
      })
      .map((t) => t.textContent);
  });
  expect(hidden, `tabs out of sight at ${page.viewportSize()?.width} px`).toEqual([]);
}

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
  it('an admin approves a written answer, promotes, suspends and restores a member; the audit log says so', async ({
    people,
    admin,
  }) => {
    // A member writes an answer to an open question.
    const m = await people.newPage(desktop);
    const who = m.who;
    await signUp(m.page, who);
    const text = `Admin e2e ${Date.now()}: that it is normal to talk about it.`;
    // Another member writes it through the API with their credential: the browser that signed
    // up may already hold this member's credential for the survey (one per member and survey).
    const question = await writeOpenAnswer(await people.member(), text);
    await m.context.close();

    // Two signups the risk checks held back.
    const approveMe = await heldBackSignup(people, admin);
    const rejectMe = await heldBackSignup(people, admin);

    const { context, page, watch } = await people.newPage(desktop, admin);
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
      'API tokens',
      'Webhooks',
      'Passkeys',
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

    // Users: search the member by their whole number (Enter submits; numbers are stored sealed,
    // so a part of one finds nothing). The number the admin typed shows whole in its row; the
    // dialogs and toasts name the account masked (decision 009).
    await tab(page, 'Users').click();
    const search = page.getByRole('searchbox', { name: 'Phone number' });
    const digits = who.e164.slice(1);
    await search.fill(who.e164);
    await search.press('Enter');
    await page.getByText(new RegExp(`^1 account with the number \\+${digits}$`)).waitFor();
    // The search is sent in a body: the page's address never holds the digits.
    expect(page.url()).not.toContain(digits);
    const masked = maskPhoneNumber(who.e164);
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('combobox', { name: `Role of ${masked}` }) });
    await row.getByText(who.e164, { exact: true }).waitFor();
    await expect(row.count()).resolves.toBe(1);
    await expect(row.getByText('Active', { exact: true }).count()).resolves.toBe(1);

    // Promote to moderator: the select asks first.
    await row.getByRole('combobox', { name: `Role of ${masked}` }).selectOption('moderator');
    const dialog = page.getByRole('dialog', { name: `Make ${masked} a moderator?` });
    await dialog.waitFor();
    await screenshot(page, 'admin-users-confirm-desktop');
    await dialog.getByRole('button', { name: 'Make moderator' }).click();
    await toast(page, `${masked} is now moderator`).waitFor();
    await expect.poll(() => row.getByRole('combobox').inputValue()).toBe('moderator');

    // Suspend (asks first), then lift the suspension.
    await row.getByRole('button', { name: `Suspend ${masked}` }).click();
    await page
      .getByRole('dialog', { name: `Suspend ${masked}?` })
      .getByRole('button', { name: 'Suspend account' })
      .click();
    await toast(page, `${masked} is suspended`).waitFor();
    await row.getByText('Suspended', { exact: true }).waitFor();
    await screenshot(page, 'admin-users-desktop');
    await row.getByRole('button', { name: `Lift the suspension of ${masked}` }).click();
    await toast(page, `${masked} can log in again`).waitFor();
    await row.getByText('Active', { exact: true }).waitFor();

    // A number searched whole shows whole: there is nothing to reveal (masked-numbers.e2e.ts
    // reveals one from the masked list).
    await expect(row.getByRole('button', { name: /^Reveal/ }).count()).resolves.toBe(0);

    // The own account, searched by its whole number: that number shows (the searcher typed
    // it), but the server refuses the change, and says why.
    await search.fill(admin.e164.slice(1));
    await search.press('Enter');
    await page.getByText(`1 account with the number ${admin.e164}`).waitFor();
    const own = page.getByRole('row').filter({ hasText: admin.e164 });
    await own.getByText('You', { exact: true }).waitFor();
    await expect(own.getByRole('button', { name: /^Reveal/ }).count()).resolves.toBe(0);
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
    const mod = await people.newPage(desktop, who);
    await openAdmin(mod.page, who);
    expect(await staffTabs(mod.page)).toEqual(['Signups', 'Written answers', 'Passkeys']);
    await mod.page.goto('/admin/users');
    await mod.page.getByRole('heading', { level: 1, name: 'Admins only' }).waitFor();
    for (const adminsTab of ['/admin/results', '/admin/analytics']) {
      await mod.page.goto(adminsTab);
      await mod.page.getByRole('heading', { level: 1, name: 'Admins only' }).waitFor();
    }
    mod.watch.assertNoErrors();
    await mod.context.close();
  });

  it('every tab fits a tablet (portrait and narrow), a landscape tablet and a phone', async ({
    people,
    admin,
  }) => {
    const { context, page, watch } = await people.newPage(tablet, admin);
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
      await tabsInSight(page);
      await screenshot(page, `admin-${shot}-tablet`);
      for (const width of [768, 1024, 1280, 390]) {
        await page.setViewportSize({ width, height: 1024 });
        await noSidewaysScroll(page);
        await tabsInSight(page);
        if (width === 1280 && shot === 'signups') await screenshot(page, 'admin-tabs-1280');
        if (width === 1024 && shot === 'users') await screenshot(page, 'admin-users-landscape');
      }
      if (shot === 'users' || shot === 'signups') await screenshot(page, `admin-${shot}-phone`);
    }
    watch.assertNoErrors();
    await context.close();
  });

  it('a member opening /admin sees the staff-only page and no Admin link', async ({ people }) => {
    const { context, page, watch, who } = await people.newPage(desktop);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'This area is for Candor staff' }).waitFor();
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Log in' }).count(),
    ).resolves.toBe(1);
    await signUp(page, who);
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
