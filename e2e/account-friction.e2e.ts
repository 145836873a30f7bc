// Issue 30, point 6 (accounts without friction) and point 9's focus rules on the account screens,
// at a phone's size and a desktop's: errors beside their fields (aria-invalid, the message tied
// to the field), the rest in the card and not in a toast, focus on the first invalid field in
// reading order, the limits' own messages, a locked code that says one thing, and a held
// signup told why.
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { call, loginSecret, outboxCount, waitForCode } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { type People, it } from './fixtures';
import type { Person } from './people';
import { fillPhone, logIn, screenshot, signUp } from './screens';

const baseURL = inject('baseURL');

/** Whether `field` has the page's focus. */
const hasFocus = (field: Locator) => field.evaluate((el) => el === document.activeElement);

/** `field` gets the page's focus (the errors are drawn after the reply: waited for). */
const focused = (field: Locator) =>
  expect.poll(() => hasFocus(field), { timeout: 5000 }).toBe(true);

/** The texts `field` is described by (aria-describedby), joined. */
async function description(field: Locator): Promise<string> {
  return field.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

/** `field` is marked invalid, and `message` is read with it. */
async function invalidWith(field: Locator, message: string | RegExp) {
  await expect.poll(() => field.getAttribute('aria-invalid'), { timeout: 5000 }).toBe('true');
  await expect.poll(() => description(field), { timeout: 5000 }).toMatch(message);
}

/** No toast is on screen (errors are in the card, where a toast would cover the heading). */
async function noToast(page: Page) {
  await page.waitForTimeout(300);
  await expect(page.locator('[data-sonner-toast]').count()).resolves.toBe(0);
}

async function noSeriousAxe(page: Page) {
  await expect(axeViolations(page)).resolves.toEqual([]);
}

/** Fills the signup form for `who` and asks for the code; ends on the code screen. */
async function startSignup(page: Page, who: Person) {
  await page.goto('/signup');
  await fillPhone(page, who.country, who.national);
  await page.getByLabel('Year of birth').fill('1990');
  await page.getByRole('radio', { name: 'Woman' }).check();
  const before = outboxCount(who.e164);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
  return waitForCode(who.e164, before);
}

const sizes: Array<[string, BrowserContextOptions]> = [
  ['phone', phone],
  ['desktop', desktop],
];

describe.each(sizes)('account screens at the %s size', (size, viewport) => {
  const open = (people: People, who?: Person) => people.newPage(viewport, who);

  it('signup: an empty try marks every field, in reading order, and focuses the phone number', async ({
    people,
  }) => {
    const { context, page, watch } = await open(people);
    await page.goto('/signup');
    await page.getByRole('heading', { name: 'Sign up' }).waitFor();
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const phoneField = page.getByLabel('Phone number', { exact: true });
    await invalidWith(phoneField, 'Enter your phone number.');
    await focused(phoneField);
    await invalidWith(page.getByLabel('Year of birth'), /Enter your year of birth/);
    const woman = page.getByRole('radio', { name: 'Woman' });
    await expect(woman.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(description(page.getByRole('group', { name: 'Gender' }))).resolves.toBe(
      'Choose one of the options.',
    );
    await noSeriousAxe(page);
    await screenshot(page, `friction-signup-empty-${size}`);

    // Mended in order: the phone number, then the first field still wrong is the year.
    await fillPhone(page, 'GB', '07700 900123');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await focused(page.getByLabel('Year of birth'));
    watch.assertNoErrors();
    await context.close();
  });

  it('signup: the limits say what is wrong (year of birth, name, phone digits), as the API does', async ({
    people,
  }) => {
    const { context, page, watch } = await open(people);
    await page.goto('/signup');
    await fillPhone(page, 'GB', '7700900123'.repeat(6));
    await page.getByLabel('Year of birth').fill('1890');
    await page.getByRole('radio', { name: 'Man', exact: true }).check();
    await page.getByLabel('Name (optional)').fill('a'.repeat(500));
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const oldest = new Date().getUTCFullYear() - 100;
    await invalidWith(
      page.getByLabel('Phone number', { exact: true }),
      'A phone number has at most 15 digits.',
    );
    await invalidWith(page.getByLabel('Year of birth'), `Enter a year of birth from ${oldest} on.`);
    await invalidWith(
      page.getByLabel('Name (optional)'),
      'Use at most 80 characters for your name.',
    );
    await focused(page.getByLabel('Phone number', { exact: true }));
    await noSeriousAxe(page);
    await screenshot(page, `friction-signup-limits-${size}`);

    // The API says the same words for the same limits (one contract). The year of birth is the
    // device's alone: it is never sent (decision 020), so an old client's is dropped unread.
    const who = people.person('GB');
    const res = await call('/api/v1/user/create/', {
      body: {
        phone_number: '+44' + '7'.repeat(20),
        year_of_birth: 1890,
        name: 'a'.repeat(81),
        gender: 'male',
        country: 'GB',
      },
      ip: who.ip,
    });
    expect(res.status).toBe(400);
    await expect(res.json()).resolves.toEqual({
      phone_number: ['A phone number has at most 15 digits.'],
      name: ['Use at most 80 characters for your name.'],
    });
    watch.assertNoErrors();
    await context.close();
  });

  it('verify: a wrong code is kept, marked invalid and focused; no toast', async ({ people }) => {
    const { context, page, watch, who } = await open(people, people.person('GB'));
    const code = await startSignup(page, who);
    const wrong = code === '000000' ? '111111' : '000000';
    const codeField = page.getByLabel('6-digit code');
    await codeField.fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await invalidWith(codeField, 'That code is not right');
    await expect(codeField.inputValue()).resolves.toBe(wrong);
    await focused(codeField);
    await noToast(page);
    await noSeriousAxe(page);
    await screenshot(page, `friction-verify-wrong-${size}`);

    // Typing over the selected wrong code replaces it, and the right code goes on.
    await page.keyboard.type(code);
    await expect(codeField.inputValue()).resolves.toBe(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Choose a password' }).waitFor();

    // Set password: a short one is marked beside the field and focused.
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    const password = page.getByLabel('Password');
    await invalidWith(password, 'Use at least 8 characters.');
    await focused(password);
    await noSeriousAxe(page);
    await screenshot(page, `friction-set-password-short-${size}`);

    // A common one is refused on the device (the server only sees the login secret), and
    // nothing is sent.
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/set-password/')) sent.push(r.url());
    });
    await password.fill('Password123');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await invalidWith(password, 'This password is too common');
    await focused(password);
    expect(sent).toEqual([]);
    watch.assertNoErrors();
    await context.close();
  });

  it('verify: a locked code says one thing on the page and from the API, and the new code it asks for works', async ({
    people,
  }) => {
    const { context, page, watch, who } = await open(people, people.person('GB'));
    const code = await startSignup(page, who);
    const wrong = code === '000000' ? '111111' : '000000';
    const codeField = page.getByLabel('6-digit code');
    let reply = { status: 0, detail: '' };
    for (let i = 0; i < 5; i++) {
      await codeField.fill(wrong);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/v1/user/verify/')),
        page.getByRole('button', { name: 'Verify' }).click(),
      ]);
      reply = {
        status: response.status(),
        detail: ((await response.json()) as { detail: string }).detail,
      };
    }
    // The fifth wrong code locks the code: the reply and the field say the same, and nothing on
    // the page promises a wait of minutes that the API does not keep.
    const locked = 'Too many wrong codes. Ask for a new code.';
    expect(reply).toEqual({ status: 400, detail: locked });
    await invalidWith(codeField, locked);
    await focused(codeField);
    await page.getByText(/^You can ask for a new code in \d+ seconds?\.$/).waitFor();
    await expect(page.getByText(/new code in \d+ minutes?/).count()).resolves.toBe(0);
    await noToast(page);
    await noSeriousAxe(page);
    await screenshot(page, `friction-verify-locked-${size}`);

    // The right code is refused with the same words; a new code (asked for here through the API,
    // as the page's button does after its pause) is texted and works.
    await codeField.fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await invalidWith(codeField, locked);
    const texts = outboxCount(who.e164);
    const resent = await call('/api/v1/user/resend-otp/', {
      body: { phone_number: who.e164, purpose: 'signup' },
      ip: who.ip,
    });
    expect(resent.status).toBe(202);
    const fresh = await waitForCode(who.e164, texts);
    await codeField.fill(fresh);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Choose a password' }).waitFor();
    watch.assertNoErrors();
    await context.close();
  });

  it('login: a refused login is said in the card, focused, not in a toast; an empty try focuses the number', async ({
    people,
  }) => {
    const who = await people.member();
    const { context, page, watch } = await open(people, who);
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByRole('button', { name: 'Log in' }).click();
    const phoneField = page.getByLabel('Phone number', { exact: true });
    await invalidWith(phoneField, 'Enter your phone number.');
    await invalidWith(page.getByLabel('Password'), 'Enter your password.');
    await focused(phoneField);
    await noSeriousAxe(page);
    await screenshot(page, `friction-login-empty-${size}`);

    await fillPhone(page, 'US', who.national);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    const alert = page.locator('.auth-card [role="alert"]', {
      hasText: 'The phone number or password is not right.',
    });
    await alert.waitFor();
    await focused(alert);
    // Below the heading, which stays in view.
    const heading = await page.getByRole('heading', { name: 'Log in' }).boundingBox();
    const box = await alert.boundingBox();
    expect(box!.y).toBeGreaterThan(heading!.y + heading!.height);
    expect(box!.y + box!.height).toBeLessThan(viewport.viewport!.height);
    await noToast(page);
    await noSeriousAxe(page);
    await screenshot(page, `friction-login-refused-${size}`);
    watch.assertNoErrors();
    await context.close();
  });

  it('forgot password: an empty try marks and focuses the number', async ({ people }) => {
    const { context, page, watch } = await open(people);
    await page.goto('/forgot-password');
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const phoneField = page.getByLabel('Phone number', { exact: true });
    await invalidWith(phoneField, 'Enter your phone number.');
    await focused(phoneField);
    await noSeriousAxe(page);
    await screenshot(page, `friction-forgot-empty-${size}`);
    watch.assertNoErrors();
    await context.close();
  });

  it('a held signup is told the kind of reason in plain words', async ({ people }) => {
    // A premium-rate number: the risk checks hold it for review.
    const { context, page, watch, who } = await open(people, people.person('premium'));
    await signUp(page, who);
    await page
      .getByRole('status')
      .getByText(
        'A person will look at your signup shortly, because numbers like yours (internet, forwarding or premium-rate) can be had in bulk.',
      )
      .waitFor();
    await noSeriousAxe(page);
    await screenshot(page, `friction-welcome-held-${size}`);
    watch.assertNoErrors();
    await context.close();
  });
});

describe('a device its owner used (decision 022)', () => {
  it("logs in at once while an attacker's wrong passwords from many addresses hold the number back", async ({
    people,
  }) => {
    const who = await people.member();
    const { context, page, watch } = await people.newPage(phone, who);
    // What each login of this browser carried: the device token its first login was given.
    const carried: Array<string | undefined> = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/token/') carried.push(r.headers()['candor-device']);
    });
    await logIn(page, who);
    await page.waitForURL(`${baseURL}/`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).waitFor();

    // The attacker: wrong passwords for the number, each from another address.
    for (let i = 0; i < 8; i++) {
      const res = await call('/api/token/', {
        body: { phone_number: who.e164, password: `guess-${i}-not-it` },
        ip: `203.0.113.${20 + i}`,
      });
      expect([400, 429]).toContain(res.status);
    }
    // A client the number has never seen waits now, even with the right password.
    const stranger = await call('/api/token/', {
      body: { phone_number: who.e164, password: await loginSecret(who) },
      ip: '198.51.100.7',
    });
    expect(stranger.status).toBe(429);

    // The owner's browser is let in at once, with its device token.
    await logIn(page, who);
    await page.waitForURL(`${baseURL}/`);
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    expect(carried).toHaveLength(2);
    expect(carried[0]).toBeUndefined();
    expect(carried[1]).toMatch(/^[\w-]+\.[0-9a-z]+\.[0-9a-f]{32}$/);
    // Kept under a hash of the number: the number itself is not in the browser's storage.
    const stored = await page.evaluate(() => JSON.stringify(localStorage));
    expect(stored).not.toContain(who.national);
    watch.assertNoErrors();
    await context.close();
  });
});
