import Dexie, { type EntityTable } from 'dexie';
import type { KeyEnvelope } from './crypto';

/**
 * An account's vault key on this device: the data key itself (a CryptoKey, which IndexedDB
 * stores as it is: no bytes in the page's memory) and its envelope, the same key wrapped under
 * the password it was last opened with, which the first write of a vault needs as its header.
 */
export interface DeviceKey {
  /** The account's uuid. */
  uuid: string;
  key: CryptoKey;
  envelope: KeyEnvelope;
}

type KeysDb = Dexie & { keys: EntityTable<DeviceKey, 'uuid'> };

// Its own small database, so that forgetting keys never touches the answers' database, and
// "this is not my device" can drop it whole.
const DB_NAME = 'candor-keys';
let db: KeysDb | null = null;

function keysDb(): KeysDb {
  if (!db) {
    db = new Dexie(DB_NAME) as KeysDb;
    db.version(1).stores({ keys: 'uuid' });
  }
  return db;
}

/** The account's vault key on this device, if it holds one. */
export async function findDeviceKey(uuid: string): Promise<DeviceKey | undefined> {
  return keysDb().keys.get(uuid);
}

/** Keeps the account's vault key on this device (a reload then needs no password). */
export async function saveDeviceKey(record: DeviceKey): Promise<void> {
  await keysDb().keys.put(record);
}

/** Deletes one account's vault key from this device (logout, erasure). */
export async function deleteDeviceKey(uuid: string): Promise<void> {
  await keysDb().keys.delete(uuid);
}

/** Deletes every account's vault key on this device ("this is not my device"). */
export async function deleteAllDeviceKeys(): Promise<void> {
  const open = db;
  db = null;
  open?.close();
  await Dexie.delete(DB_NAME);
}
