// PRODUCT.md: staff see phone numbers masked; a whole number is shown only after an explicit,
// audited act (decision 009). On a phone and a desktop: the Users table masks every number, a
// reveal asks why and shows the number in place, and the audit log lists the reveal.
import { maskPhoneNumber } from '@candor/contracts';
import type { BrowserContextOptions } from 'playwright-core';
import { describe, expect } from 'vitest';
import { axeViolations } from './axe';
import { sampleSurvey } from './api';
import { desktop, phone } from './chromium';
import { it, test } from './fixtures';
import { openAdmin, questionHeading, screenshot, staffTab as tab, toast } from './screens';

test.override('contextOptions', { reducedMotion: 'reduce' });

/** What the sign-up wall promises about the number now: what is true (issue 30). */
const PROMISE = /Staff see (it|your number) masked, and reveal it only for a reason they record\./;

const sizes = [
  ['phone', phone],
  ['desktop', desktop],
] as const satisfies ReadonlyArray<readonly [string, BrowserContextOptions]>;

describe.each(sizes)('staff see numbers masked, on a %s', (size, options) => {
  it('masked by default; a reveal asks why, shows the number, and the audit log lists it', async ({
    people,
    admin,
  }) => {
    const member = await people.member();
    const masked = maskPhoneNumber(member.e164);
    const { context, page, watch } = await people.newPage(options, admin);
    // What the browser is sent, not only what it shows: no answer of the API carries the number.
    const bodies: string[] = [];
    page.on('response', (res) => {
      if (res.url().includes('/api/v1/admin/') && res.request().method() === 'GET') {
        bodies.push(res.url());
        void res.text().then(
          (text) => bodies.push(text),
          () => undefined,
        );
      }
    });
    await openAdmin(page, admin);
    await toast(page, 'Logged In').waitFor({ state: 'detached' });

    // Every account, newest first: the member's number masked, and no whole number anywhere.
    await tab(page, 'Users').click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    // People of one test file share their last digits, so their masks look alike: the member,
    // made last, is the newest account, the list's first row.
    const row = page
      .locator('.admin-table tbody tr')
      .first()
      .filter({ has: page.getByRole('button', { name: `Suspend ${masked}` }) });
    const search = page.getByRole('searchbox', { name: 'Phone number' });
    await page.locator('.admin-table tbody tr').first().waitFor();
    const main = page.getByRole('main');
    for (const who of [member, admin]) {
      await expect(main.textContent()).resolves.not.toContain(who.e164.slice(2));
    }
    await expect(main.getByText(/^\+\d+ [• ]+\d{0,3}$/).count()).resolves.toBeGreaterThan(0);
    await screenshot(page, `masked-users-${size}`);
    // Words are refused beside the field, not searched as nothing (which lists everyone).
    await search.fill('hello 😀');
    await search.press('Enter');
    await page.getByText('Search by the digits of a phone number.').waitFor();
    await expect(search.getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, `users-search-refused-${size}`);
    // Punctuation alone too.
    await search.fill('+ ( )');
    await search.press('Enter');
    await page.getByText('Search by the digits of a phone number.').waitFor();
    // Part of a number is refused with the reason: numbers are stored sealed, found only whole.
    await search.fill(member.e164.slice(0, 5));
    await search.press('Enter');
    await page.getByText(/^Type the whole number with its country code/).waitFor();
    await expect(search.getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, `users-search-part-refused-${size}`);
    // The whole number finds the account and shows it whole: the admin typed it.
    const digits = member.e164.slice(1);
    await search.fill(member.e164);
    await search.press('Enter');
    await page.getByText(new RegExp(`^1 account with the number \\+${digits}$`)).waitFor();
    await expect(search.getAttribute('aria-invalid')).resolves.toBeNull();
    await main.getByText(member.e164, { exact: true }).waitFor();
    // The search went in a request's body: the page's address never holds the digits.
    expect(page.url()).not.toContain(digits);
    // Back to every account, masked.
    await search.fill('');
    await search.press('Enter');
    await page.getByText(/^\d+ accounts$/).waitFor();
    await row.getByText(masked, { exact: true }).waitFor();
    await expect(main.textContent()).resolves.not.toContain(member.e164.slice(2));

    // Reveal: asked why first; an empty reason is refused beside its field.
    await row.getByRole('button', { name: `Reveal the number ${masked}` }).click();
    const dialog = page.getByRole('dialog', { name: `Reveal the number ${masked}?` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Reveal number' }).click();
    const reason = dialog.getByLabel('Why do you need it?');
    await dialog.getByText('Say why you need the whole number.').waitFor();
    await expect(reason.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(reason.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    expect(await axeViolations(page, 'moderate')).toEqual([]);
    await screenshot(page, `masked-reveal-dialog-${size}`, { fullPage: false });
    await reason.fill(`Support request (${size})`);
    await dialog.getByRole('button', { name: 'Reveal number' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const number = row.getByText(member.e164, { exact: true });
    await number.waitFor();
    await expect(row.getByRole('button', { name: /^Reveal/ }).count()).resolves.toBe(0);
    // Focus lands on the number, where the Reveal button was.
    await expect.poll(() => number.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeViolations(page, 'moderate')).toEqual([]);
    await screenshot(page, `masked-revealed-${size}`);

    // The audit log: who revealed whose number (masked there too) and why.
    await tab(page, 'Audit log').click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const entry = page
      .getByRole('row')
      .filter({ hasText: `revealed a whole number, for the reason “Support request (${size})”` });
    await entry.waitFor();
    await expect(entry.textContent()).resolves.toContain(masked);
    await expect(entry.textContent()).resolves.toContain(maskPhoneNumber(admin.e164));
    await expect(main.textContent()).resolves.not.toContain(member.e164.slice(2));
    await page.getByLabel('Action').selectOption({ label: 'Revealed a number' });
    await page.waitForURL(/action=user\.number_revealed/);
    await entry.waitFor();
    await screenshot(page, `masked-audit-log-${size}`);

    // Only the reveal's own answer (a POST) carried the number; no list did.
    const leaked = bodies.filter((b) => b.includes(member.e164.slice(2)));
    expect(leaked).toEqual([]);
    watch.assertNoErrors();
    await context.close();
  });

  it('the sign-up wall and the outro say what staff see of the number', async ({ people }) => {
    const { context, page, watch } = await people.newPage(options);
    const answerAll = async (questions: Array<{ question: string }>) => {
      for (const q of questions) {
        await questionHeading(page, q.question).waitFor();
        await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
        await page.getByRole('button', { name: /Skip rating|^Next$/ }).click();
      }
    };
    // Beyond the free questions: the wall.
    const consent = await sampleSurvey((s) => s.name === 'Consent in Practice');
    await page.goto(`/surveys/${consent.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await answerAll(consent.questions.slice(0, 3));
    const gate = page.getByRole('region', { name: 'Sign up to go on' });
    await gate.waitFor();
    await gate.getByText(PROMISE).waitFor();
    await expect(gate.textContent()).resolves.not.toContain('Nobody else sees your number');
    await screenshot(page, `masked-promise-gate-${size}`);
    // Within them: the outro invites to count the answers, with the same promise.
    const timeTravel = await sampleSurvey((s) => s.name === 'Time Travel');
    await page.goto(`/surveys/${timeTravel.gid}`);
    await page.getByRole('button', { name: 'Start the survey' }).click();
    await answerAll(timeTravel.questions);
    await page.getByRole('heading', { level: 1, name: 'Thank you for your candour' }).waitFor();
    await page.getByText(PROMISE).waitFor();
    await screenshot(page, `masked-promise-outro-${size}`);
    watch.assertNoErrors();
    await context.close();
  });
});
