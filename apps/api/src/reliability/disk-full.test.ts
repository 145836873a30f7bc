import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/client.js';
import { get, json } from '../test/accounts.js';
import { createTestApp, tempDataDir } from '../test/app.js';
import { closeAll, createTestDatabase } from '../test/database.js';

const MB = 1_048_576;
const freeMb = async (dir: string) => {
  const disk = await fs.promises.statfs(dir);
  return Math.floor((disk.bavail * disk.bsize) / MB);
};

// Issue 34: "/api/health says 200 while the disk is full". The data directory's disk is filled
// for real (a file written into it), past a minimum set 200 MB under what is free now.
describe('health while the data disk fills up', () => {
  let database: Database;
  let app: App;
  let dataDir: string;
  const ballast = () => path.join(dataDir, 'ballast.bin');

  beforeAll(async () => {
    dataDir = tempDataDir();
    database = await createTestDatabase('pglite');
    app = await createTestApp(database, {
      dataDir,
      minFreeDiskMb: Math.max(1, (await freeMb(dataDir)) - 200),
    });
  });
  afterAll(async () => {
    await closeAll(app, database);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('says 503 on /health and /health/ready once the disk is past its minimum, and 200 again once freed', async () => {
    for (const url of ['/api/health', '/api/health/ready', '/api/health/live']) {
      expect((await get(app, url)).statusCode, url).toBe(200);
    }
    // 400 MB written: the disk now has less free than the minimum.
    const chunk = Buffer.alloc(8 * MB, 1);
    const fd = fs.openSync(ballast(), 'w');
    try {
      for (let i = 0; i < 50; i++) fs.writeSync(fd, chunk);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    for (const url of ['/api/health', '/api/health/ready']) {
      const res = await get(app, url);
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(json(res).detail).toMatch(/^Not healthy: the data disk is nearly full \(\d+ MB free/);
    }
    // Liveness asks nothing: restarting the process would not free the disk.
    expect((await get(app, '/api/health/live')).statusCode).toBe(200);
    fs.rmSync(ballast());
    expect((await get(app, '/api/health')).statusCode).toBe(200);
  });
});
