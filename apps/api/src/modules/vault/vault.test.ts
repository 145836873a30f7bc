import crypto from 'node:crypto';
import { VAULT_SIZES, type Vault } from '@candor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { vaults } from '../../db/schema.js';
import { freshPhone, get, json, send, signUp, createMember, post } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

const URL = '/api/v1/user/vault/';
/** A sealed vault as the browser sends it: random bytes (what ciphertext looks like), padded. */
const sealed = (bytes: number = VAULT_SIZES[0]) => crypto.randomBytes(bytes).toString('base64url');

describe.each(engines)('the member vault on %s', (engine) => {
  let database: Database;
  let app: App;
  const put = (token: string | undefined, body: unknown) =>
    send(app, 'PUT', URL, body, token ? { token } : {});

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(database, { resultsRefreshSeconds: 0 });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('keeps what the device sealed, for that member only, and versions each write', async () => {
    const me = await createMember(app);
    const other = await createMember(app);
    expect(json<Vault>(await get(app, URL, { token: me.token }))).toEqual({
      version: 0,
      blob: null,
    });
    const first = sealed();
    const wrote = await put(me.token, { version: 0, blob: first });
    expect(wrote.statusCode).toBe(200);
    expect(json<Vault>(wrote)).toEqual({ version: 1, blob: first });
    expect(json<Vault>(await get(app, URL, { token: me.token }))).toEqual({
      version: 1,
      blob: first,
    });
    expect(json<Vault>(await get(app, URL, { token: other.token }))).toEqual({
      version: 0,
      blob: null,
    });
    const bigger = sealed(VAULT_SIZES[2]);
    expect(json<Vault>(await put(me.token, { version: 1, blob: bigger })).version).toBe(2);
    expect(json<Vault>(await get(app, URL, { token: me.token })).blob).toBe(bigger);
  });

  it('takes one of two devices writing over the same version, and tells the other to merge', async () => {
    const me = await createMember(app);
    await put(me.token, { version: 0, blob: sealed() });
    const burst = await Promise.all(
      Array.from({ length: 10 }, () => put(me.token, { version: 1, blob: sealed() })),
    );
    expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const lost = burst.filter((r) => r.statusCode === 409);
    expect(lost).toHaveLength(9);
    expect(json(lost[0]!).detail).toMatch(/another device/);
    const kept = json<Vault>(burst.find((r) => r.statusCode === 200)!);
    expect(json<Vault>(await get(app, URL, { token: me.token }))).toEqual(kept);
    // Two first writes at once: one vault.
    const fresh = await createMember(app);
    const firsts = await Promise.all(
      Array.from({ length: 5 }, () => put(fresh.token, { version: 0, blob: sealed() })),
    );
    expect(firsts.filter((r) => r.statusCode === 200)).toHaveLength(1);
  });

  it('refuses visitors, lengths that would count answers, and malformed bodies', async () => {
    const me = await createMember(app);
    expect((await get(app, URL)).statusCode).toBe(401);
    expect((await put(undefined, { version: 0, blob: sealed() })).statusCode).toBe(401);
    for (const body of [
      { version: 0, blob: sealed(VAULT_SIZES[0] - 1) },
      { version: 0, blob: sealed(5000) },
      { version: 0, blob: 'not base64!' },
      { version: -1, blob: sealed() },
      { blob: sealed() },
      { version: 0, blob: sealed(), extra: 1 },
    ]) {
      const res = await put(me.token, body);
      expect(res.statusCode).toBe(400);
    }
    const tooBig = await put(me.token, { version: 0, blob: sealed(VAULT_SIZES.at(-1)! * 2) });
    expect([400, 413]).toContain(tooBig.statusCode);
    expect(await database.db.select().from(vaults)).not.toContainEqual(
      expect.objectContaining({ version: 1, blob: 'not base64!' }),
    );
  });

  it('goes with the account when the member erases it', async () => {
    const phone = freshPhone();
    const password = 'correct horse battery staple';
    const { access } = await signUp(app, phone, { password });
    const blob = sealed();
    await put(access, { version: 0, blob });
    expect((await database.db.select().from(vaults)).some((v) => v.blob === blob)).toBe(true);
    const erased = await post(app, '/api/v1/user/delete/', { password }, { token: access });
    expect(erased.statusCode).toBeLessThan(300);
    expect((await database.db.select().from(vaults)).some((v) => v.blob === blob)).toBe(false);
  });
});
