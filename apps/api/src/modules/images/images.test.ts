import fs from 'node:fs';
import path from 'node:path';
import { AuditEntryListSchema, UPLOAD_MAX_BYTES, UploadedImageSchema } from '@candor/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { createMember, get, json } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { images } from '../../db/schema.js';

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

describe.each(engines)('image uploads on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database);
    admin = await createMember(app, { role: 'admin' });
  });

  afterAll(async () => {
    await closeAll(app, database);
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

    const served = await app.inject({ method: 'GET', url: stored.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.rawPayload.length).toBe(stored.bytes);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1600, height: 800 });
    expect(meta.exif).toBeUndefined();

    // The same image twice is stored once, in the database (no file on this process's disk).
    expect(json(await upload(original, 'image/jpeg')).url).toBe(stored.url);
    const rows = await database.db.select().from(images);
    expect(rows.filter((r) => `/uploads/${r.name}` === stored.url)).toHaveLength(1);
    expect(
      rows.find((r) => `/uploads/${r.name}` === stored.url)!.data.equals(served.rawPayload),
    ).toBe(true);

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
    const before = (await database.db.select().from(images)).length;
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
    // Nothing half-stored.
    expect(await database.db.select().from(images)).toHaveLength(before);
  });

  it('refuses a body over the limit with the limit in the message', async () => {
    const res = await upload(Buffer.alloc(UPLOAD_MAX_BYTES + 1, 1), 'image/png');
    expect(res.statusCode).toBe(413);
    expect(json(res)).toEqual({
      detail: 'Images can be at most 5 MB.',
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('serves an image uploaded through one process from every other (another disk)', async () => {
    const other = await createTestApp(database);
    try {
      expect(other.config.dataDir).not.toBe(app.config.dataDir);
      const res = await upload(await photo(300, 200), 'image/jpeg');
      const { url } = UploadedImageSchema.parse(json(res));
      const served = await other.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
    } finally {
      await other.close();
    }
  });

  it('still serves an image uploaded before, from the uploads folder', async () => {
    const name = `${'ab'.repeat(16)}.webp`;
    const bytes = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#123456' },
    })
      .webp()
      .toBuffer();
    fs.mkdirSync(path.join(app.config.dataDir, 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(app.config.dataDir, 'uploads', name), bytes);
    const served = await app.inject({ method: 'GET', url: `/uploads/${name}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(bytes)).toBe(true);
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
