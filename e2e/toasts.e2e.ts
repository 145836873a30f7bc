// Toasts: a failed login is said in its card, never as a toast (one would cover the card's
// heading on a phone), nothing of it stays beside "Logged In", and no toast covers the navbar.
import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { fillPhone, screenshot, toast } from './screens';

const baseURL = inject('baseURL');
const wrong = 'The phone number or password is not right.';

/** The toast sits wholly below the navbar. */
async function belowNavbar(page: Page, text: string) {
  const bar = await page.locator('header.navbar').boundingBox();
  const box = await toast(page, text).boundingBox();
  expect(box!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height);
}

describe.each([
  ['phone', phone],
  ['desktop', desktop],
] as const)('on a %s', (size, options) => {
  it('a failed login is said in the card, not a toast; "Logged In" stays off the navbar', async ({
    people,
  }) => {
    const who = await people.member();
    const { context, page, watch } = await people.newPage(options, who);
    await page.goto('/login');
    await fillPhone(page, who.country, who.national);
    await page.getByLabel('Password', { exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.locator('.auth-card [role="alert"]', { hasText: wrong }).waitFor();
    await page.waitForTimeout(500);
    await expect(page.locator('[data-sonner-toast]').count()).resolves.toBe(0);
    await screenshot(page, `toast-error-${size}`);

    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await toast(page, 'Logged In').waitFor();
    await page.waitForURL(`${baseURL}/`);
    await expect
      .poll(() => page.locator('[data-sonner-toast]', { hasText: wrong }).count(), {
        timeout: 1_500,
      })
      .toBe(0);
    await page.waitForTimeout(500);
    await belowNavbar(page, 'Logged In');
    await screenshot(page, `toast-logged-in-${size}`);
    watch.assertNoErrors();
    await context.close();
  });
});
