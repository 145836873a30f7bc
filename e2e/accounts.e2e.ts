import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { outboxCount, waitForCode } from './api';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import type { Person } from './people';
import { fillPhone, logIn as logInWith, screenshot, signUp as signUpWith, toast } from './screens';

const baseURL = inject('baseURL');

// The people of this file have UK numbers.
const fillUkPhone = (page: Page, who: Person) => fillPhone(page, 'GB', who.national);
const signUp = (page: Page, who: Person, password: string, shots = '') =>
  signUpWith(page, { ...who, password, shots });
const logIn = (page: Page, who: Person, password: string) => logInWith(page, { ...who, password });
/**
 * Everything the page sends (address, headers, body), to show that a password typed in it never
 * leaves it: the API gets the login secret made on the device (decision 020).
 */
function recordSent(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (r) => {
    sent.push(`${r.url()}\n${JSON.stringify(r.headers())}\n${r.postData() ?? ''}`);
  });
  return sent;
}

/** A refusal said in the account card (not a toast, which would cover its heading on a phone). */
const cardAlert = (page: Page, text: string) =>
  page.locator('.auth-card [role="alert"]', { hasText: text });

describe('accounts in Chromium', () => {
  it('signs up with a texted code, stays logged in across reloads, logs out and in again', async ({
    people,
  }) => {
    const { context, page, watch, who } = await people.newPage(desktop, people.person('GB'));
    const password = who.password;
    const sent = recordSent(page);
    await signUp(page, who, password, 'desktop');
    await expect(page.getByRole('button', { name: 'Log out' }).isVisible()).resolves.toBe(true);

    // The access token lives 2 s in these tests: after a reload past it, one refresh restores it.
    // Its own expiry is waited for (and the second it counts in), not a fixed time: a request
    // in the background (the vault's first sync) may have refreshed it meanwhile.
    await page.waitForFunction(
      () => {
        const payload = localStorage.getItem('AuthToken')?.split('.')[1];
        if (!payload) return false;
        const { exp } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as {
          exp: number;
        };
        return Date.now() > (exp + 1) * 1000 + 200;
      },
      undefined,
      { polling: 100, timeout: 10_000 },
    );
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/token/refresh/')) refreshes.push(r.url());
    });
    await page.reload();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    expect(refreshes).toHaveLength(1);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).waitFor();
    await expect(page.evaluate(() => localStorage.getItem('AuthToken'))).resolves.toBeNull();

    await logIn(page, who, password);
    await toast(page, 'Logged In').waitFor();
    await page.waitForURL(`${baseURL}/`);
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    const tokens = await page.evaluate(() => [
      localStorage.getItem('AuthToken'),
      localStorage.getItem('RefreshToken'),
    ]);
    expect(tokens.every(Boolean)).toBe(true);

    // Choosing the password and logging in sent its login secret, never the password.
    const secrets = sent.filter((r) => /\/api\/(token|v1\/user\/set-password)\/\n/.test(r));
    expect(secrets).toHaveLength(2);
    for (const r of secrets) expect(r).toMatch(/"password":"cs1\.[\w-]{43}"/);
    expect(sent.filter((r) => r.includes(password))).toEqual([]);
    watch.assertNoErrors();
    await context.close();
  });

  it('a wrong password shows the server message in the card, under its heading', async ({
    people,
  }) => {
    const { context, page, who } = await people.newPage(phone, people.person('GB'));
    await logIn(page, who, 'not the password');
    await cardAlert(page, 'The phone number or password is not right.').waitFor();
    expect(page.url()).toBe(`${baseURL}/login`);
    await screenshot(page, 'login-error-phone');
    await context.close();
  });

  it('resets a forgotten password with a texted code', async ({ people }) => {
    const { context, page, watch, who } = await people.newPage(phone, people.person('GB'));
    const first = who.password;
    const second = `${first} and a second`;
    await signUp(page, who, first, 'phone');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).waitFor();

    await page.goto('/forgot-password');
    await fillUkPhone(page, who);
    const before = outboxCount(who.e164);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const code = await waitForCode(who.e164, before);
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('Password').fill(second);
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await toast(page, 'Password changed').waitFor();
    who.password = second; // the cleanup logs in with it
    await page.getByRole('button', { name: 'Log out' }).click();

    await logIn(page, who, first);
    await cardAlert(page, 'The phone number or password is not right.').waitFor();
    await logIn(page, who, second);
    await toast(page, 'Logged In').waitFor();
    watch.assertNoErrors();
    await context.close();
  });

  it('a reload on "Choose a password" leads on to a new code for the same number', async ({
    people,
  }) => {
    const { context, page, watch, who } = await people.newPage(phone, people.person('GB'));
    await page.goto('/signup');
    await fillUkPhone(page, who);
    await page.getByLabel('Year of birth').fill('1990');
    await page.getByRole('radio', { name: 'Woman' }).check();
    let before = outboxCount(who.e164);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('6-digit code').fill(await waitForCode(who.e164, before));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Choose a password' }).waitFor();
    // The verified code lives in memory only: a reload (or a tab the phone discarded) loses it.
    await page.reload();
    await page.getByRole('heading', { name: 'Verify your number first' }).waitFor();
    await page.getByRole('link', { name: 'Send me a new code' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    // The number is filled in already.
    before = outboxCount(who.e164);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('6-digit code').fill(await waitForCode(who.e164, before));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    watch.assertNoErrors();
    await context.close();
  });

  it('a bad phone number shows a field error', async ({ people }) => {
    const { context, page } = await people.newPage(phone, people.person('GB'));
    await page.goto('/signup');
    await fillPhone(page, 'GB', '123');
    await page.getByLabel('Year of birth').fill('1990');
    await page.getByRole('radio', { name: 'Man', exact: true }).check();
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByText('Enter a valid phone number.').waitFor();
    await expect(page.getByRole('heading', { name: 'Sign up' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'signup-error-phone');
    await context.close();
  });

  it('five wrong codes lock the code', async ({ people }) => {
    const { context, page, who } = await people.newPage(desktop, people.person('GB'));
    await page.goto('/signup');
    await fillUkPhone(page, who);
    await page.getByLabel('Year of birth').fill('1985');
    await page.getByRole('radio', { name: 'Prefer not to say' }).check();
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    const code = await waitForCode(who.e164);
    const wrong = code === '000000' ? '111111' : '000000';
    const attempt = async (otp: string) => {
      await page.getByLabel('6-digit code').fill(otp);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/v1/user/verify/')),
        page.getByRole('button', { name: 'Verify' }).click(),
      ]);
      return { status: response.status(), body: (await response.json()) as { detail?: string } };
    };
    for (let i = 0; i < 4; i++) {
      const r = await attempt(wrong);
      expect(r.status).toBe(400);
      expect(r.body.detail).toMatch(/That code is not right/);
    }
    expect((await attempt(wrong)).body.detail).toMatch(/Too many wrong codes/);
    // The right code no longer works: the code is locked; a new code is the way on.
    const last = await attempt(code);
    expect(last.status).toBe(400);
    expect(last.body.detail).toMatch(/Too many wrong codes/);
    await page.getByText('Too many wrong codes.').waitFor();
    await screenshot(page, 'verify-code-dead-desktop');
    await expect(page.getByRole('heading', { name: 'Enter your code' }).isVisible()).resolves.toBe(
      true,
    );
    await context.close();
  });
});
