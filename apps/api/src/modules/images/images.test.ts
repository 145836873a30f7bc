import fs from 'node:fs';
import path from 'node:path';
import { AuditEntryListSchema, UPLOAD_MAX_BYTES, UploadedImageSchema } from '@candor/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { createMember, get, json } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { createTestDatabase } from '../../test/database.js';

const URL = '/api/v1/admin/uploads/';

/** A real photo-like JPEG with camera and place metadata (what must not be published). */
async function photo(width = 2400, height = 1200): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } },
  })
    .jpeg()
    .withExif({ IFD0: { Make: 'CandorCam', Model: 'Secret 1', Artist: 'Jane Roe' } })
    .toBuffer();
}

// Files and bytes, not data: one engine is enough.
describe('image uploads', () => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    app = await createTestApp(database);
    admin = await createMember(app, { role: 'admin' });
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const upload = (body: Buffer | string, type: string, token = admin.token) =>
    app.inject({
      method: 'POST',
      url: URL,
      payload: body,
      headers: { 'content-type': type, authorization: `Bearer ${token}` },
    });

  it('stores a real image as WebP at most 1600 px a side, without its metadata, and serves it', async () => {
    const original = await photo();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await upload(original, 'image/jpeg');
    expect(res.statusCode, res.body).toBe(201);
    const stored = UploadedImageSchema.parse(json(res));
    expect(stored).toMatchObject({ width: 1600, height: 800 });
    expect(stored.url).toMatch(/^\/uploads\/[0-9a-f]{32}\.webp$/);

    const file = path.join(app.config.dataDir, stored.url);
    expect(fs.statSync(file).size).toBe(stored.bytes);
    const meta = await sharp(fs.readFileSync(file)).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1600, height: 800 });
    expect(meta.exif).toBeUndefined();

    const served = await app.inject({ method: 'GET', url: stored.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.rawPayload.equals(fs.readFileSync(file))).toBe(true);

    // The same image twice is one file.
    expect(json(await upload(original, 'image/jpeg')).url).toBe(stored.url);

    const log = AuditEntryListSchema.parse(
      json(await get(app, '/api/v1/admin/audit-log/', { token: admin.token })),
    );
    expect(log.results[0]).toMatchObject({
      action: 'image.upload',
      target: `image:${stored.url.slice('/uploads/'.length)}`,
    });
  });

  it('takes PNG, WebP and GIF too', async () => {
    const base = sharp({ create: { width: 40, height: 30, channels: 4, background: '#0a0' } });
    for (const [type, bytes] of [
      ['image/png', await base.clone().png().toBuffer()],
      ['image/webp', await base.clone().webp().toBuffer()],
      ['image/gif', await base.clone().gif().toBuffer()],
    ] as const) {
      const res = await upload(bytes, type);
      expect(res.statusCode, type).toBe(201);
      expect(json(res)).toMatchObject({ width: 40, height: 30 });
    }
  });

  it('refuses what is not an image it can read, with a message about images', async () => {
    const text = await upload('hello', 'text/plain');
    expect(text.statusCode).toBe(415);
    expect(json(text)).toEqual({
      detail: 'Upload a JPEG, PNG, WebP or GIF image.',
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    const jsonBody = await upload('{"a":1}', 'application/json');
    expect(jsonBody.statusCode).toBe(415);

    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    for (const [body, type] of [
      [Buffer.from('not really a png'), 'image/png'],
      [Buffer.from(svg), 'image/png'],
      [(await photo(64, 64)).subarray(0, 200), 'image/jpeg'],
      [Buffer.alloc(0), 'image/png'],
    ] as const) {
      const res = await upload(body, type);
      expect(res.statusCode, body.subarray(0, 20).toString()).toBe(400);
      expect(json<Record<string, string[]>>(res).non_field_errors?.[0]).toMatch(
        /not an image we can read|empty/,
      );
    }
    expect(
      fs.readdirSync(path.join(app.config.dataDir, 'uploads')).filter((f) => f.startsWith('.')),
    ).toEqual([]);
  });

  it('refuses a body over the limit with the limit in the message', async () => {
    const res = await upload(Buffer.alloc(UPLOAD_MAX_BYTES + 1, 1), 'image/png');
    expect(res.statusCode).toBe(413);
    expect(json(res)).toEqual({
      detail: 'Images can be at most 5 MB.',
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('refuses uploads to everyone but admins', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const moderator = await createMember(app, { role: 'moderator' });
    expect((await upload(png, 'image/png', moderator.token)).statusCode).toBe(403);
    const visitor = await app.inject({
      method: 'POST',
      url: URL,
      payload: png,
      headers: { 'content-type': 'image/png' },
    });
    expect(visitor.statusCode).toBe(401);
  });

  it('serves nothing outside the uploads folder', async () => {
    fs.writeFileSync(path.join(app.config.dataDir, 'private.txt'), 'TOP-SECRET-CONTENT');
    fs.writeFileSync(path.join(app.config.dataDir, 'uploads', '.half.webp.tmp'), 'PARTIAL');
    for (const url of [
      '/uploads/../private.txt',
      '/uploads/%2e%2e/private.txt',
      '/uploads/..%2fprivate.txt',
      '/uploads/.half.webp.tmp',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.body, url).not.toMatch(/TOP-SECRET|PARTIAL/);
    }
  });
});
