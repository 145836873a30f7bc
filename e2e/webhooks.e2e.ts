// Webhooks in the staff area (issue 31, point 5): an admin adds a receiver on this machine (the
// test server allows 127.0.0.1 only, as WEBHOOK_ALLOWED_PRIVATE), a private address is refused
// with the reason, a test event that fails is sent again and delivered, a survey published
// reaches the receiver signed, and a deleted webhook is sent nothing more.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AdminSurvey, WebhookList } from '@candor/contracts';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { AUTHORED_PREFIX, type Caller, call, token } from './api';
import { desktop, phone } from './chromium';
import { it, test } from './fixtures';
import { openAdmin, screenshot, staffTab as tab, toast } from './screens';

const baseURL = inject('baseURL');

test.override('contextOptions', { reducedMotion: 'reduce' });

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

const got: Received[] = [];
/** Statuses the receiver answers with, in turn (200 once used up). */
const plan: number[] = [];
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    got.push({ headers: req.headers, body });
    res.writeHead(plan.shift() ?? 200);
    res.end();
  });
});

beforeAll(() => new Promise<void>((done) => server.listen(0, '127.0.0.1', done)));
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** The receiver's own check of a request (Standard Webhooks). */
function signedWith(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = `${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.body}`;
  const mac = crypto.createHmac('sha256', key).update(signed).digest('base64');
  return r.headers['webhook-signature'] === `v1,${mac}`;
}

const typeOf = (r: Received) => (JSON.parse(r.body) as { type: string }).type;

async function as(who: Caller, path: string, body: unknown = {}) {
  const res = await call(path, { body, token: await token(who), ip: who.ip });
  expect(res.status).toBeLessThan(300);
  return res;
}

describe('webhooks in the staff area', () => {
  it('an admin adds a receiver, a failed test is sent again, and a published survey reaches it signed', async ({
    people,
    admin,
  }) => {
    const receiver = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/candor`;
    // A retry starts from none: the first attempt's webhook may still be there.
    const staffToken = await token(admin);
    const left = (await (
      await call('/api/v1/admin/webhooks/', { token: staffToken, ip: admin.ip })
    ).json()) as WebhookList;
    for (const w of left.results) {
      await call(`/api/v1/admin/webhooks/${w.id}/`, {
        method: 'DELETE',
        token: staffToken,
        ip: admin.ip,
      });
    }
    got.length = 0;
    plan.length = 0;
    const { context, page, watch } = await people.newPage(desktop, admin);
    await openAdmin(page, admin);
    await toast(page, 'Logged In').waitFor({ state: 'detached' });
    await tab(page, 'Webhooks').click();
    await page.waitForURL(`${baseURL}/admin/webhooks`);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByText('No webhooks yet').waitFor();

    // Bad input says why, and adds nothing: no address, a private one, no event.
    const add = page.getByRole('button', { name: 'Add webhook' });
    await add.click();
    await page.getByText('Give the address that receives the events.').waitFor();
    await page.getByLabel('Address').fill('http://10.0.0.5/hooks');
    await add.click();
    await page.getByText(/private or reserved network/).waitFor();
    await screenshot(page, 'admin-webhook-refused-desktop');
    await page.getByLabel('Address').fill(receiver);
    for (const label of ['A survey is published', 'A survey closes', 'New results are published']) {
      await page.getByLabel(label).uncheck();
    }
    await add.click();
    await page.getByText('Pick at least one event.').waitFor();
    await page.getByLabel('A survey is published').check();
    await add.click();

    // The secret, shown once.
    await page.getByRole('heading', { name: 'The webhook is added' }).waitFor();
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, 'admin-webhook-secret-desktop');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect(page.content()).resolves.not.toContain(secret);
    const item = page.locator('.webhooks__item', { hasText: receiver });
    await item.getByText('nothing sent yet').waitFor();

    // A test event the receiver refuses, then sent again and delivered.
    plan.push(500);
    await item.getByRole('button', { name: 'Send test' }).click();
    await toast(page, 'Test event not delivered: answered 500').waitFor();
    await item.locator('.webhooks__log').getByText('Retrying').waitFor();
    await item.getByRole('button', { name: 'Send again' }).click();
    await toast(page, 'Sent again and delivered').waitFor();
    await item.locator('.webhooks__log').getByText('Delivered').waitFor();
    expect(got.map(typeOf)).toEqual(['ping', 'ping']);
    expect(got.every((r) => signedWith(secret, r))).toBe(true);

    // A survey published reaches the receiver within the background loop's second or two.
    const name = `${AUTHORED_PREFIX}Webhook ${Date.now()}`;
    const made = await as(admin, '/api/v1/admin/surveys/', {
      name,
      release_date: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    });
    const { gid } = (await made.json()) as AdminSurvey;
    await as(admin, `/api/v1/admin/surveys/${gid}/questions/`, {
      type: 'Closed',
      question: 'Would you wire Candor to your lab?',
      choices: ['Yes', 'No'],
    });
    await as(admin, `/api/v1/admin/surveys/${gid}/publish/`);
    await expect
      .poll(() => got.filter((r) => typeOf(r) === 'survey.published').length, { timeout: 15_000 })
      .toBe(1);
    const published = got.find((r) => typeOf(r) === 'survey.published')!;
    expect(signedWith(secret, published)).toBe(true);
    expect(JSON.parse(published.body)).toMatchObject({ data: { survey: { gid, name } } });
    await item.getByRole('button', { name: 'Hide deliveries' }).click();
    await item.getByRole('button', { name: 'Deliveries' }).click();
    await item.getByText('A survey is published', { exact: false }).first().waitFor();
    await screenshot(page, 'admin-webhooks-desktop');
    await page.setViewportSize(phone.viewport!);
    await screenshot(page, 'admin-webhooks-phone');
    await page.setViewportSize(desktop.viewport!);

    // Deleted: gone from the list, and nothing more is sent.
    await item.getByRole('button', { name: `Delete the webhook to ${receiver}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete webhook' }).click();
    await toast(page, 'The webhook is deleted').waitFor();
    await page.getByText('No webhooks yet').waitFor();
    const before = got.length;
    await new Promise((r) => setTimeout(r, 2500));
    expect(got).toHaveLength(before);

    await tab(page, 'Audit log').click();
    for (const text of [
      /added a webhook to/,
      /sent a test event to/,
      /sent a delivery again to/,
      /deleted the webhook to/,
    ]) {
      await page.getByText(text).first().waitFor();
    }
    watch.assertNoErrors();
    await context.close();
  });
});
