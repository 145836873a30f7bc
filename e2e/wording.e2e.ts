// Words and small screens a new user meets: the reset code's promise and /signup for a member.
import { describe, expect, inject } from 'vitest';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { fillPhone, logIn, screenshot } from './screens';

const baseURL = inject('baseURL');

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
});
