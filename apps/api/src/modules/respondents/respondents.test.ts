import { like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { respondents } from '../../db/schema.js';
import { deriveProfileKey } from '../../lib/keys.js';
import { openProfile } from '../../lib/profile-seal.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

describe.each(engines)('respondent profiles on %s', (engine) => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });

  afterAll(async () => {
    await closeAll(database);
  });

  it('seals the plain profiles migration 0007 left, in the background, every one of them', async () => {
    // More than one batch of profiles as migration 0007 left them (plain text), with ids given
    // (2,500 random ones in one statement would collide about once in 700 runs).
    const count = 2_500;
    await database.db.execute(sql`
      insert into respondents (id, pseudonym, profile, standing)
      select g, 'old-' || g, 'plain:' || (array['female','male','non_binary'])[1 + g % 3] || '|' ||
             (array['18-24','25-34','65+'])[1 + g % 3] || '|' || (array['US','GB','NZ'])[1 + g % 3],
             'counting'
      from generate_series(1, ${count}) g`);
    const secrets = testSecrets();
    const app = await createTestApp(database, { resultsRefreshSeconds: 0 }, { secrets });
    try {
      // Serving does not wait for it; it is done soon after.
      await expect
        .poll(
          async () =>
            (
              await database.db
                .select({ id: respondents.id })
                .from(respondents)
                .where(like(respondents.profile, 'plain:%'))
            ).length,
          { timeout: 30_000, interval: 100 },
        )
        .toBe(0);
      const rows = await database.db.select().from(respondents);
      expect(rows).toHaveLength(count);
      const key = deriveProfileKey(secrets);
      for (const r of rows) {
        const g = Number(r.pseudonym.slice(4)) % 3;
        expect(openProfile(key, r.profile)).toEqual({
          gender: ['female', 'male', 'non_binary'][g],
          ageBand: ['18-24', '25-34', '65+'][g],
          country: ['US', 'GB', 'NZ'][g],
        });
      }
      expect(new Set(rows.map((r) => r.profile)).size).toBe(count);
    } finally {
      await app.close();
    }
  });
});
