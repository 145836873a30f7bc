// The staff area's audit log reads as names, never ids or whole phone numbers, and filters by
// action and by who acted; the Analytics chart passes axe.
import { type AdminSurvey, maskPhoneNumber } from '@candor/contracts';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { AUTHORED_PREFIX, type Caller, call, token } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { it, test } from './fixtures';
import { openAdmin, screenshot, staffTab as tab, toast } from './screens';

test.override('contextOptions', { reducedMotion: 'reduce' });

async function as(who: Caller, path: string, body: unknown = {}) {
  const res = await call(path, { body, token: await token(who), ip: who.ip });
  expect(res.status).toBeLessThan(300);
  return res;
}

/** The audit log's rows below the header: who, what, on what. */
async function rows(page: Page) {
  await page.locator('.admin-table--log tbody tr').first().waitFor();
  return page.locator('.admin-table--log tbody tr').evaluateAll((trs) =>
    trs.map((tr) => {
      const cells = Array.from(tr.children).map((c) => (c as HTMLElement).innerText.trim());
      return { who: cells[1] ?? '', what: cells[2] ?? '', on: cells[3] ?? '' };
    }),
  );
}

describe('the audit log and analytics', () => {
  it('names what was acted on and who acted, and filters by action and by actor', async ({
    people,
    admin,
  }) => {
    const other = await people.admin();
    const member = await people.member();

    // The fixture's admin authors and publishes a survey; the other admin suspends a member.
    const name = `${AUTHORED_PREFIX}Audit ${Date.now()}`;
    const made = await as(admin, '/api/v1/admin/surveys/', {
      name,
      // Released days ago: no "New" badge (shell.e2e counts the sample survey's one).
      release_date: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    });
    const { gid } = (await made.json()) as AdminSurvey;
    const questionText = 'Would you read the audit log for fun?';
    await as(admin, `/api/v1/admin/surveys/${gid}/questions/`, {
      type: 'Closed',
      question: questionText,
      choices: ['Yes', 'No'],
    });
    await as(admin, `/api/v1/admin/surveys/${gid}/publish/`);
    await as(other, `/api/v1/admin/users/${member.user.uuid}/suspend/`);

    const { context, page, watch } = await people.newPage(desktop, admin);
    await openAdmin(page, admin);
    await toast(page, 'Logged In').waitFor({ state: 'detached' });
    await tab(page, 'Audit log').click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();

    const adminLabel = maskPhoneNumber(admin.e164);
    const otherLabel = maskPhoneNumber(other.e164);
    const memberLabel = maskPhoneNumber(member.e164);
    const all = await rows(page);
    expect(all).toContainEqual({
      who: expect.stringContaining(otherLabel) as string,
      what: 'suspended an account',
      on: expect.stringContaining(memberLabel) as string,
    });
    expect(all).toContainEqual({
      who: expect.stringContaining(adminLabel) as string,
      what: 'published a survey',
      on: name,
    });
    expect(all).toContainEqual({
      who: expect.stringContaining(adminLabel) as string,
      what: 'added a multiple-choice question',
      on: expect.stringContaining(questionText) as string,
    });
    // Never a whole phone number, never a bare id.
    const html = await page.content();
    for (const e164 of [member.e164, admin.e164, other.e164]) {
      expect(html).not.toContain(e164);
      expect(html).not.toContain(e164.slice(2));
    }
    expect(html).not.toContain(member.user.uuid.split('-')[0]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'admin-audit-log-names-desktop');

    // Filter by action: only suspensions.
    await page.getByLabel('Action').selectOption({ label: 'Suspended an account' });
    await page.waitForURL(/action=user\.suspend/);
    await expect
      .poll(async () => [...new Set((await rows(page)).map((r) => r.what))])
      .toEqual(['suspended an account']);
    // And by who acted: the other admin's suspension only.
    // Test numbers of one file can share their last three digits: pick by account, check the label.
    const who = page.getByLabel('Who');
    // (two alike are told apart by when each first acted).
    const option = await who.locator(`option[value="${other.uuid}"]`).textContent();
    expect(option!.startsWith(`${otherLabel} (Admin`)).toBe(true);
    await who.selectOption(other.uuid);
    await page.waitForURL(/actor=/);
    await expect.poll(async () => (await rows(page)).length).toBe(1);
    expect((await rows(page))[0]).toMatchObject({
      on: expect.stringContaining(memberLabel) as string,
    });
    await screenshot(page, 'admin-audit-log-filtered-desktop');
    // The actor alone: every row is theirs.
    await page.getByLabel('Action').selectOption({ label: 'All actions' });
    await expect
      .poll(async () => (await rows(page)).every((r) => r.who.includes(otherLabel)))
      .toBe(true);
    await page.setViewportSize(phone.viewport!);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'admin-audit-log-filtered-phone');
    watch.assertNoErrors();
    await context.close();
  });

  it('the Analytics chart has no serious accessibility violation, on a desktop and a phone', async ({
    people,
    admin,
  }) => {
    for (const [size, options] of [
      ['desktop', desktop],
      ['phone', phone],
    ] as const) {
      const { context, page, watch } = await people.newPage(options, admin);
      await openAdmin(page, admin);
      await toast(page, 'Logged In').waitFor({ state: 'detached' });
      await page.goto('/admin/analytics');
      await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
      await page.locator('.views-chart__columns').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `admin-analytics-axe-${size}`);
      watch.assertNoErrors();
      await context.close();
    }
  });
});
