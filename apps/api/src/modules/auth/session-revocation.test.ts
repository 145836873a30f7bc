import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { listenerName } from '../../db/connections.js';
import { users } from '../../db/schema.js';
import {
  createMember,
  freshPhone,
  get,
  json,
  post,
  signUp,
  type Call,
} from '../../test/accounts.js';
import { staffLogin } from '../../test/second-factor.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { SESSION_CHANNEL } from './session-changes.js';

// Access tokens must not outlive a logout, a suspension or a demotion (found 2026-11-23: they
// did, by up to ACCESS_TOKEN_TTL = 10 minutes). Two API processes share one database: the
// change is made through one, and the very next request to either must be refused.

const PASSWORD = 'correct horse battery staple';
const MINE = '/api/v1/questions/my-attempted-questions/';
const ADMIN_USERS = '/api/v1/admin/users/';
const UNAUTHENTICATED = { detail: expect.any(String) as unknown, code: 'UNAUTHENTICATED' };

describe.each(engines)('access tokens end with their session on %s', (engine) => {
  let database: Database;
  let one: App;
  let other: App;
  let admin: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    const secrets = testSecrets();
    one = await createTestApp(database, {}, { secrets });
    other = await createTestApp(database, {}, { secrets });
    admin = (await createMember(one, { role: 'admin' })).token;
  });
  afterAll(async () => {
    await closeAll(one, other, database);
  });

  /**
   * The status of the next request to `target`. Through the process that made the change it
   * must be refused at once; another process hears of it by NOTIFY after the commit, so it is
   * asked until it refuses (without the fix it never does, for 10 minutes).
   */
  async function nextStatus(target: App, url: string, call: Call): Promise<number> {
    if (target === one) return (await get(target, url, call)).statusCode;
    let status = 0;
    await vi.waitFor(
      async () => {
        status = (await get(target, url, call)).statusCode;
        expect(status).not.toBe(200);
      },
      { timeout: 5000, interval: 10 },
    );
    return status;
  }

  const targets = () =>
    [
      ['the same process', one],
      ['another process', other],
    ] as const;

  it.each([0, 1])('refuses a suspended member’s next request (process %i)', async (which) => {
    const target = targets()[which]![1];
    const phone = freshPhone();
    const { access } = await signUp(one, phone, { password: PASSWORD });
    const [row] = await database.db
      .select()
      .from(users)
      .where(eq(users.phoneLookup, one.identities.lookup(phone)));
    // Used (and so cached) on the target first.
    expect((await get(target, MINE, { token: access })).statusCode).toBe(200);
    const suspended = await post(one, `${ADMIN_USERS}${row!.uuid}/suspend/`, {}, { token: admin });
    expect(suspended.statusCode).toBe(200);
    expect(await nextStatus(target, MINE, { token: access })).toBe(401);
    expect(json(await get(target, MINE, { token: access }))).toEqual(UNAUTHENTICATED);
  });

  it.each([0, 1])(
    'refuses an access token once its session logged out (process %i)',
    async (which) => {
      const target = targets()[which]![1];
      const { access, refresh } = await signUp(one, freshPhone(), { password: PASSWORD });
      // Another session of the same member stays good.
      const second = await post(one, '/api/token/', {
        phone_number: (await memberPhone(access))!,
        password: PASSWORD,
      });
      const otherSession = json<{ access: string }>(second).access;
      expect((await get(target, MINE, { token: access })).statusCode).toBe(200);
      expect((await post(one, '/api/v1/user/logout/', { refresh })).statusCode).toBe(204);
      expect(await nextStatus(target, MINE, { token: access })).toBe(401);
      expect((await get(target, MINE, { token: otherSession })).statusCode).toBe(200);
    },
  );

  it.each([0, 1])('refuses a demoted admin’s next admin request (process %i)', async (which) => {
    const target = targets()[which]![1];
    const phone = freshPhone();
    await signUp(one, phone, { password: PASSWORD });
    await database.db
      .update(users)
      .set({ role: 'admin' })
      .where(eq(users.phoneLookup, one.identities.lookup(phone)));
    // Password, then the TOTP second factor enrolled at this first staff login (decision 024).
    const { access } = await staffLogin(one, { phone, password: PASSWORD });
    const [row] = await database.db
      .select()
      .from(users)
      .where(eq(users.phoneLookup, one.identities.lookup(phone)));
    expect((await get(target, ADMIN_USERS, { token: access })).statusCode).toBe(200);
    const demoted = await post(
      one,
      `${ADMIN_USERS}${row!.uuid}/role/`,
      { role: 'member' },
      { token: admin },
    );
    expect(demoted.statusCode).toBe(200);
    expect(await nextStatus(target, ADMIN_USERS, { token: access })).toBe(401);
    // The acting admin is untouched.
    expect((await get(target, ADMIN_USERS, { token: admin })).statusCode).toBe(200);
  });

  it('refuses a deleted account’s token on every process', async () => {
    const { access } = await signUp(one, freshPhone(), { password: PASSWORD });
    expect((await get(other, MINE, { token: access })).statusCode).toBe(200);
    const erased = await post(
      one,
      '/api/v1/user/delete/',
      { password: PASSWORD },
      { token: access },
    );
    expect(erased.statusCode).toBe(204);
    expect((await get(one, MINE, { token: access })).statusCode).toBe(401);
    expect(await nextStatus(other, MINE, { token: access })).toBe(401);
  });

  it.runIf(engine === 'postgres')(
    'listens again after its notification connection is cut, and hears changes again',
    async () => {
      const listeners = async () => {
        const result = (await database.db.execute(
          sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and application_name = ${listenerName(SESSION_CHANNEL)}`,
        )) as { rows: Array<{ n: number }> };
        return result.rows[0]!.n;
      };
      expect(await listeners()).toBe(2);
      // Every listening connection of the database is cut (a failover, a proxy restart).
      await database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and application_name like 'candor listen %'`,
      );
      await vi.waitFor(async () => expect(await listeners()).toBe(0), { timeout: 5000 });
      await vi.waitFor(async () => expect(await listeners()).toBe(2), { timeout: 10_000 });
      const phone = freshPhone();
      const { access } = await signUp(one, phone, { password: PASSWORD });
      const [row] = await database.db
        .select()
        .from(users)
        .where(eq(users.phoneLookup, one.identities.lookup(phone)));
      expect((await get(other, MINE, { token: access })).statusCode).toBe(200);
      await post(one, `${ADMIN_USERS}${row!.uuid}/suspend/`, {}, { token: admin });
      expect(await nextStatus(other, MINE, { token: access })).toBe(401);
    },
  );

  async function memberPhone(access: string): Promise<string | undefined> {
    const me = await get(one, '/api/v1/user/detail/', { token: access });
    return json<{ phone_number?: string }>(me).phone_number;
  }
});
