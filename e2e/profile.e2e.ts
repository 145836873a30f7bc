// Gender and year of birth on the member's devices only (issue 28, decision 020 slice 2): beside
// an account they would join it to its answers' class. Sign-up asks for them but never sends
// them; the answers carry the class made from them; the mirror's "About you" shows and changes
// them; the vault takes them to the member's other devices.
import { ageBandOf } from '@candor/contracts';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { sampleSurvey } from './api';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { logAnswers, logIn, questionHeading, screenshot, signUp, storedAnswers } from './screens';

const sizes = [
  ['phone', phone],
  ['desktop', desktop],
] as const;

const aboutYou = (page: Page) => page.getByRole('region', { name: 'About you' });

/** The next write of the member's vault. */
const vaultWrite = (page: Page) =>
  page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/user/vault/') && r.request().method() === 'PUT',
  );

describe('gender and year of birth, on the device only', () => {
  it.for(sizes)(
    'on a %s, sign-up keeps them on the device: never sent, carried as a class by answers, changed in the mirror, restored from the vault',
    { timeout: 150_000 },
    async ([size, options], { people }) => {
      const s = await sampleSurvey((x) => x.name === 'Consent in Practice');
      const a = await people.newPage(options);
      const who = a.who;
      const signups: Array<Record<string, unknown>> = [];
      const classes: unknown[] = [];
      a.context.on('request', (r) => {
        if (r.method() !== 'POST') return;
        const body = r.postDataJSON() as Record<string, unknown> | null;
        if (r.url().endsWith('/api/v1/user/create/')) signups.push(body ?? {});
        if (/\/api\/v1\/questions\/[^/]+\/answer\/$/.test(r.url())) classes.push(body?.profile);
      });
      const sent = logAnswers(a.context);
      // The vault is written once the session starts: its key is then on the device (a page
      // load before that would find none, and the mirror would say the vault is locked).
      const opened = vaultWrite(a.page);
      await signUp(a.page, who);
      expect((await opened).ok()).toBe(true);
      expect(signups).toHaveLength(1);
      expect(Object.keys(signups[0]!).sort()).toEqual(['country', 'phone_number']);

      // An answer carries the class made on the device, never the year itself.
      await a.page.goto(`/surveys/${s.gid}`);
      await a.page.getByRole('button', { name: 'Start the survey' }).click();
      await questionHeading(a.page, s.questions[0]!.question).waitFor();
      await a.page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
      await expect.poll(() => storedAnswers(sent).length).toBe(1);
      expect(classes[0]).toEqual({ gender: 'female', age_band: ageBandOf(1990), country: 'US' });

      // The mirror shows them, and changes them on the device.
      await a.page.goto('/me');
      await expect
        .poll(() => aboutYou(a.page).textContent())
        .toContain('Born in 1990 · Woman · United States');
      await aboutYou(a.page).getByRole('button', { name: 'Change' }).click();
      await aboutYou(a.page).getByLabel('Year of birth').fill('1970');
      await aboutYou(a.page).getByRole('radio', { name: 'Man', exact: true }).check();
      await screenshot(a.page, `profile-about-you-edit-${size}`);
      await aboutYou(a.page).getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => aboutYou(a.page).textContent()).toContain('Born in 1970 · Man');
      await screenshot(a.page, `profile-about-you-${size}`);

      // Logging out writes the vault; another device reads the profile from it.
      const written = vaultWrite(a.page);
      await a.page.getByRole('button', { name: 'Log out', exact: true }).click();
      expect((await written).ok()).toBe(true);
      a.watch.assertNoErrors();
      await a.context.close();

      const b = await people.newPage(options, who);
      await logIn(b.page, who);
      await b.page.getByRole('link', { name: 'My mirror' }).click();
      await expect
        .poll(() => aboutYou(b.page).textContent(), { timeout: 15_000 })
        .toContain('Born in 1970 · Man · United States');
      b.watch.assertNoErrors();
      await b.context.close();
    },
  );

  it('a member without them on the device is told so, and answers count as undisclosed until they add them', async ({
    people,
  }) => {
    const member = await people.member();
    const { context, page, watch } = await people.newPage(phone, member);
    await logIn(page, member);
    await page.getByRole('link', { name: 'My mirror' }).click();
    await expect.poll(() => aboutYou(page).textContent()).toContain('Not set on this device');
    await screenshot(page, 'profile-not-set-phone');
    // Saving without a year says what is missing, beside the field.
    await aboutYou(page).getByRole('button', { name: 'Save' }).click();
    await expect(
      aboutYou(page).getByLabel('Year of birth').getAttribute('aria-invalid'),
    ).resolves.toBe('true');
    await aboutYou(page).getByLabel('Year of birth').fill('1985');
    await aboutYou(page).getByRole('radio', { name: 'Non-binary' }).check();
    await aboutYou(page).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => aboutYou(page).textContent()).toContain('Born in 1985 · Non-binary');
    watch.assertNoErrors();
    await context.close();
  });
});
