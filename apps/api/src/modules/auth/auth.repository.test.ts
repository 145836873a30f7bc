import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { signupEvents } from '../../db/schema.js';
import { createTestDatabase, engines } from '../../test/database.js';
import { SIGNUP_EVENT_RETENTION_MS, createAuthRepository } from './auth.repository.js';

describe.each(engines)('auth repository on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(() => database.close());

  it('forgets signup events (IP hashes) older than a day, as the privacy page says', async () => {
    const repo = createAuthRepository(database.db);
    const now = new Date();
    const old = new Date(now.getTime() - SIGNUP_EVENT_RETENTION_MS - 60_000);
    await repo.insertSignupEvent('old-ip-hash', '+1202555', old);
    await repo.insertSignupEvent('recent-ip-hash', '+1202555', new Date(now.getTime() - 3_600_000));
    expect(await database.db.select().from(signupEvents)).toHaveLength(2);
    await repo.insertSignupEvent('new-ip-hash', '+1202555', now);
    const left = await database.db.select({ ipHash: signupEvents.ipHash }).from(signupEvents);
    expect(left.map((r) => r.ipHash).sort()).toEqual(['new-ip-hash', 'recent-ip-hash']);
  });
});
