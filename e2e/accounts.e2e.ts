import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { desktop, launchChromium, phone } from './chromium';
import {
  fillPhone,
  logIn as logInWith,
  outboxCount,
  screenshot,
  signUp as signUpWith,
  toast,
  waitForCode,
  watchErrors,
} from './fixtures';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function newPage(options = desktop) {
  const context = await browser.newContext({ ...options, baseURL });
  const page = await context.newPage();
  return { context, page, watch: watchErrors(page) };
}

const fillUkPhone = (page: Page, national: string) => fillPhone(page, 'GB', national);
const signUp = (page: Page, national: string, e164: string, password: string, shots = '') =>
  signUpWith(page, dataDir, { country: 'GB', national, e164, password, shots });
const logIn = (page: Page, national: string, password: string) =>
  logInWith(page, 'GB', national, password);

describe('accounts in Chromium', () => {
  it('signs up with a texted code, stays logged in across reloads, logs out and in again', async () => {
    const { context, page, watch } = await newPage();
    const password = 'a long walk on a quiet beach';
    await signUp(page, '07700 900123', '+447700900123', password, 'desktop');
    await expect(page.getByRole('button', { name: 'Log out' }).isVisible()).resolves.toBe(true);

    // The access token lives 2 s in these tests: after a reload past it, one refresh restores it.
    await page.waitForTimeout(2500);
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

    await logIn(page, '07700 900123', password);
    await toast(page, 'Logged In').waitFor();
    await page.waitForURL(`${baseURL}/`);
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    const tokens = await page.evaluate(() => [
      localStorage.getItem('AuthToken'),
      localStorage.getItem('RefreshToken'),
    ]);
    expect(tokens.every(Boolean)).toBe(true);
    watch.assertNoErrors();
    await context.close();
  });

  it('a wrong password shows the server message as an error toast', async () => {
    const { context, page } = await newPage(phone);
    await logIn(page, '07700 900999', 'not the password');
    await toast(page, 'The phone number or password is not right.').waitFor();
    await expect(page.url()).toBe(`${baseURL}/login`);
    await screenshot(page, 'login-error-phone');
    await context.close();
  });

  it('resets a forgotten password with a texted code', async () => {
    const { context, page, watch } = await newPage(phone);
    await signUp(page, '07700 900456', '+447700900456', 'first password for me', 'phone');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).waitFor();

    await page.goto('/forgot-password');
    await fillUkPhone(page, '07700 900456');
    const before = outboxCount(dataDir, '+447700900456');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const code = await waitForCode(dataDir, '+447700900456', before);
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('Password').fill('second password for me');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await toast(page, 'Password changed').waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();

    await logIn(page, '07700 900456', 'first password for me');
    await toast(page, 'The phone number or password is not right.').waitFor();
    await logIn(page, '07700 900456', 'second password for me');
    await toast(page, 'Logged In').waitFor();
    watch.assertNoErrors();
    await context.close();
  });

  it('a bad phone number shows a field error', async () => {
    const { context, page } = await newPage(phone);
    await page.goto('/signup');
    await fillUkPhone(page, '123');
    await page.getByLabel('Year of birth').fill('1990');
    await page.getByRole('radio', { name: 'Man', exact: true }).check();
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByText('Enter a valid phone number.').waitFor();
    await expect(page.getByRole('heading', { name: 'Sign up' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'signup-error-phone');
    await context.close();
  });

  it('five wrong codes kill the code', async () => {
    const { context, page } = await newPage();
    await page.goto('/signup');
    await fillUkPhone(page, '07700 900789');
    await page.getByLabel('Year of birth').fill('1985');
    await page.getByRole('radio', { name: 'Prefer not to say' }).check();
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    const code = await waitForCode(dataDir, '+447700900789');
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
    // The right code no longer works: the code is dead.
    const last = await attempt(code);
    expect(last.status).toBe(400);
    expect(last.body.detail).toMatch(/Too many wrong codes/);
    await toast(page, 'Too many wrong codes').waitFor();
    await screenshot(page, 'verify-code-dead-desktop');
    await expect(page.getByRole('heading', { name: 'Enter your code' }).isVisible()).resolves.toBe(
      true,
    );
    await context.close();
  });
});
