import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/client.js';
import { createTestApp, testSecrets } from '../test/app.js';
import { closeAll, createTestDatabase } from '../test/database.js';

const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);

// Several API processes on one PostgreSQL: the background work (folding, publishing,
// maintenance) runs on exactly one, and another takes it over when that one stops.
describe.skipIf(!hasPostgres)('one leader among API processes on postgres', () => {
  let database: Database;
  const apps: App[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const secrets = testSecrets();
    for (let i = 0; i < 3; i++) {
      apps.push(await createTestApp(database, { resultsRefreshSeconds: 1 }, { secrets }));
    }
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await closeAll(database);
  });

  const leaders = (list: App[]) => list.filter((a) => a.leading()).length;

  it('elects exactly one, and another takes over within seconds when it goes', async () => {
    await expect.poll(() => leaders(apps), { timeout: 10_000 }).toBe(1);
    // Hold for a while: nobody else takes it while the leader lives.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(leaders(apps)).toBe(1);

    const first = apps.find((a) => a.leading())!;
    await first.close();
    const rest = apps.filter((a) => a !== first);
    // Taken over at the next try (every 2 s): the poll gives it 10 s.
    await expect.poll(() => leaders(rest), { timeout: 10_000, interval: 100 }).toBe(1);
    apps.splice(apps.indexOf(first), 1);
  });
});
