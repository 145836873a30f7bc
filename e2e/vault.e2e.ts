// A member's second device (issue 28, decision 020): answers sent with anonymous credentials
// carry no account, so the API cannot give them back; the member's own end-to-end encrypted
// vault carries them, and the credential, from one browser to another.
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { call, loginSecret, outboxCount, sampleSurvey, waitForCode } from './api';
import { desktop, phone } from './chromium';
import { it } from './fixtures';
import { logAnswers, logIn, questionHeading, screenshot, storedAnswers } from './screens';

const sizes = [
  ['phone', phone],
  ['desktop', desktop],
] as const;

/** The next write of the member's vault. */
const vaultWrite = (page: Page) =>
  page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/user/vault/') && r.request().method() === 'PUT',
  );

/** Picks the first real choice of the closed question on screen; returns it. */
async function pickFirst(page: Page): Promise<string> {
  const first = page.getByRole('list', { name: 'Answers' }).getByRole('button').first();
  const label = (await first.textContent())!.trim();
  await first.click();
  return label;
}

describe("a member's second device", () => {
  it.for(sizes)(
    'on a %s, answers given on one device are in the mirror of another, and the survey goes on there',
    { timeout: 120_000 },
    async ([size, options], { people }) => {
      const s = await sampleSurvey((x) => x.name === 'Consent in Practice');
      const member = await people.member();

      // The first device: logged in with the password (which opens the vault), one answer.
      const a = await people.newPage(options, member);
      const sentA = logAnswers(a.context);
      // The login's own write (the vault is written once at each login): the vault is open.
      const opened = vaultWrite(a.page);
      await logIn(a.page, member);
      expect((await opened).ok()).toBe(true);
      await a.page.getByRole('link', { name: 'My mirror' }).waitFor();
      await a.page.goto(`/surveys/${s.gid}`);
      await a.page.getByRole('button', { name: 'Start the survey' }).click();
      await questionHeading(a.page, s.questions[0]!.question).waitFor();
      const given = await pickFirst(a.page);
      await a.page.getByText(`Your answer: ${given}`).waitFor();
      await expect.poll(() => storedAnswers(sentA).length).toBe(1);
      // Logging out writes the vault before this browser forgets the member's answers.
      const written = vaultWrite(a.page);
      await a.page.getByRole('button', { name: 'Log out' }).click();
      expect((await written).ok()).toBe(true);
      await a.page.getByRole('link', { name: 'Log in' }).waitFor();
      a.watch.assertNoErrors();
      await a.context.close();

      // The second device: nothing of the member in its browser until the vault opens.
      const b = await people.newPage(options, member);
      const sentB = logAnswers(b.context);
      await logIn(b.page, member);
      await b.page.getByRole('link', { name: 'My mirror' }).click();
      await b.page.getByRole('heading', { level: 1, name: 'Where you stand' }).waitFor();
      const item = b.page.locator('.mirror-item').filter({ hasText: s.questions[0]!.question });
      await expect.poll(() => item.count(), { timeout: 15_000 }).toBe(1);
      await expect(item.locator('.mirror-item__answer').textContent()).resolves.toContain(given);
      await screenshot(b.page, `vault-second-device-mirror-${size}`);

      // The survey goes on from the second question there, answered with the credential the
      // vault brought (the API issues one per member and survey, to the first device).
      await b.page.goto(`/surveys/${s.gid}`);
      await b.page.getByRole('button', { name: /Continue|Start the survey/ }).click();
      await questionHeading(b.page, s.questions[1]!.question).waitFor();
      await pickFirst(b.page);
      await expect.poll(() => storedAnswers(sentB).length).toBe(1);
      expect(storedAnswers(sentB)[0]!.qid).toBe(s.questions[1]!.qid);
      b.watch.assertNoErrors();
      await b.context.close();
    },
  );

  it('a vault this device cannot open says why and what to do: start a new one, or log in again', async ({
    people,
  }) => {
    const member = await people.member();
    // The first device opens (creates) the vault under the first password.
    const a = await people.newPage(desktop, member);
    const opened = vaultWrite(a.page);
    await logIn(a.page, member);
    expect((await opened).ok()).toBe(true);
    await a.context.close();

    // A reset by code elsewhere: the vault stays sealed under the old password.
    const before = outboxCount(member.e164);
    await call('/api/v1/user/forgot-password/', {
      body: { phone_number: member.e164 },
      ip: member.ip,
    });
    const otp = await waitForCode(member.e164, before);
    const password = `${member.password} again`;
    const reset = await call('/api/v1/user/set-password/', {
      body: {
        phone_number: member.e164,
        otp,
        password: await loginSecret({ e164: member.e164, password }),
      },
      ip: member.ip,
    });
    expect(reset.status).toBe(200);

    // A new device with the new password holds no key that opens it: the mirror says so.
    const b = await people.newPage(phone, member);
    await logIn(b.page, { ...member, password });
    await b.page.getByRole('link', { name: 'My mirror' }).click();
    const notice = b.page.getByRole('region', { name: 'Your vault is locked on this device' });
    await expect
      .poll(() => notice.textContent(), { timeout: 15_000 })
      .toContain('sealed under your old password');
    await screenshot(b.page, 'vault-locked-password-changed-phone');
    await notice.getByRole('button', { name: 'Start a new vault' }).click();
    const replaced = vaultWrite(b.page);
    await b.page
      .getByRole('dialog', { name: 'Start a new vault?' })
      .getByRole('button', { name: 'Start a new vault' })
      .click();
    expect((await replaced).ok()).toBe(true);
    await notice.waitFor({ state: 'detached' });

    // The key gone from this browser (a cleared site storage): log in again to open it.
    await b.page.evaluate(
      () =>
        new Promise((resolve) => {
          const req = indexedDB.deleteDatabase('candor-keys');
          req.onsuccess = req.onerror = req.onblocked = () => resolve(null);
        }),
    );
    await b.page.reload();
    await expect
      .poll(() => notice.textContent(), { timeout: 15_000 })
      .toContain('does not hold the key to your vault');
    await screenshot(b.page, 'vault-locked-no-key-phone');
    await notice.getByRole('button', { name: 'Log out to log in again' }).click();
    await b.page.getByRole('link', { name: 'Log in' }).waitFor();
    b.watch.assertNoErrors();
    await b.context.close();
  });
});
