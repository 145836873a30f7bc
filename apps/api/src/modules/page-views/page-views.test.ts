import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PageViewStatsSchema } from '@candor/contracts';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { pageViews } from '../../db/schema.js';
import { createMember, freshIp, get, json, post } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { PAGE_VIEWS_PER_IP_PER_MINUTE } from './page-views.service.js';

const PAGE_VIEWS = '/api/v1/page-views/';

describe.each(engines)('page views on %s', (engine) => {
  let database: Database;
  let app: App;
  const now = new Date('2026-11-22T23:59:30Z');

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database, {}, { clock: () => now });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  const views = () => database.db.select().from(pageViews);

  it('stores the route pattern, the day and the lowercased referring host: 204', async () => {
    const res = await post(
      app,
      PAGE_VIEWS,
      { path: '/surveys/:surveyId', referrer_host: 'News.Example.COM' },
      { ip: '198.51.100.7' },
    );
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await views()).toEqual([
      {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers as any
        id: expect.any(Number),
        path: '/surveys/:surveyId',
        day: '2026-11-22',
        referrerHost: 'news.example.com',
      },
    ]);
    // No column could hold an IP, a user or a time.
    const columns = (await database.db.execute(
      sql`select column_name from information_schema.columns where table_name = 'page_views'`,
    )) as { rows: Array<{ column_name: string }> };
    expect(columns.rows.map((c) => c.column_name).sort()).toEqual([
      'day',
      'id',
      'path',
      'referrer_host',
    ]);
    const stored = JSON.stringify(await views());
    expect(stored).not.toContain('198.51.100.7');
  });

  it('needs no login and ignores an Authorization header, even a bad one', async () => {
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer not-a-token' },
      { authorization: 'junk' },
    ];
    for (const headers of variants) {
      const res = await post(app, PAGE_VIEWS, { path: '/' }, { ip: freshIp(), headers });
      expect(res.statusCode).toBe(204);
    }
  });

  it('keeps a referrer only when it is a plain host, and null when there is none', async () => {
    await database.db.delete(pageViews);
    for (const referrer_host of [null, undefined, 'https://evil.example/?q=me', '']) {
      const body = referrer_host === undefined ? { path: '/me' } : { path: '/me', referrer_host };
      expect((await post(app, PAGE_VIEWS, body, { ip: freshIp() })).statusCode).toBe(204);
    }
    expect((await views()).map((v) => v.referrerHost)).toEqual([null, null, null, null]);
  });

  it('refuses anything but a route pattern', async () => {
    for (const body of [
      { path: '/surveys/abc?phone=+15550100' },
      { path: 'surveys' },
      { path: '/x', extra: true },
      {},
    ]) {
      const res = await post(app, PAGE_VIEWS, body, { ip: freshIp() });
      expect(res.statusCode).toBe(400);
    }
    const res = await post(app, PAGE_VIEWS, { path: '/a b' }, { ip: freshIp() });
    expect(json(res)).toEqual({ path: ['Send the route pattern.'] });
  });

  it('limits page views per client IP', async () => {
    const ip = freshIp();
    for (let i = 0; i < PAGE_VIEWS_PER_IP_PER_MINUTE; i++) {
      expect((await post(app, PAGE_VIEWS, { path: '/' }, { ip })).statusCode).toBe(204);
    }
    const limited = await post(app, PAGE_VIEWS, { path: '/' }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await post(app, PAGE_VIEWS, { path: '/' }, { ip: freshIp() })).statusCode).toBe(204);
  });

  it('stores nothing with ANALYTICS=off', async () => {
    const off = await createTestApp(database, { analytics: false });
    try {
      await database.db.delete(pageViews);
      const res = await post(off, PAGE_VIEWS, { path: '/' }, { ip: freshIp() });
      expect(res.statusCode).toBe(204);
      expect(await views()).toHaveLength(0);
    } finally {
      await off.close();
    }
  });

  it("drops views of the staff area, whoever sends them: staff's own work is not traffic", async () => {
    await database.db.delete(pageViews);
    for (const path of ['/admin', '/admin/surveys/:gid', '/admin/users']) {
      const res = await post(app, PAGE_VIEWS, { path, referrer_host: null }, { ip: freshIp() });
      expect(res.statusCode, path).toBe(204);
    }
    // A public page that only starts like it is counted.
    const res = await post(
      app,
      PAGE_VIEWS,
      { path: '/administer', referrer_host: null },
      { ip: freshIp() },
    );
    expect(res.statusCode).toBe(204);
    expect((await views()).map((v) => v.path)).toEqual(['/administer']);
  });

  it('shows admins views per day (every day of the period), page and referring site', async () => {
    await database.db.delete(pageViews);
    await database.db.insert(pageViews).values([
      { path: '/', day: '2026-11-22', referrerHost: 'news.example.com' },
      { path: '/', day: '2026-11-22', referrerHost: null },
      { path: '/surveys/:surveyId', day: '2026-11-22', referrerHost: null },
      { path: '/surveys/:surveyId', day: '2026-11-20', referrerHost: 'news.example.com' },
      { path: '/surveys/:surveyId', day: '2026-11-20', referrerHost: null },
      { path: '/privacy', day: '2026-11-01', referrerHost: null }, // outside 7 days
      // Stored before staff views were dropped: left out of every figure.
      { path: '/admin', day: '2026-11-22', referrerHost: null },
      { path: '/admin/surveys/:gid', day: '2026-11-22', referrerHost: 'news.example.com' },
    ]);
    const admin = await createMember(app, { role: 'admin' });
    const res = await get(app, '/api/v1/admin/page-views/?days=7', { token: admin.token });
    expect(res.statusCode).toBe(200);
    const stats = PageViewStatsSchema.parse(json(res));
    expect(stats.days).toHaveLength(7);
    expect(stats.days[0]).toEqual({ day: '2026-11-16', views: 0 });
    expect(stats.days.find((d) => d.day === '2026-11-20')).toEqual({ day: '2026-11-20', views: 2 });
    expect(stats.days.at(-1)).toEqual({ day: '2026-11-22', views: 3 });
    expect(stats.total).toBe(5);
    expect(stats.paths).toEqual([
      { path: '/surveys/:surveyId', views: 3 },
      { path: '/', views: 2 },
    ]);
    expect(stats.referrers).toEqual([{ host: 'news.example.com', views: 2 }]);
    const bad = await get(app, '/api/v1/admin/page-views/?days=999', { token: admin.token });
    expect(json(bad)).toEqual({ days: ['Choose 1 to 365 days.'] });
    const member = await createMember(app);
    expect((await get(app, '/api/v1/admin/page-views/', { token: member.token })).statusCode).toBe(
      403,
    );
    expect((await get(app, '/api/v1/admin/page-views/')).statusCode).toBe(401);
  });
});
