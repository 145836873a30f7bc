import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { otpChallenges, refreshTokens, signupEvents, users } from '../../db/schema.js';
import { createTestDatabase, engines } from '../../test/database.js';
import { tempDataDir } from '../../test/app.js';
import { SIGNUP_EVENT_RETENTION_MS, createAuthRepository } from './auth.repository.js';
import { createIdentities, fileIdentityKeys } from './identity.js';

describe.each(engines)('auth repository on %s', (engine) => {
  let database: Database;
  const identities = createIdentities(fileIdentityKeys(tempDataDir()), crypto.randomBytes(32));
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(() => database.close());

  it('forgets signup events (IP hashes) older than a day, as the privacy page says', async () => {
    const repo = createAuthRepository(database.db, identities);
    const now = new Date();
    const old = new Date(now.getTime() - SIGNUP_EVENT_RETENTION_MS - 60_000);
    await repo.insertSignupEvent('old-ip-hash', '+1202555', old);
    await repo.insertSignupEvent('recent-ip-hash', '+1202555', new Date(now.getTime() - 3_600_000));
    expect(await database.db.select().from(signupEvents)).toHaveLength(2);
    await repo.insertSignupEvent('new-ip-hash', '+1202555', now);
    const left = await database.db.select({ ipHash: signupEvents.ipHash }).from(signupEvents);
    expect(left.map((r) => r.ipHash).sort()).toEqual(['new-ip-hash', 'recent-ip-hash']);
  });

  it('clears expired decoys on every code issued, real or decoy: the same work for both', async () => {
    // Were they cleared on a decoy's request only, its time would tell a number nobody owns
    // from a registered one (found 2026-11-24: 45 ms against 3 ms with 300,000 old challenges).
    const repo = createAuthRepository(database.db, identities);
    const now = new Date();
    const expired = new Date(now.getTime() - 60_000);
    const later = new Date(now.getTime() + 600_000);
    const plant = (n: number, from: number) =>
      database.db.insert(otpChallenges).values(
        Array.from({ length: n }, (_, i) => ({
          phoneLookup: identities.lookup(`+1202666${String(from + i).padStart(4, '0')}`),
          purpose: 'reset' as const,
          codeHash: 'x',
          expiresAt: expired,
          decoy: true,
        })),
      );
    const decoys = async () =>
      (await database.db.select().from(otpChallenges)).filter((c) => c.decoy).length;
    for (const decoy of [false, true]) {
      await plant(200, decoy ? 1000 : 0);
      expect(await decoys()).toBe(200);
      await repo.issueCode(`+1202777000${decoy ? 1 : 0}`, 'reset', 'h', now, later, {
        decoy,
        requester: 'r',
      });
      // Only the one just issued is left, if it is a decoy (it has not expired).
      expect(await decoys()).toBe(decoy ? 1 : 0);
    }
  });

  it('answers session checks asked together, each as if asked alone', async () => {
    const repo = createAuthRepository(database.db, identities);
    const made = await database.db
      .insert(users)
      .values(
        (['active', 'under_review', 'suspended'] as const).map((status, i) => ({
          phoneLookup: identities.lookup(`+1202555${String(7000 + i)}`),
          yearOfBirth: 1990,
          gender: 'female' as const,
          country: 'US',
          status,
          role: i === 0 ? ('admin' as const) : ('member' as const),
        })),
      )
      .returning({ id: users.id, uuid: users.uuid });
    const [live, revoked, otherUsers, suspendeds] = [
      crypto.randomUUID(),
      crypto.randomUUID(),
      crypto.randomUUID(),
      crypto.randomUUID(),
    ];
    const expiresAt = new Date(Date.now() + 3_600_000);
    await database.db.insert(refreshTokens).values([
      { userId: made[0]!.id, familyId: live, tokenHash: `h-${live}`, expiresAt },
      {
        userId: made[0]!.id,
        familyId: revoked,
        tokenHash: `h-${revoked}`,
        expiresAt,
        revokedAt: new Date(),
      },
      { userId: made[1]!.id, familyId: otherUsers, tokenHash: `h-${otherUsers}`, expiresAt },
      { userId: made[2]!.id, familyId: suspendeds, tokenHash: `h-${suspendeds}`, expiresAt },
    ]);
    const asks: Array<[string, string]> = [
      [made[0]!.uuid, live],
      [made[0]!.uuid, live],
      [made[0]!.uuid, revoked],
      // Another member's session is not this member's.
      [made[0]!.uuid, otherUsers],
      [made[1]!.uuid, otherUsers],
      [made[2]!.uuid, suspendeds],
      [crypto.randomUUID(), live],
      [made[0]!.uuid, live],
    ];
    const expected = [
      { role: 'admin', status: 'active', live: true },
      { role: 'admin', status: 'active', live: true },
      { role: 'admin', status: 'active', live: false },
      { role: 'admin', status: 'active', live: false },
      { role: 'member', status: 'under_review', live: true },
      { role: 'member', status: 'suspended', live: true },
      undefined,
      { role: 'admin', status: 'active', live: true },
    ];
    // Together (one statement), and one at a time: the same answers.
    expect(await Promise.all(asks.map(([u, f]) => repo.sessionStanding(u, f)))).toEqual(expected);
    const alone = [];
    for (const [u, f] of asks) alone.push(await repo.sessionStanding(u, f));
    expect(alone).toEqual(expected);
  });
});
