import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { freshIp, freshPhone, post, signupBody } from '../../test/accounts.js';
import { createTestApp, tempDataDir, testSecrets } from '../../test/app.js';
import { closeAll, createTestDatabase } from '../../test/database.js';

const redisUrl = process.env.TEST_REDIS_URL;

// Two API processes behind a balancer share their limits through Redis (REDIS_URL).
describe.skipIf(!redisUrl)('rate limits shared through Redis', () => {
  let database: Database;
  let first: App;
  let second: App;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    const shared = {
      redisUrl,
      redisKeyPrefix: `candor-test:${crypto.randomUUID()}:`,
      dataDir: (dataDir = tempDataDir()),
    };
    const secrets = testSecrets();
    first = await createTestApp(database, shared, { secrets });
    second = await createTestApp(database, shared, { secrets });
  });
  afterAll(async () => {
    await closeAll(first, second, database);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Since decision 022 the texts count in the database (per number and client, and a spacing per
  // number), not in Redis; processes still share them. The 4th from a 4th address waits a
  // minute, not the hour it used to (when three requests from anyone blocked the owner).
  it('counts texts to a number across processes: the 4th waits a minute', async () => {
    const phone = freshPhone();
    const statuses = [];
    for (const app of [first, second, first, second]) {
      const res = await post(
        app,
        '/api/v1/user/forgot-password/',
        { phone_number: phone },
        {
          ip: freshIp(),
        },
      );
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(50);
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      }
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
  });

  it('counts login failures across processes', async () => {
    const phone = freshPhone();
    await post(first, '/api/v1/user/create/', signupBody(phone), { ip: freshIp() });
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const app = i % 2 ? second : first;
      const res = await post(
        app,
        '/api/token/',
        { phone_number: phone, password: 'wrong one' },
        {
          ip: freshIp(),
        },
      );
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });
});
