import type { BrowserContextOptions } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { call, token } from './api';
import { desktop, phone } from './chromium';
import { type People, it } from './fixtures';
import { fillPhone, screenshot, toast } from './screens';
import { keepSecret, nextCode, totpCode } from './second-factor';

const baseURL = inject('baseURL');
const firstAdmin = inject('firstAdmin');

/**
 * Issue 34, "Staff sign in like at a bank" (decision 024): a new moderator's first login sets up
 * an authenticator app; after logging out, the next login asks for its code after the password.
 * The codes are computed from the setup key shown on the screen, with the library the API uses.
 */
async function firstAndLaterLogin(people: People, size: string, options: BrowserContextOptions) {
  const member = await people.member();
  const promoted = await call(`/api/v1/admin/users/${member.user.uuid}/role/`, {
    body: { role: 'moderator' },
    token: await token(firstAdmin),
  });
  expect(promoted.status).toBe(200);
  const { context, page, watch, who } = await people.newPage(options, member);

  const logInWithPassword = async () => {
    await page.goto('/login');
    await fillPhone(page, who.country, who.national);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${baseURL}/login/code`);
  };

  // First login: the password is right, and the authenticator is set up before any session.
  await logInWithPassword();
  await page.getByRole('heading', { level: 1, name: 'Set up your authenticator' }).waitFor();
  await page.getByRole('img', { name: /QR code/ }).waitFor();
  const key = page.locator('.second-factor__key');
  await expect.poll(() => key.textContent()).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  const secret = (await key.textContent())!.replace(/\s/g, '');
  const link = page.getByRole('link', { name: 'Open the key in your app' });
  expect(await link.getAttribute('href')).toMatch(
    new RegExp(`^otpauth://totp/Candor:moderator-[0-9a-f]{8}\\?.*secret=${secret}`),
  );
  // Nothing of a session yet: the staff area is closed, and the page holds no tokens.
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toMatch(/access|refresh/);
  await screenshot(page, `staff-2fa-enrol-${size}`);

  // A wrong first code is refused beside the field; the right one turns it on and logs in.
  await page.getByLabel('First code from the app').fill(totpCode(secret, Date.now() + 600_000));
  await page.getByRole('button', { name: 'Turn on and log in' }).click();
  await page.getByText('That code is not right.').waitFor();
  await screenshot(page, `staff-2fa-enrol-wrong-${size}`);
  keepSecret(who.e164, secret);
  await page.getByLabel('First code from the app').fill(await nextCode(who.e164));
  await page.getByRole('button', { name: 'Turn on and log in' }).click();
  await page.waitForURL(`${baseURL}/`);
  await toast(page, 'Logged In').waitFor();
  await page.goto('/admin/signups');
  await page.getByRole('heading', { level: 1, name: 'Signups under review' }).waitFor();

  // Log out, then in again: the password, then a code (no new setup).
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('link', { name: 'Log in' }).first().waitFor();
  await logInWithPassword();
  await page.getByRole('heading', { level: 1, name: 'Enter your code' }).waitFor();
  await expect(page.locator('.second-factor__key').count()).resolves.toBe(0);
  await screenshot(page, `staff-2fa-code-${size}`);
  await page.getByLabel('6-digit code').fill(await nextCode(who.e164));
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(`${baseURL}/`);
  await toast(page, 'Logged In').waitFor();
  await page.goto('/admin/signups');
  await page.getByRole('heading', { level: 1, name: 'Signups under review' }).waitFor();

  // A reload of the code step goes back to the password: the challenge was in memory only.
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('link', { name: 'Log in' }).first().waitFor();
  await logInWithPassword();
  await page.reload();
  await page.waitForURL(`${baseURL}/login`);
  watch.assertNoErrors();
  await context.close();
}

describe('staff second factor in Chromium', () => {
  it('on a phone (390x844): sets up an authenticator at the first login, then asks for a code', async ({
    people,
  }) => {
    await firstAndLaterLogin(people, 'phone', phone);
  });

  it('on a desktop (1280x800): sets up an authenticator at the first login, then asks for a code', async ({
    people,
  }) => {
    await firstAndLaterLogin(people, 'desktop', desktop);
  });
});
