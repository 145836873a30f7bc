import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { identityKeys, users } from '../../db/schema.js';
import { derivePhoneLookupKey, hmacHex } from '../../lib/keys.js';
import type { Secrets } from '../../lib/secrets.js';
import { isUuid } from '../../lib/uuid.js';
import { bucketOf, openJson, sealJson } from '../../lib/profile-seal.js';

/**
 * Crypto-shredding (issue 28, docs/privacy.md "Crypto-shredding"): what names a person (their
 * number and name) is stored sealed under a random key of their own, and erasure destroys the
 * key. A copy of `users` taken before the erasure (a backup, the archived write-ahead log, a
 * dead row, free space) then holds ciphertext nobody can open, the operator with every secret
 * included, as long as the key itself was not in that copy: so the keys are kept apart from the
 * database wherever Candor can (files, below), and in one small table of their own otherwise.
 */
export interface IdentityKeyStore {
  readonly kind: 'files' | 'database';
  /** A new random key for the account `uuid`, stored durably before it is returned. */
  create(uuid: string): Promise<Buffer>;
  /** The keys of these accounts that exist (a destroyed or lost key is simply absent). */
  get(uuids: readonly string[]): Promise<Map<string, Buffer>>;
  /** Destroys these accounts' keys, durably, before it returns. */
  destroy(uuids: readonly string[]): Promise<void>;
  /**
   * Accounts whose key may have outlived them, for the sweep: files older than a few minutes (a
   * signup writes its key just before its row). The database store has none: its keys are
   * deleted in the erasure's own transaction (auth.repository.ts deleteUser).
   */
  orphanCandidates(): Promise<string[]>;
}

const KEY_BYTES = 32;
/** A key file younger than this is never swept: its signup may not have written its row yet. */
export const SWEEP_AFTER_MS = 10 * 60_000;

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeKeyFile(dir: string, uuid: string, key: Buffer): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${uuid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(key);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, path.join(dir, uuid));
  await syncDir(dir);
}

async function unlinkKeyFiles(dir: string, uuids: readonly string[]): Promise<void> {
  let removed = false;
  for (const uuid of uuids) {
    try {
      await fs.unlink(path.join(dir, uuid));
      removed = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  if (removed) await syncDir(dir);
}

/**
 * Keys as files, one per account (`<dir>/<uuid>`, 32 bytes, mode 0600): outside the database,
 * so never in its write-ahead log, its archive or its base backups, and several processes on
 * one machine share them without coordination (each file is written once, by rename, and
 * deleted once). `mirror` (BACKUP_DIR/identity-keys with the embedded database's backups) gets
 * the same writes and deletions: it is a copy of the current keys only, never of a past state,
 * so restoring an old base backup brings back an erased account's sealed row but not its key.
 * A deleted file's blocks stay on the disk until reused, as with every deleted file: encrypt the
 * disk (docs/privacy.md).
 */
export function fileIdentityKeys(dir: string, mirror?: string): IdentityKeyStore {
  const dirs = mirror ? [dir, mirror] : [dir];
  return {
    kind: 'files',
    async create(uuid) {
      if (!isUuid(uuid)) throw new Error('an identity key is named by an account uuid');
      const key = crypto.randomBytes(KEY_BYTES);
      for (const d of dirs) await writeKeyFile(d, uuid, key);
      return key;
    },
    async get(uuids) {
      const found = new Map<string, Buffer>();
      await Promise.all(
        [...new Set(uuids)].map(async (uuid) => {
          if (!isUuid(uuid)) return;
          for (const d of dirs) {
            try {
              const key = await fs.readFile(path.join(d, uuid));
              if (key.length === KEY_BYTES) {
                found.set(uuid, key);
                return;
              }
            } catch (err) {
              if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
            }
          }
        }),
      );
      return found;
    },
    async destroy(uuids) {
      for (const d of dirs) await unlinkKeyFiles(d, uuids);
    },
    async orphanCandidates() {
      const names = new Set<string>();
      const before = Date.now() - SWEEP_AFTER_MS;
      for (const d of dirs) {
        let entries: string[] = [];
        try {
          entries = await fs.readdir(d);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
        for (const name of entries) {
          if (!isUuid(name)) continue;
          const stat = await fs.stat(path.join(d, name)).catch(() => undefined);
          if (stat && stat.mtimeMs < before) names.add(name);
        }
      }
      return [...names];
    },
  };
}

/**
 * Keys in the table `identity_keys` of the same database (the default with DATABASE_URL, where
 * Candor's processes may run on several machines and share nothing else). Then a backup or the
 * write-ahead log holds the key beside the sealed row, and crypto-shredding removes no more from
 * them than deleting the row would; what it adds is that the erased row's leftovers in `users`
 * (dead versions, free space, which only a lock-taking rewrite of that table would clear) are
 * unreadable once this small table is rewritten (db/erasure-vacuum.ts). Point
 * IDENTITY_KEYS_DIR at a folder every process shares to keep them out of the database instead.
 */
export function databaseIdentityKeys(db: Db): IdentityKeyStore {
  return {
    kind: 'database',
    async create(uuid) {
      const key = crypto.randomBytes(KEY_BYTES);
      // A key made again for an account whose key was lost replaces whatever a concurrent
      // repair stored, as a file's rename does: the row then opens at its next repair.
      await db
        .insert(identityKeys)
        .values({ userUuid: uuid, key: key.toString('base64url') })
        .onConflictDoUpdate({
          target: identityKeys.userUuid,
          set: { key: key.toString('base64url') },
        });
      return key;
    },
    async get(uuids) {
      if (!uuids.length) return new Map();
      const rows = await db
        .select()
        .from(identityKeys)
        .where(inArray(identityKeys.userUuid, [...new Set(uuids)]));
      return new Map(rows.map((r) => [r.userUuid, Buffer.from(r.key, 'base64url')]));
    },
    async destroy(uuids) {
      if (!uuids.length) return;
      await db.delete(identityKeys).where(inArray(identityKeys.userUuid, [...uuids]));
    },
    async orphanCandidates() {
      return [];
    },
  };
}

/** The lookup HMAC of an E.164 number (`users.phone_lookup`, `otp_challenges.phone_lookup`). */
export function phoneLookup(lookupKey: Buffer, e164: string): string {
  return hmacHex(lookupKey, `phone\n${e164}`);
}

/** What `identity` holds, sealed: the number and the name. */
interface SealedIdentity {
  p: string;
  n: string;
}

/**
 * Every sealed identity's plaintext is padded to this many bytes (a name is at most 60
 * characters, so even fully escaped JSON fits), so a row's length says nothing of its name.
 */
export const IDENTITY_BYTES = 512;
const identityLength = (bytes: number) =>
  bytes <= IDENTITY_BYTES ? IDENTITY_BYTES : bucketOf(bytes);

/** A stored users row with its number and name opened ('' where the key is gone). */
export type Opened<T> = Omit<T, 'identity' | 'legacyPhoneE164' | 'legacyName'> & {
  phoneE164: string;
  name: string;
};

export type Identities = ReturnType<typeof createIdentities>;

/**
 * Seals and opens accounts' numbers and names with their own keys, and gives the lookup HMAC
 * that finds an account from a number typed (`lookupKey`, from PSEUDONYM_SECRET: rotating
 * JWT_SECRET must not lose every account). With the server key, a number's lookup is found by
 * trying every number (about 10^10): the lookup says which number an account has to whoever
 * holds the secrets and a copy, until the row is deleted; it never opens a name.
 */
export function createIdentities(store: IdentityKeyStore, lookupKey: Buffer) {
  const lookup = (e164: string) => phoneLookup(lookupKey, e164);

  function sealWith(key: Buffer, phone: string, name: string): string {
    return sealJson(key, { p: phone, n: name } satisfies SealedIdentity, identityLength);
  }

  /** A new account's key (made and stored now), its lookup and its sealed identity. */
  async function sealNew(uuid: string, phone: string, name: string) {
    const key = await store.create(uuid);
    return { phoneLookup: lookup(phone), identity: sealWith(key, phone, name) };
  }

  /** Rows with their number and name opened; '' for both where the key is gone. */
  async function open<T extends { uuid: string; identity: string | null }>(
    rows: T[],
  ): Promise<Array<Opened<T>>> {
    const keys = await store.get(rows.filter((r) => r.identity).map((r) => r.uuid));
    return rows.map((row) => {
      const { identity, legacyPhoneE164, legacyName, ...rest } = row as T & {
        legacyPhoneE164?: string | null;
        legacyName?: string | null;
      };
      const key = keys.get(row.uuid);
      let opened: SealedIdentity = { p: legacyPhoneE164 ?? '', n: legacyName ?? '' };
      if (identity && key) {
        try {
          opened = openJson(key, identity) as SealedIdentity;
        } catch {
          // A key that does not open the row (a lost key replaced): nothing to show.
        }
      }
      return { ...rest, phoneE164: opened.p, name: opened.n };
    });
  }

  return {
    store,
    lookup,
    sealNew,
    open,

    /** The identity sealed again with the account's existing key (a new key if it was lost). */
    async reseal(uuid: string, phone: string, name: string): Promise<string> {
      const key = (await store.get([uuid])).get(uuid) ?? (await store.create(uuid));
      return sealWith(key, phone, name);
    },

    async openOne<T extends { uuid: string; identity: string | null }>(
      row: T | undefined,
    ): Promise<Opened<T> | undefined> {
      return row ? (await open([row]))[0] : undefined;
    },

    /**
     * Seals the numbers and names an older build stored in the clear (at start, once per row:
     * later starts find none). Returns how many rows it sealed; the caller vacuums then, so the
     * old row versions leave the table files (and, on the embedded database, the log).
     */
    async sealLegacy(db: Db): Promise<number> {
      const rows = await db
        .select({
          id: users.id,
          uuid: users.uuid,
          phone: users.legacyPhoneE164,
          name: users.legacyName,
        })
        .from(users)
        .where(and(isNull(users.identity), isNotNull(users.legacyPhoneE164)));
      for (const row of rows) {
        const sealed = await sealNew(row.uuid, row.phone!, row.name ?? '');
        await db
          .update(users)
          .set({ ...sealed, legacyPhoneE164: null, legacyName: null })
          .where(eq(users.id, row.id));
      }
      return rows.length;
    },

    /**
     * Destroys the keys whose account is gone: an erasure that stopped between deleting the row
     * and destroying the key, or a signup that lost a race. Returns how many.
     */
    async sweep(db: Db): Promise<number> {
      const listed = await store.orphanCandidates();
      if (!listed.length) return 0;
      const alive = new Set<string>();
      for (let i = 0; i < listed.length; i += 1000) {
        const chunk = listed.slice(i, i + 1000);
        for (const r of await db
          .select({ uuid: users.uuid })
          .from(users)
          .where(inArray(users.uuid, chunk))) {
          alive.add(r.uuid);
        }
      }
      const gone = listed.filter((u) => !alive.has(u));
      await store.destroy(gone);
      return gone.length;
    },
  };
}

/**
 * The deployment's identities: keys in IDENTITY_KEYS_DIR if set; else files in
 * `DATA_DIR/identity-keys` with the embedded database (mirrored into BACKUP_DIR/identity-keys
 * when Candor takes backups), or the table `identity_keys` with DATABASE_URL, where processes
 * may run on machines that share no folder.
 */
export function identitiesFor(
  config: Pick<Config, 'identityKeysDir' | 'databaseUrl' | 'dataDir' | 'backup'>,
  db: Db,
  secrets: Pick<Secrets, 'pseudonymSecret'>,
): Identities {
  const store = config.identityKeysDir
    ? fileIdentityKeys(config.identityKeysDir)
    : config.databaseUrl
      ? databaseIdentityKeys(db)
      : fileIdentityKeys(
          path.join(config.dataDir, 'identity-keys'),
          config.backup ? path.join(config.backup.dir, 'identity-keys') : undefined,
        );
  return createIdentities(store, derivePhoneLookupKey(secrets));
}
