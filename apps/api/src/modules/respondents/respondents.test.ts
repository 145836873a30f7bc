import crypto from 'node:crypto';
import { inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { respondents, users } from '../../db/schema.js';
import { deriveProfileKey, derivePseudonymKey } from '../../lib/keys.js';
import { openProfile } from '../../lib/profile-seal.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { ageBandOf } from '@candor/contracts';
import { createRespondentIds } from './respondent-ids.js';
import { createRespondentsRepository } from './respondents.repository.js';

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

  it('creates the respondents of first answers arriving together, each from its own account', async () => {
    const secrets = testSecrets();
    const repo = createRespondentsRepository(database.db);
    const ids = createRespondentIds(repo, {
      pseudonymKey: derivePseudonymKey(secrets),
      profileKey: deriveProfileKey(secrets),
    });
    const genders = ['female', 'male', 'non_binary'] as const;
    const countries = ['US', 'GB', 'IN', 'NG', 'BR'];
    const made = await database.db
      .insert(users)
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          phoneE164: `+1202556${String(1000 + i)}`,
          country: countries[i % 5]!,
          status: i % 4 === 0 ? ('under_review' as const) : ('active' as const),
          phoneVerifiedAt: new Date(),
        })),
      )
      .returning({ uuid: users.uuid });
    // The class each device sends (gender and year of birth are not beside accounts); the
    // country is the account's when the device sends none.
    const now = new Date('2026-11-23T12:00:00Z');
    const profileOf = (i: number) =>
      i % 7 === 6
        ? undefined
        : {
            gender: genders[i % 3]!,
            age_band: ageBandOf(1950 + i, now),
            country: countries[(i + 1) % 5]!,
          };
    // Every member twice at once (two first answers in flight), all in one turn.
    const got = await Promise.all(
      [...made, ...made].map((u, j) => ids.getOrCreate(u.uuid, profileOf(j % 40))),
    );
    expect(got.slice(0, 40)).toEqual(got.slice(40));
    expect(new Set(got.slice(0, 40)).size).toBe(40);
    const rows = await database.db
      .select()
      .from(respondents)
      .where(inArray(respondents.id, got.slice(0, 40)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const key = deriveProfileKey(secrets);
    made.forEach((u, i) => {
      const row = byId.get(got[i]!)!;
      expect(row.pseudonym).toBe(ids.pseudonymOf(u.uuid));
      const sent = profileOf(i);
      expect(openProfile(key, row.profile)).toEqual(
        sent
          ? { gender: sent.gender, ageBand: sent.age_band, country: sent.country }
          : { gender: 'undisclosed', ageBand: 'undisclosed', country: countries[i % 5] },
      );
      expect(row.standing).toBe(i % 4 === 0 ? 'waiting' : 'counting');
    });
    // Found again by a process that never saw them (no cache), and an unknown account refused.
    const fresh = createRespondentIds(repo, {
      pseudonymKey: derivePseudonymKey(secrets),
      profileKey: deriveProfileKey(secrets),
    });
    expect(await Promise.all(made.map((u) => fresh.getOrCreate(u.uuid)))).toEqual(got.slice(0, 40));
    await expect(fresh.getOrCreate(crypto.randomUUID())).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });
});
