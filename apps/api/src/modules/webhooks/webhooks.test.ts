/**
 * Webhooks (issue 31, point 5; decision 032) through the real API on both engines, delivered to
 * a real local HTTP receiver, and tried as an attacker would: a webhook to a private or reserved
 * address is refused when saved and again at the connection (a name that resolves to a public
 * address when saved and to the receiver on this machine when sent); redirects are not followed;
 * each event is sent once per webhook, signed, retried with backoff, and can be sent again.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  AuditEntryListSchema,
  CreatedWebhookSchema,
  type WebhookDelivery,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookListSchema,
} from '@candor/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { createMember, get, json, post, send } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { surveyBody, surveyWithQuestion } from '../../test/authoring.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { createWebhooksRepository } from './webhooks.repository.js';
import { createAddressGuard, send as sendOne } from './webhooks.sender.js';
import { RETRY_DELAYS_S } from './webhooks.service.js';

const ADMIN = '/api/v1/admin';
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on this machine: answers each request with the next planned status (200 after). */
async function receiver() {
  const got: Received[] = [];
  const plan: number[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      const status = plan.shift() ?? 200;
      if (status === 302) res.writeHead(302, { location: 'http://169.254.169.254/' });
      else res.writeHead(status);
      res.end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return {
    got,
    plan,
    port,
    url: `http://127.0.0.1:${port}/hooks/candor`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** A delivery's JSON body. */
const bodyOf = (r: Received) => JSON.parse(r.body) as { type: string; data: { survey?: unknown } };

/** Standard Webhooks' check, as a receiver would write it. */
function verified(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const mac = crypto.createHmac('sha256', key).update(`${id}.${ts}.${r.body}`).digest('base64');
  const given = String(r.headers['webhook-signature']).split(' ');
  return given.includes(`v1,${mac}`);
}

describe.each(engines)('webhooks on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };
  let hook: Awaited<ReturnType<typeof receiver>>;
  let now = new Date();
  /** What the guarded lookup is told each name resolves to. */
  const names = new Map<string, string>();
  const staff = () => ({ token: admin.token });
  const later = (seconds: number) => (now = new Date(now.getTime() + seconds * 1000));

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    hook = await receiver();
    app = await createTestApp(
      database,
      {
        contentCacheSeconds: 0,
        webhooks: { intervalSeconds: 0, allowedPrivate: [`127.0.0.1/32`] },
      },
      {
        clock: () => now,
        webhookResolve: async (name: string) => {
          const address = names.get(name) ?? (name === 'localhost' ? '127.0.0.1' : undefined);
          if (!address) throw new Error('ENOTFOUND');
          return [{ address, family: address.includes(':') ? 6 : 4 }];
        },
      },
    );
    admin = await createMember(app, { role: 'admin' });
  });

  afterAll(async () => {
    await closeAll(app, database);
    await hook.close();
  });

  beforeEach(async () => {
    // Each test starts with no webhook and an empty receiver.
    await database.db.execute(sql`delete from webhooks`);
    hook.got.length = 0;
    hook.plan.length = 0;
    // A fresh session: tests move the clock past an access token's life.
    admin = await createMember(app, { role: 'admin' });
  });

  const add = (body: unknown, token = admin.token) =>
    post(app, `${ADMIN}/webhooks/`, body, { token });
  const deliveries = async (id: string) =>
    WebhookDeliveryListSchema.parse(
      json(await get(app, `${ADMIN}/webhooks/${id}/deliveries/`, staff())),
    ).results;
  const made = async (
    url: string,
    events = ['survey.published', 'survey.closed', 'results.updated'],
  ) => {
    const res = await add({ url, events });
    expect(res.statusCode, res.body).toBe(201);
    return CreatedWebhookSchema.parse(json(res));
  };
  const publishOne = async (name: string) => {
    later(1);
    return surveyWithQuestion(app, admin.token, surveyBody({ name }), { publish: true });
  };

  it('refuses private, reserved and malformed addresses with the reason, and makes nothing', async () => {
    names.set('inside.example', '10.1.2.3');
    names.set('loopback.example', '127.0.0.3');
    names.set('public.example', '93.184.216.34');
    const refusedPrivate = [
      'http://10.0.0.1/',
      'http://192.168.1.10/hook',
      'http://[::1]:8080/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:127.0.0.2]/',
      'http://127.0.0.2/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://loopback.example:9/',
      'https://inside.example/hook',
      'http://[fd00::1]/',
    ];
    for (const url of refusedPrivate) {
      const res = await add({ url, events: ['survey.closed'] });
      expect(res.statusCode, url).toBe(400);
      expect(json<Record<string, string[]>>(res).url?.[0], url).toMatch(
        /private or reserved network/,
      );
    }
    const malformed: Array<[unknown, string, RegExp]> = [
      [{ url: 'ftp://files.example/', events: ['survey.closed'] }, 'url', /https:\/\//],
      [{ url: 'not a url', events: ['survey.closed'] }, 'url', /https:\/\//],
      [{ url: 'https://user:pw@hooks.example/', events: ['survey.closed'] }, 'url', /password/],
      [{ url: `https://h.example/${'a'.repeat(2100)}`, events: ['survey.closed'] }, 'url', /2,000/],
      [{ url: '   ', events: ['survey.closed'] }, 'url', /Give the address/],
      [{ url: 'https://nowhere.example/', events: ['survey.closed'] }, 'url', /does not resolve/],
      [{ url: 'https://public.example/', events: [] }, 'events', /at least one/],
      [{ url: 'https://public.example/', events: ['answer.created'] }, 'events', /from the list/],
      [
        { url: 'https://public.example/', events: ['survey.closed', 'survey.closed'] },
        'events',
        /once/,
      ],
      [{ url: 'https://public.example/', events: ['survey.closed'], extra: 1 }, '', /./],
    ];
    for (const [body, field, message] of malformed) {
      const res = await add(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      if (field) {
        expect(
          json<Record<string, string[]>>(res)[field]?.join(' '),
          JSON.stringify(body).slice(0, 80),
        ).toMatch(message);
      }
    }
    const member = await createMember(app);
    expect(
      (await add({ url: 'https://public.example/', events: ['survey.closed'] }, member.token))
        .statusCode,
    ).toBe(403);
    const moderator = await createMember(app, { role: 'moderator' });
    expect(
      (await add({ url: 'https://public.example/', events: ['survey.closed'] }, moderator.token))
        .statusCode,
    ).toBe(403);
    const listed = WebhookListSchema.parse(json(await get(app, `${ADMIN}/webhooks/`, staff())));
    expect(listed.results).toEqual([]);
  });

  it('sends each event once, signed, with published numbers only; keeps the secret sealed', async () => {
    const created = await made(hook.url);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const listed = JSON.stringify(json(await get(app, `${ADMIN}/webhooks/`, staff())));
    expect(listed).not.toContain(created.secret);
    const stored = JSON.stringify(rowsOf(await database.db.execute(sql`select * from webhooks`)));
    expect(stored).not.toContain(created.secret.slice(6));

    const survey = await publishOne('Hooked survey');
    later(1);
    await app.webhooks.tick();
    await app.webhooks.tick();
    const published = hook.got.filter((r) => bodyOf(r).type === 'survey.published');
    expect(published).toHaveLength(1);
    expect(verified(created.secret, published[0]!)).toBe(true);
    expect(Number(published[0]!.headers['webhook-timestamp'])).toBe(
      Math.floor(now.getTime() / 1000),
    );
    expect(bodyOf(published[0]!).data.survey).toMatchObject({
      gid: survey.gid,
      name: 'Hooked survey',
    });
    // A changed body fails the receiver's check.
    expect(
      verified(created.secret, {
        ...published[0]!,
        body: published[0]!.body.replace('Hooked', 'Hacked'),
      }),
    ).toBe(false);

    // Results published: the payload is the survey's public results, nothing more.
    const [question] = rowsOf<{ id: number }>(
      await database.db.execute(
        sql`select q.id from questions q join surveys s on s.id = q.survey_id where s.gid = ${survey.gid}`,
      ),
    );
    later(1);
    await app.results.tick();
    expect(await app.results.releaseNow(question!.id)).toBe(true);
    later(1);
    await app.webhooks.tick();
    const updated = hook.got.filter((r) => bodyOf(r).type === 'results.updated');
    expect(updated).toHaveLength(1);
    // It says where the published results are, and carries no figure of its own: the log keeps
    // nothing a later withdrawal or deletion would change.
    const told = bodyOf(updated[0]!).data as { results_path: string };
    expect(Object.keys(told).sort()).toEqual(['results_path', 'survey']);
    expect((await get(app, told.results_path)).statusCode).toBe(200);

    later(1);
    const closed = await post(app, `${ADMIN}/surveys/${survey.gid}/close/`, {}, staff());
    expect(closed.statusCode, closed.body).toBe(200);
    later(1);
    await app.webhooks.tick();
    await app.webhooks.tick();
    expect(hook.got.filter((r) => bodyOf(r).type === 'survey.closed')).toHaveLength(1);
    // Every request's id is its own delivery's; the log says each was delivered once.
    const log = await deliveries(created.id);
    expect(log.map((d) => d.event).sort()).toEqual([
      'results.updated',
      'survey.closed',
      'survey.published',
    ]);
    expect(log.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
    expect(new Set(hook.got.map((r) => r.headers['webhook-id'])).size).toBe(hook.got.length);

    // A webhook made afterwards is not sent what happened before it.
    const late = await made(hook.url);
    later(1);
    await app.webhooks.tick();
    expect(await deliveries(late.id)).toEqual([]);
  });

  it('retries a failing receiver with backoff, gives up, and sends again on request', async () => {
    const created = await made(hook.url, ['survey.published']);
    hook.plan.push(500, 503);
    await publishOne('Flaky receiver');
    later(1);
    await app.webhooks.tick();
    let [d] = await deliveries(created.id);
    expect(d).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status: 500,
      last_error: 'answered 500',
    });
    expect(Date.parse(d!.next_attempt_at!) - now.getTime()).toBe(RETRY_DELAYS_S[0]! * 1000);
    // Not due yet: nothing is sent.
    later(RETRY_DELAYS_S[0]! - 1);
    await app.webhooks.tick();
    expect(hook.got).toHaveLength(1);
    later(1);
    await app.webhooks.tick();
    [d] = await deliveries(created.id);
    expect(d).toMatchObject({ status: 'pending', attempts: 2, last_status: 503 });
    later(RETRY_DELAYS_S[1]!);
    await app.webhooks.tick();
    [d] = await deliveries(created.id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, last_status: 200 });
    expect(hook.got).toHaveLength(3);

    // A receiver that never answers well: every retry, then "failed".
    await send(app, 'DELETE', `${ADMIN}/webhooks/${created.id}/`, undefined, staff());
    const gone = await made(`http://127.0.0.1:${hook.port}/down`, ['survey.published']);
    hook.plan.push(...RETRY_DELAYS_S.map(() => 500), 500);
    await publishOne('Down receiver');
    later(1);
    for (const delay of [...RETRY_DELAYS_S, 0]) {
      await app.webhooks.tick();
      later(delay);
    }
    admin = await createMember(app, { role: 'admin' });
    const [failed] = await deliveries(gone.id);
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: RETRY_DELAYS_S.length + 1,
      next_attempt_at: null,
    });
    const sentBefore = hook.got.length;
    later(86_400);
    await app.webhooks.tick();
    expect(hook.got).toHaveLength(sentBefore);
    admin = await createMember(app, { role: 'admin' });
    // Sent again by hand: delivered, and audited.
    const again = await post(
      app,
      `${ADMIN}/webhooks/${gone.id}/deliveries/${failed!.id}/redeliver/`,
      {},
      staff(),
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(WebhookDeliverySchema.parse(json(again))).toMatchObject({
      status: 'delivered',
      attempts: 1,
    });
    const trail = AuditEntryListSchema.parse(
      json(await get(app, `${ADMIN}/audit-log/?page_size=20`, staff())),
    ).results;
    expect(trail.map((e) => e.action)).toContain('webhook.redeliver');
    expect(JSON.stringify(trail)).not.toContain('whsec_');
    // Unknown ids: 404, nothing sent.
    const unknown = crypto.randomUUID();
    expect(
      (
        await post(
          app,
          `${ADMIN}/webhooks/${gone.id}/deliveries/${unknown}/redeliver/`,
          {},
          staff(),
        )
      ).statusCode,
    ).toBe(404);
    expect((await post(app, `${ADMIN}/webhooks/${unknown}/ping/`, {}, staff())).statusCode).toBe(
      404,
    );
  });

  it('refuses at the connection a name that now resolves to a private address, and never follows a redirect', async () => {
    // Saved while the name was public...
    names.set('rebind.example', '93.184.216.34');
    const res = await add({
      url: `http://rebind.example:${hook.port}/`,
      events: ['survey.published'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const rebound = CreatedWebhookSchema.parse(json(res));
    // ...then pointed at this machine (allowed here for 127.0.0.1 only: use another loopback).
    names.set('rebind.example', '127.0.0.9');
    const ping = WebhookDeliverySchema.parse(
      json(await post(app, `${ADMIN}/webhooks/${rebound.id}/ping/`, {}, staff())),
    );
    expect(ping).toMatchObject({
      status: 'pending',
      last_error: 'private address refused',
      last_status: null,
    });
    expect(hook.got).toHaveLength(0);

    const redirected = await made(hook.url, ['survey.published']);
    hook.plan.push(302);
    const sent: WebhookDelivery = WebhookDeliverySchema.parse(
      json(await post(app, `${ADMIN}/webhooks/${redirected.id}/ping/`, {}, staff())),
    );
    expect(sent).toMatchObject({ status: 'pending', last_status: 302, last_error: 'answered 302' });
    expect(hook.got).toHaveLength(1);

    // Deleted: its log goes with it and nothing more is sent.
    const del = await send(
      app,
      'DELETE',
      `${ADMIN}/webhooks/${redirected.id}/`,
      undefined,
      staff(),
    );
    expect(del.statusCode).toBe(204);
    expect(
      (await get(app, `${ADMIN}/webhooks/${redirected.id}/deliveries/`, staff())).statusCode,
    ).toBe(404);
    later(RETRY_DELAYS_S[0]!);
    await app.webhooks.tick();
    expect(hook.got).toHaveLength(1);
  });

  it('drops an outcome recorded after its lease ran out and another sender delivered it', async () => {
    const created = await made(hook.url, ['survey.published']);
    const repo = createWebhooksRepository(database.db);
    const [row] = rowsOf<{ id: number }>(
      await database.db.execute(sql`select id from webhooks where gid = ${created.id}`),
    );
    const [d] = await repo.enqueue(
      [{ webhookId: row!.id, eventKey: 'ping:lease', event: 'ping', payload: { type: 'ping' } }],
      now,
    );
    const slow = crypto.randomUUID();
    const quick = crypto.randomUUID();
    expect((await repo.claim(now, 1, 1000, slow)).map((c) => c.id)).toEqual([d!.id]);
    // Held: nobody else takes it...
    expect(await repo.claim(now, 1, 1000, quick)).toEqual([]);
    // ...until its lease runs out; another sender then delivers it.
    later(2);
    expect((await repo.claim(now, 1, 1000, quick)).map((c) => c.id)).toEqual([d!.id]);
    await repo.record(d!.id, quick, { ok: true, status: 200, error: null }, now, null);
    // The first sender's late "timed out" changes nothing.
    await repo.record(
      d!.id,
      slow,
      { ok: false, status: null, error: 'timed out' },
      now,
      new Date(now.getTime() + 10_000),
    );
    expect(await repo.delivery(d!.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatus: 200,
      lastError: null,
    });
  });

  it('sends each event once when several senders tick at once, and never names a survey before its release', async () => {
    await made(hook.url);
    const survey = await publishOne('Raced survey');
    later(1);
    await Promise.all([app.webhooks.tick(), app.webhooks.tick(), app.webhooks.tick()]);
    await app.webhooks.tick();
    const forIt = hook.got.filter((r) => r.body.includes(survey.gid));
    expect(forIt.map((r) => bodyOf(r).type)).toEqual(['survey.published']);

    // Published for next week, then closed by hand before that: nothing is said of it.
    later(1);
    const embargoed = await surveyWithQuestion(
      app,
      admin.token,
      surveyBody({
        name: 'Embargoed survey',
        release_date: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
      }),
      { publish: true },
    );
    later(1);
    expect(
      (await post(app, `${ADMIN}/surveys/${embargoed.gid}/close/`, {}, staff())).statusCode,
    ).toBe(200);
    later(1);
    await app.webhooks.tick();
    expect(hook.got.filter((r) => r.body.includes(embargoed.gid))).toEqual([]);
    expect(JSON.stringify(hook.got)).not.toContain('Embargoed survey');
  });
});

describe('the webhook sender', () => {
  it('refuses every non-global address, IPv6 forms included', () => {
    const allowed = createAddressGuard([]);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '::1',
      '::7f00:1',
      '::a9fe:a9fe',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '2001::1',
      'fe80::1',
      'fc00::1',
      'ff02::1',
      '::',
      'not an address',
    ]) {
      expect(allowed(address), address).toBe(false);
    }
    for (const address of ['93.184.216.34', '2606:4700:4700::1111', '::ffff:93.184.216.34']) {
      expect(allowed(address), address).toBe(true);
    }
    expect(createAddressGuard(['10.20.0.0/16'])('10.20.3.4')).toBe(true);
    expect(createAddressGuard(['10.20.0.0/16'])('10.21.3.4')).toBe(false);
  });

  it('ends an attempt at its deadline, a receiver that drips its answer a byte at a time included', async () => {
    const sockets = new Set<Socket>();
    const drip = http.createServer((req) => {
      req.resume();
      // The status line, one byte every 50 ms: never silent long enough for an idle timeout.
      const line = 'HTTP/1.1 200 OK\r\n'.repeat(100);
      let i = 0;
      const timer = setInterval(() => {
        if (req.socket.destroyed) {
          clearInterval(timer);
          return;
        }
        req.socket.write(line[i++ % line.length]!);
      }, 50);
    });
    drip.on('connection', (s) => sockets.add(s));
    await new Promise<void>((done) => drip.listen(0, '127.0.0.1', done));
    const port = (drip.address() as AddressInfo).port;
    const started = Date.now();
    const attempt = await sendOne(
      `http://127.0.0.1:${port}/`,
      {
        id: 'msg_1',
        body: '{}',
        secret: 'whsec_' + Buffer.alloc(24).toString('base64'),
        timestamp: 1,
      },
      createAddressGuard(['127.0.0.1/32']),
      undefined,
      400,
    );
    expect(attempt).toEqual({ ok: false, status: null, error: 'timed out' });
    expect(Date.now() - started).toBeLessThan(5000);
    for (const s of sockets) s.destroy();
    await new Promise<void>((done) => drip.close(() => done()));
  });
});
