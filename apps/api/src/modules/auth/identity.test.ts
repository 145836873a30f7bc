/**
 * Crypto-shredding (issue 28): numbers and names sealed under a key of each account's own, kept
 * apart from the database, and destroyed with the account. The stores are attacked as a thief
 * with a copy would: a row copied before the erasure, every secret in hand, opens to nothing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { identityKeys, users } from '../../db/schema.js';
import { tempDataDir } from '../../test/app.js';
import { createTestDatabase, engines } from '../../test/database.js';
import { createAuthRepository } from './auth.repository.js';
import {
  SWEEP_AFTER_MS,
  createIdentities,
  databaseIdentityKeys,
  fileIdentityKeys,
  identitiesFor,
  phoneLookup,
} from './identity.js';

const lookupKey = crypto.randomBytes(32);

describe('identity keys in files', () => {
  it('writes each key once, 0600, into the folder and its mirror, and destroys it in both', async () => {
    const dir = path.join(tempDataDir(), 'keys');
    const mirror = path.join(tempDataDir(), 'mirror');
    const store = fileIdentityKeys(dir, mirror);
    const uuid = crypto.randomUUID();
    const key = await store.create(uuid);
    expect(key).toHaveLength(32);
    for (const d of [dir, mirror]) {
      expect(fs.readFileSync(path.join(d, uuid))).toEqual(key);
      expect(fs.statSync(path.join(d, uuid)).mode & 0o777).toBe(0o600);
      // No temporary file is left behind.
      expect(fs.readdirSync(d)).toEqual([uuid]);
    }
    expect((await store.get([uuid, uuid])).get(uuid)).toEqual(key);
    // The folder lost (a disk replaced): the mirror still opens the account.
    fs.rmSync(dir, { recursive: true });
    expect((await store.get([uuid])).get(uuid)).toEqual(key);
    await store.destroy([uuid]);
    expect(fs.existsSync(path.join(mirror, uuid))).toBe(false);
    expect(await store.get([uuid])).toEqual(new Map());
    // Destroying again, or a key never made, is no error.
    await store.destroy([uuid, crypto.randomUUID()]);
  });

  it('refuses a key name that is not an account uuid (no path leaves the folder)', async () => {
    const store = fileIdentityKeys(path.join(tempDataDir(), 'keys'));
    await expect(store.create('../../etc/passwd')).rejects.toThrow();
    expect(await store.get(['../secrets.json'])).toEqual(new Map());
  });

  it('offers for the sweep only keys older than a signup could be waiting on', async () => {
    const dir = path.join(tempDataDir(), 'keys');
    const store = fileIdentityKeys(dir);
    const [young, old] = [crypto.randomUUID(), crypto.randomUUID()];
    await store.create(young);
    await store.create(old);
    const then = (Date.now() - SWEEP_AFTER_MS - 60_000) / 1000;
    fs.utimesSync(path.join(dir, old), then, then);
    expect(await store.orphanCandidates()).toEqual([old]);
  });
});

describe('where a deployment keeps its keys', () => {
  const secrets = { pseudonymSecret: crypto.randomBytes(48).toString('base64url') };
  // Never queried here: only the choice of store is.
  const db = undefined as unknown as Database['db'];

  it('embedded: files in DATA_DIR, copied into BACKUP_DIR when Candor takes backups', async () => {
    const [dataDir, backupDir] = [tempDataDir(), tempDataDir()];
    const backup = { dir: backupDir, intervalHours: 24, keep: 7, archiveTimeoutSeconds: 900 };
    const config = { identityKeysDir: null, databaseUrl: undefined, dataDir, backup };
    const identities = identitiesFor(config, db, secrets);
    expect(identities.store.kind).toBe('files');
    const uuid = crypto.randomUUID();
    await identities.sealNew(uuid, '+447700900123', '');
    expect(fs.existsSync(path.join(dataDir, 'identity-keys', uuid))).toBe(true);
    expect(fs.existsSync(path.join(backupDir, 'identity-keys', uuid))).toBe(true);
    // The same secret gives the same lookups after a restart.
    expect(identitiesFor(config, db, secrets).lookup('+447700900123')).toBe(
      identities.lookup('+447700900123'),
    );
  });

  it('DATABASE_URL: the table, unless IDENTITY_KEYS_DIR names a shared folder', () => {
    const base = { dataDir: tempDataDir(), backup: null, databaseUrl: 'postgres://x/y' };
    expect(identitiesFor({ ...base, identityKeysDir: null }, db, secrets).store.kind).toBe(
      'database',
    );
    expect(identitiesFor({ ...base, identityKeysDir: tempDataDir() }, db, secrets).store.kind).toBe(
      'files',
    );
  });
});

describe('sealed identities', () => {
  const identities = createIdentities(
    fileIdentityKeys(path.join(tempDataDir(), 'keys')),
    lookupKey,
  );

  it('seals every number and name to one length, and opens them with the account key only', async () => {
    const names = fc.string({ unit: 'binary', maxLength: 60 });
    const lengths = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        names,
        fc.integer({ min: 1_000_000, max: 999_999_999_999 }),
        async (n, d) => {
          const uuid = crypto.randomUUID();
          const phone = `+${d}`;
          const sealed = await identities.sealNew(uuid, phone, n);
          lengths.add(sealed.identity.length);
          expect(sealed.identity).not.toContain(String(d));
          expect(sealed.phoneLookup).toBe(phoneLookup(lookupKey, phone));
          const [opened] = await identities.open([{ uuid, ...sealed }]);
          expect(opened).toMatchObject({ uuid, phoneE164: phone, name: n });
          // Another account's key does not open it.
          const other = crypto.randomUUID();
          await identities.sealNew(other, '+15555550100', '');
          const [wrong] = await identities.open([{ uuid: other, identity: sealed.identity }]);
          expect(wrong).toMatchObject({ phoneE164: '', name: '' });
        },
      ),
      { numRuns: 60 },
    );
    expect(lengths.size).toBe(1);
  });

  it('gives each number one lookup per server key, and a different one under another key', () => {
    const other = createIdentities(fileIdentityKeys(tempDataDir()), crypto.randomBytes(32));
    expect(identities.lookup('+447700900123')).toBe(identities.lookup('+447700900123'));
    expect(identities.lookup('+447700900123')).not.toBe(identities.lookup('+447700900124'));
    expect(other.lookup('+447700900123')).not.toBe(identities.lookup('+447700900123'));
  });
});

describe.each(engines)('identities in the database on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(() => database.close());

  it('keeps keys in identity_keys and deletes an erased account’s key in the erasure’s transaction', async () => {
    const identities = createIdentities(databaseIdentityKeys(database.db), lookupKey);
    const repo = createAuthRepository(database.db, identities);
    const user = await repo.insertUser({ phoneE164: '+15555550111', name: 'Ada', country: 'US' });
    expect(user).toMatchObject({ phoneE164: '+15555550111', name: 'Ada' });
    const [stored] = await database.db.select().from(users).where(eq(users.id, user!.id));
    const keys = await database.db
      .select()
      .from(identityKeys)
      .where(eq(identityKeys.userUuid, user!.uuid));
    expect(keys).toHaveLength(1);
    // A second signup of the same number loses, and leaves no key behind.
    expect(await repo.insertUser({ phoneE164: '+15555550111', country: 'US' })).toBeUndefined();
    expect(await database.db.select().from(identityKeys)).toHaveLength(1);
    // A name changed is sealed again, under the same key.
    expect(await repo.updateUser(user!.id, { name: 'Ada L.' })).toMatchObject({ name: 'Ada L.' });

    await repo.deleteUser(user!);
    expect(await database.db.select().from(identityKeys)).toHaveLength(0);
    // The row as a backup copied it opens to nothing.
    expect((await identities.open([stored!]))[0]).toMatchObject({ phoneE164: '', name: '' });
  });

  it('seals what an older build stored in the clear, once, and the account still logs in by number', async () => {
    const identities = createIdentities(
      fileIdentityKeys(path.join(tempDataDir(), 'keys')),
      lookupKey,
    );
    const repo = createAuthRepository(database.db, identities);
    const uuid = crypto.randomUUID();
    await database.db.execute(sql`
      insert into users (uuid, phone_e164, name, country, status)
      values (${uuid}, '+15555550122', 'Grace', 'US', 'active')`);
    expect(await repo.findUserByPhone('+15555550122')).toBeUndefined();

    expect(await identities.sealLegacy(database.db)).toBe(1);
    expect(await identities.sealLegacy(database.db)).toBe(0);
    const [row] = await database.db.select().from(users).where(eq(users.uuid, uuid));
    expect(row).toMatchObject({ legacyPhoneE164: null, legacyName: null });
    expect(JSON.stringify(row)).not.toContain('5555550122');
    expect(JSON.stringify(row)).not.toContain('Grace');
    expect(await repo.findUserByPhone('+15555550122')).toMatchObject({
      uuid,
      phoneE164: '+15555550122',
      name: 'Grace',
    });
  });

  it('seals a number again when its key is lost, at the next look-up by that number', async () => {
    for (const store of [
      fileIdentityKeys(path.join(tempDataDir(), 'keys')),
      databaseIdentityKeys(database.db),
    ]) {
      const identities = createIdentities(store, lookupKey);
      const repo = createAuthRepository(database.db, identities);
      const phone = store.kind === 'files' ? '+15555550144' : '+15555550155';
      const user = await repo.insertUser({ phoneE164: phone, name: 'Lin', country: 'US' });
      const [before] = await database.db.select().from(users).where(eq(users.id, user!.id));
      // The key folder deleted with no copy (or the table's row lost): the row opens to nothing.
      await store.destroy([user!.uuid]);
      expect(await repo.findUserById(user!.id)).toMatchObject({ phoneE164: '', name: '' });
      // Another number finds nothing and repairs nothing.
      expect(await repo.findUserByPhone('+15555550199')).toBeUndefined();

      // The member types their number (login, reset): it is this row's, so it is sealed again.
      expect(await repo.findUserByPhone(phone)).toMatchObject({
        uuid: user!.uuid,
        phoneE164: phone,
        name: '',
      });
      expect(await repo.findUserById(user!.id)).toMatchObject({ phoneE164: phone, name: '' });
      expect((await store.get([user!.uuid])).size).toBe(1);
      const [row] = await database.db.select().from(users).where(eq(users.id, user!.id));
      expect(row!.identity).toHaveLength(before!.identity!.length);
      expect(row!.identity).not.toBe(before!.identity);
      expect(row!.identity).not.toContain(phone.slice(1));
      await repo.deleteUser(user!);
    }
  });

  it('sweeps the key files of accounts that are gone, and keeps the others', async () => {
    const dir = path.join(tempDataDir(), 'keys');
    const identities = createIdentities(fileIdentityKeys(dir), lookupKey);
    const repo = createAuthRepository(database.db, identities);
    const kept = await repo.insertUser({ phoneE164: '+15555550133', country: 'US' });
    // An erasure that stopped between deleting the row and destroying the key.
    const orphan = crypto.randomUUID();
    await identities.store.create(orphan);
    const then = (Date.now() - SWEEP_AFTER_MS - 60_000) / 1000;
    for (const name of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, name), then, then);
    expect(await identities.sweep(database.db)).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([kept!.uuid]);
  });
});
