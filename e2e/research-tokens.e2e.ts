import type { ResearchSurveyList, SurveyExport } from '@candor/contracts';
import { describe, expect, inject } from 'vitest';
import { desktop, phone } from './chromium';
import { it, test } from './fixtures';
import { openAdmin, screenshot, staffTab as tab, toast } from './screens';

const baseURL = inject('baseURL');

test.override('contextOptions', { reducedMotion: 'reduce' });

/** What a researcher's script does with the token. */
const asResearcher = (token: string, path: string) =>
  fetch(new URL(`/api/v1/research${path}`, baseURL), {
    headers: { authorization: `Bearer ${token}` },
  });

describe('researchers’ API tokens in the staff area', () => {
  it('an admin makes a token for one survey, a script reads its export, and a revocation stops it at once', async ({
    people,
    admin,
  }) => {
    // Its own name per run: a retry's list still holds the first attempt's token.
    const lab = `E2E Oxford lab ${Date.now().toString(36).slice(-4)}`;
    const { context, page, watch } = await people.newPage(desktop, admin);
    await openAdmin(page, admin);
    await toast(page, 'Logged In').waitFor({ state: 'detached' });
    await tab(page, 'API tokens').click();
    await page.waitForURL(`${baseURL}/admin/api-tokens`);
    await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();

    // Bad input says why, and makes nothing.
    await page.getByRole('button', { name: 'Make token' }).click();
    await page.getByText('Name the token: who is it for?').waitFor();
    await page.getByLabel('Who is it for?').fill(lab);
    await page.getByLabel('Only the surveys I pick').check();
    await page.getByRole('button', { name: 'Make token' }).click();
    await page.getByText('Pick at least one survey, or allow every survey.').waitFor();
    await page.getByRole('list', { name: 'Published surveys' }).getByLabel('Time Travel').check();
    await page.getByLabel('Valid for').selectOption({ label: '30 days' });
    await screenshot(page, 'admin-api-token-form-desktop');
    await page.getByRole('button', { name: 'Make token' }).click();

    // Shown once, with how to use it.
    await page.getByRole('heading', { name: `“${lab}” is ready` }).waitFor();
    const token = await page.getByLabel('Token', { exact: true }).inputValue();
    expect(token).toMatch(/^cdr_[A-Za-z0-9_-]{43}$/);
    await expect(page.locator('.research-tokens__example').innerText()).resolves.toContain(
      `Bearer ${token}`,
    );
    await screenshot(page, 'admin-api-token-made-desktop');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('button', { name: 'Make token' }).waitFor();
    await expect(page.content()).resolves.not.toContain(token);
    const item = page.locator('.research-tokens__item', { hasText: lab });
    await item.getByText('Time Travel').waitFor();
    await item.getByText('Active').waitFor();

    // The researcher's script: its one survey and that survey's export, nothing else.
    const listed = await asResearcher(token, '/surveys/');
    expect(listed.status).toBe(200);
    const surveys = ((await listed.json()) as ResearchSurveyList).results;
    expect(surveys.map((s) => s.name)).toEqual(['Time Travel']);
    const exported = await asResearcher(token, `/surveys/${surveys[0]!.gid}/export.json`);
    expect(exported.status).toBe(200);
    expect(((await exported.json()) as SurveyExport).name).toBe('Time Travel');
    await page.reload();
    await item.getByText(/last used/).waitFor();

    // At phone size too.
    await page.setViewportSize(phone.viewport!);
    await screenshot(page, 'admin-api-tokens-phone');
    await page.setViewportSize(desktop.viewport!);

    // Revoked: the very next request is refused.
    await item.getByRole('button', { name: `Revoke ${lab}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await item.getByText('Revoked', { exact: true }).waitFor();
    expect((await asResearcher(token, '/surveys/')).status).toBe(401);
    await screenshot(page, 'admin-api-tokens-desktop');

    // Each step is in the audit log.
    await tab(page, 'Audit log').click();
    for (const text of [
      `made the research token “${lab}”`,
      `listed surveys with the research token “${lab}”`,
      `as JSON with the research token “${lab}”`,
      `revoked the research token “${lab}”`,
    ]) {
      await page.getByText(text).first().waitFor();
    }
    watch.assertNoErrors();
    await context.close();
  });
});
