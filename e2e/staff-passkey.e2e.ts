import type { BrowserContextOptions, CDPSession, Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { call, token } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { type People, it } from './fixtures';
import { fillPhone, screenshot, toast } from './screens';
import { keepSecret, nextCode } from './second-factor';

const firstAdmin = inject('firstAdmin');
// Passkeys belong to a domain name, never an IP address: these pages open the server as
// `localhost`, the RP id the server takes when PUBLIC_URL is unset (decision 024).
const baseURL = inject('baseURL').replace('127.0.0.1', 'localhost');

/**
 * Chromium's virtual authenticator (CDP WebAuthn domain), as a phone's or laptop's own passkey
 * store: CTAP2, built in, keeping discoverable credentials, with the person's fingerprint
 * (user verification) given at once.
 */
async function virtualAuthenticator(page: Page) {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

/**
 * Issue 34, "Staff sign in like at a bank": a new moderator's first login sets up the
 * authenticator app, then adds a passkey; after logging out, the next login takes the passkey
 * after the password, and the app's code still works as the fallback. The passkey is removed
 * in the staff area at the end.
 */
async function passkeyLogins(people: People, size: string, options: BrowserContextOptions) {
  const member = await people.member();
  const promoted = await call(`/api/v1/admin/users/${member.user.uuid}/role/`, {
    body: { role: 'moderator' },
    token: await token(firstAdmin),
  });
  expect(promoted.status).toBe(200);
  const { context, page, watch, who } = await people.newPage({ ...options, baseURL }, member);
  const authenticator = await virtualAuthenticator(page);

  const logInWithPassword = async () => {
    await page.goto('/login');
    await fillPhone(page, who.country, who.national);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${baseURL}/login/code`);
  };
  const logOut = async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).first().waitFor();
  };
  const inStaffArea = async () => {
    await page.goto('/admin/signups');
    await page.getByRole('heading', { level: 1, name: 'Signups under review' }).waitFor();
  };

  // First login: the authenticator app is set up (as in staff-second-factor.e2e.ts)...
  await logInWithPassword();
  await page.getByRole('heading', { level: 1, name: 'Set up your authenticator' }).waitFor();
  const key = page.locator('.second-factor__key');
  await expect.poll(() => key.textContent()).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  keepSecret(who.e164, (await key.textContent())!.replace(/\s/g, ''));
  await page.getByLabel('First code from the app').fill(await nextCode(who.e164));
  await page.getByRole('button', { name: 'Turn on and log in' }).click();

  // ...then a passkey is offered, and made by the device's authenticator.
  await page.waitForURL(`${baseURL}/login/passkey`);
  await page.getByRole('heading', { level: 1, name: 'Add a passkey' }).waitFor();
  await screenshot(page, `staff-passkey-offer-${size}`);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await toast(page, 'Passkey added').waitFor();
  await page.waitForURL(`${baseURL}/`);
  expect(await authenticator.credentials()).toHaveLength(1);

  // The staff area lists it.
  await page.goto('/admin/passkeys');
  await page.getByRole('heading', { level: 1, name: 'Passkeys' }).waitFor();
  const list = page.getByRole('list', { name: 'Your passkeys' });
  await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
  await expect(list.textContent()).resolves.toMatch(/Passkey.*Added.*not used yet.*this device/);
  await screenshot(page, `staff-passkey-list-${size}`);
  expect(await axeViolations(page)).toEqual([]);

  // Log out, then in again: the password, then the passkey (no code typed).
  await logOut();
  await logInWithPassword();
  await page.getByRole('heading', { level: 1, name: 'Use your passkey' }).waitFor();
  await screenshot(page, `staff-passkey-login-${size}`);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await page.waitForURL(`${baseURL}/`);
  await toast(page, 'Logged In').waitFor();
  await inStaffArea();

  // The fallback: on the same screen, the authenticator app's code logs in too.
  await logOut();
  await logInWithPassword();
  await page.getByRole('heading', { level: 1, name: 'Use your passkey' }).waitFor();
  await page.getByLabel('6-digit code').fill(await nextCode(who.e164));
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(`${baseURL}/`);
  await toast(page, 'Logged In').waitFor();

  // Removing the passkey (asked first) leaves the code: the next login asks for it.
  await page.goto('/admin/passkeys');
  await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
  await expect(list.textContent()).resolves.toMatch(/last used/);
  await list.getByRole('button', { name: /^Remove / }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this passkey?' });
  await dialog.waitFor();
  await screenshot(page, `staff-passkey-remove-${size}`, { fullPage: false });
  await dialog.getByRole('button', { name: 'Remove passkey' }).click();
  await page.getByText('No passkeys yet').waitFor();
  await logOut();
  await logInWithPassword();
  await page.getByRole('heading', { level: 1, name: 'Enter your code' }).waitFor();

  watch.assertNoErrors();
  await context.close();
}

describe('staff passkeys in Chromium', () => {
  it('on a phone (390x844): adds a passkey after the authenticator, logs in with it, falls back to the code', async ({
    people,
  }) => {
    await passkeyLogins(people, 'phone', phone);
  });

  it('on a desktop (1280x800): adds a passkey after the authenticator, logs in with it, falls back to the code', async ({
    people,
  }) => {
    await passkeyLogins(people, 'desktop', desktop);
  });
});
