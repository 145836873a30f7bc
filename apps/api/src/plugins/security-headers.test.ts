import fs from 'node:fs';
import path from 'node:path';
import { videoLinkProblem } from '@candor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/client.js';
import { seedSampleContent } from '../db/seed/seed.js';
import { createMember } from '../test/accounts.js';
import { createTestApp, tempDataDir } from '../test/app.js';
import { closeAll, createTestDatabase } from '../test/database.js';

/** The directives of a Content-Security-Policy header, by name. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

// Headers, not data: one engine is enough.
describe('security headers', () => {
  let database: Database;
  let app: App;
  let admin: { token: string };
  const web = tempDataDir();

  beforeAll(async () => {
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.mkdirSync(path.join(web, 'assets'));
    fs.writeFileSync(path.join(web, 'assets', 'app-1.js'), 'console.log(1)');
    database = await createTestDatabase('pglite');
    await seedSampleContent(database.db);
    app = await createTestApp(database, { webDistDir: web });
    admin = await createMember(app, { role: 'admin' });
  });

  afterAll(async () => {
    await closeAll(app, database);
    fs.rmSync(web, { recursive: true, force: true });
  });

  // Pages, files, API answers, API errors of every kind, images, unknown paths.
  const requests: Array<{ method: 'GET' | 'POST' | 'OPTIONS'; url: string; body?: string }> = [
    { method: 'GET', url: '/' },
    { method: 'GET', url: '/surveys/whatever' },
    { method: 'GET', url: '/assets/app-1.js' },
    { method: 'GET', url: '/no-such-file.png' },
    { method: 'GET', url: '/api/v1/surveys/open-closed-random-video-surveys' },
    { method: 'GET', url: '/api/v1/health/' },
    { method: 'GET', url: '/api/v1/user/detail/' },
    { method: 'GET', url: '/api/v1/admin/surveys/' },
    { method: 'GET', url: '/api/v1/no-such-route' },
    { method: 'GET', url: '/api/v1/surveys/%E0%A4%A/video-survey' },
    { method: 'POST', url: '/api/token/', body: '{not json' },
    {
      method: 'POST',
      url: '/api/token/',
      body: JSON.stringify({ phone_number: 'x', password: '' }),
    },
    { method: 'GET', url: '/uploads/nothing.webp' },
    { method: 'OPTIONS', url: '/api/token/' },
  ];

  it('sends a strict policy and the other security headers on every response', async () => {
    for (const r of requests) {
      const res = await app.inject({
        method: r.method,
        url: r.url,
        ...(r.body ? { payload: r.body, headers: { 'content-type': 'application/json' } } : {}),
      });
      const where = `${r.method} ${r.url} (${res.statusCode})`;
      const csp = directives(res.headers['content-security-policy'] ?? '');
      expect(csp.get('default-src'), where).toEqual(["'self'"]);
      expect(csp.get('script-src'), where).toBeDefined();
      expect(
        csp.get('script-src')!.some((v) => v.includes('unsafe')),
        where,
      ).toBe(false);
      expect(csp.get('object-src'), where).toEqual(["'none'"]);
      expect(csp.get('base-uri'), where).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), where).toEqual(["'none'"]);
      expect(res.headers['strict-transport-security'], where).toMatch(/max-age=\d{8,}/);
      expect(res.headers['x-content-type-options'], where).toBe('nosniff');
      expect(res.headers['referrer-policy'], where).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options'], where).toBe('DENY');
      expect(res.headers['permissions-policy'], where).toContain('camera=()');
      if (r.url.startsWith('/api/')) {
        expect(res.headers['cache-control'], where).toBe('no-store');
      }
    }
  });

  it("lets scripts come only from the site and YouTube's player API, connect only to the site, frame only the no-cookie YouTube and Vimeo players, and requires Trusted Types", async () => {
    for (const url of [
      '/',
      '/surveys/whatever',
      '/api/v1/surveys/open-closed-random-video-surveys',
    ]) {
      const csp = directives(
        String((await app.inject({ url })).headers['content-security-policy']),
      );
      expect(csp.get('script-src'), url).toEqual([
        "'self'",
        'https://www.youtube.com/iframe_api',
        'https://www.youtube.com/s/player/',
      ]);
      expect(csp.get('connect-src'), url).toEqual(["'self'"]);
      expect(csp.get('frame-src'), url).toEqual([
        'https://www.youtube-nocookie.com',
        'https://player.vimeo.com',
      ]);
      expect(csp.get('require-trusted-types-for'), url).toEqual(["'script'"]);
    }
    // The API docs (Swagger UI sets innerHTML) keep the policy, without Trusted Types only.
    const docs = await app.inject({ url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    const docsCsp = directives(String(docs.headers['content-security-policy']));
    expect(docsCsp.get('require-trusted-types-for')).toBeUndefined();
    expect(docsCsp.get('connect-src')).toEqual(["'self'"]);
    expect(docsCsp.get('frame-ancestors')).toEqual(["'none'"]);
    // Scripts may connect to this site only, so HLS streams (fetched by script) must be its own.
    expect(videoLinkProblem('https://cdn.example/live/stream.m3u8')).toMatch(/YouTube or Vimeo/);
    expect(videoLinkProblem('/sample/video/stream.m3u8')).toBeNull();
    expect(videoLinkProblem('https://cdn.example/clip.mp4')).toBeNull();
  });

  it('never grants another origin anything (no CORS), preflight or not', async () => {
    const origin = 'https://evil.example';
    const calls = [
      app.inject({
        method: 'GET',
        url: '/api/v1/user/detail/',
        headers: { origin, authorization: `Bearer ${admin.token}` },
      }),
      app.inject({
        method: 'GET',
        url: '/api/v1/surveys/open-closed-random-video-surveys',
        headers: { origin },
      }),
      app.inject({
        method: 'OPTIONS',
        url: '/api/v1/user/detail/',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      }),
    ];
    for (const res of await Promise.all(calls)) {
      for (const header of Object.keys(res.headers)) {
        expect(header.startsWith('access-control-'), `${header} on ${res.statusCode}`).toBe(false);
      }
    }
  });
});
