import type { SecretKey, Vault, VaultWrite } from '@candor/contracts';
import { create } from 'zustand';
import { apiRequest } from '../api-client';
import {
  envelopeFormat,
  fromBase64Url,
  generateDataKey,
  type KeyEnvelope,
  newWrappingKey,
  openVault,
  readEnvelope,
  sameEnvelope,
  unwrapDataKey,
  VAULT_FORMAT,
  wrapDataKey,
  wrappingKeyFor,
} from './crypto';
import { VaultError } from './errors';
import { deleteAllDeviceKeys, deleteDeviceKey, findDeviceKey, saveDeviceKey } from './key-store';

// The vault's key while a session lasts (decision 020). The data key lives in IndexedDB
// ('candor-keys') and, once opened, in this module's memory; the vault's root (made from the
// password on the device, beside the login secret the API sees) never outlives the unlock,
// and nothing here is ever sent except the sealed blob.

/**
 * What a password typed on this device opens the vault with: the vault's root (contracts'
 * passwordSecrets), and the password itself only to open a vault sealed before the root
 * existed (format 1), which is then wrapped under the root.
 */
export interface VaultSecret {
  vaultRoot: SecretKey;
  password: string;
}

/**
 * Why the account's vault cannot be opened on this device:
 * - `password-changed`: it was sealed under another password (a reset on a device that did not
 *   hold the key) and this device holds no key that opens it;
 * - `replaced`: this device's key no longer opens it (another device started a new vault) and
 *   no password was given to open the new one (a reload: log in again);
 * - `no-key`: a session without a key on this device and no password yet (a session from
 *   before the vault existed, or a key deleted): log in again;
 * - `damaged`: the password opened the key but the contents fail their check.
 */
export type VaultLockReason = 'password-changed' | 'replaced' | 'no-key' | 'damaged';

export interface VaultState {
  /** `off`: no session; `opening`: deriving and reading; `ready`: syncs; `locked`: see reason. */
  status: 'off' | 'opening' | 'ready' | 'locked' | 'error';
  reason: VaultLockReason | null;
  /** A new, empty vault can replace the locked one if the member agrees (startNewVault). */
  canStartNew: boolean;
  /** What went wrong, for `error` (a network failure while opening: try again later). */
  error: string | null;
}

/** The vault's state for screens (e.g. "Your saved answers are locked: ..."). */
export const useVaultStore = create<VaultState>()(() => ({
  status: 'off',
  reason: null,
  canStartNew: false,
  error: null,
}));

interface Unlocked {
  uuid: string;
  key: CryptoKey;
  envelope: KeyEnvelope;
}

let unlocked: Unlocked | null = null;
/**
 * Set when this device wrapped the key under the password just typed (a re-wrap after a
 * password change): its envelope wins over the stored one at the next write, once.
 */
let envelopeToWrite = false;
/** A fresh key wrapped under the password typed, kept in memory for startNewVault only. */
let prepared: (Unlocked & { version: number }) | null = null;
/** A password's vault secret held until its session starts (staff's second step). */
let held: VaultSecret | null = null;
/** The unlock under way: a sync waits for it. */
let opening: Promise<unknown> = Promise.resolve();

export const VAULT_PATH = '/v1/user/vault/';
export const readRemoteVault = () => apiRequest<Vault>(VAULT_PATH);
export const writeRemoteVault = (body: VaultWrite) =>
  apiRequest<Vault>(VAULT_PATH, { method: 'PUT', body: JSON.stringify(body) });

/** What opening the vault found. */
export type UnlockOutcome =
  /** No vault yet: this device's key (or a new one) will seal the first. */
  | 'created'
  /** The password opened the stored vault. */
  | 'opened'
  /** The vault was sealed under an older password; this device's key opens it and is re-wrapped. */
  | 'rewrapped'
  /** It cannot be opened here: see useVaultStore's reason. Nothing is written. */
  | 'locked';

async function adopt(next: Unlocked): Promise<void> {
  await saveDeviceKey(next);
  unlocked = next;
  prepared = null;
  useVaultStore.setState({ status: 'ready', reason: null, canStartNew: false, error: null });
}

function lock(reason: VaultLockReason, fresh: typeof prepared): void {
  unlocked = null;
  prepared = fresh;
  useVaultStore.setState({ status: 'locked', reason, canStartNew: fresh !== null, error: null });
}

async function opensWith(bytes: Uint8Array, key: CryptoKey): Promise<boolean> {
  try {
    await openVault(bytes, key);
    return true;
  } catch {
    return false;
  }
}

async function unlock(uuid: string, secret: VaultSecret): Promise<UnlockOutcome> {
  const device = await findDeviceKey(uuid);
  const remote = await readRemoteVault();
  // The wrapping key for a new envelope under this password.
  const newWrapping = () => newWrappingKey(secret.vaultRoot);
  if (!remote.blob) {
    const key = device?.key ?? (await generateDataKey());
    await adopt({ uuid, key, envelope: await wrapDataKey(key, await newWrapping()) });
    return 'created';
  }
  const bytes = fromBase64Url(remote.blob);
  const stored = readEnvelope(bytes);
  const prepareFresh = async () => {
    const key = await generateDataKey();
    return {
      uuid,
      key,
      envelope: await wrapDataKey(key, await newWrapping()),
      version: remote.version,
    };
  };
  const key = await unwrapDataKey(stored, await wrappingKeyFor(stored, secret)).catch(
    (err: unknown) => {
      if (err instanceof VaultError) return null;
      throw err;
    },
  );
  if (key) {
    if (!(await opensWith(bytes, key))) {
      lock('damaged', await prepareFresh());
      return 'locked';
    }
    // The vault's key wins over another this device held (a vault started again elsewhere):
    // this device's own records stay in its database and merge in at the next sync.
    if (envelopeFormat(stored) === VAULT_FORMAT) {
      await adopt({ uuid, key, envelope: stored });
    } else {
      // Sealed before the vault's root: wrapped under it now, written at the next sync.
      await adopt({ uuid, key, envelope: await wrapDataKey(key, await newWrapping()) });
      envelopeToWrite = true;
    }
    return 'opened';
  }
  if (device && (await opensWith(bytes, device.key))) {
    // Sealed under an older password, and this device still holds the key: wrap it under the
    // password just typed, so that the next device opens the vault with it.
    await adopt({
      uuid,
      key: device.key,
      envelope: await wrapDataKey(device.key, await newWrapping()),
    });
    envelopeToWrite = true;
    return 'rewrapped';
  }
  lock(device ? 'replaced' : 'password-changed', await prepareFresh());
  return 'locked';
}

/**
 * Opens the account's vault with the secret of the password just typed (login, set-password,
 * or staff's held one): reads the stored vault, unwraps its data key, keeps it on this device.
 * See UnlockOutcome; a network failure leaves status `error` and this device's key untouched.
 */
export function unlockVault(uuid: string, secret: VaultSecret): Promise<UnlockOutcome> {
  useVaultStore.setState({ status: 'opening', reason: null, canStartNew: false, error: null });
  const run = unlock(uuid, secret).catch((err: unknown) => {
    useVaultStore.setState({
      status: 'error',
      error: err instanceof Error ? err.message : 'The vault could not be opened.',
    });
    throw err;
  });
  opening = run.catch(() => undefined);
  return run;
}

/**
 * After a reload (no password): takes this device's key for the account. Without one the vault
 * is locked (`no-key`) until the member logs in again; nothing is read from the network here.
 */
export async function resumeVault(uuid: string): Promise<boolean> {
  const run = (async () => {
    const device = await findDeviceKey(uuid);
    if (device) {
      unlocked = device;
      useVaultStore.setState({ status: 'ready', reason: null, canStartNew: false, error: null });
      return true;
    }
    lock('no-key', null);
    return false;
  })();
  opening = run.catch(() => undefined);
  return run;
}

/**
 * A password's vault secret, held in memory (never stored) until the session it belongs to
 * starts: staff's, after their second step (takeHeldSecret).
 */
export function holdVaultSecret(secret: VaultSecret): void {
  held = secret;
}

/** The held vault secret, handed over once. */
export function takeHeldSecret(): VaultSecret | null {
  const secret = held;
  held = null;
  return secret;
}

/**
 * Ends the vault on this device for the account: forgets the key in memory and deletes it
 * from IndexedDB (logout, erasure, a session that ended). The stored vault is untouched.
 */
export async function forgetVaultKey(uuid: string | null): Promise<void> {
  const was = unlocked?.uuid;
  clearMemory();
  const target = uuid ?? was;
  if (target) await deleteDeviceKey(target);
}

/** "This is not my device": every account's vault key on this browser goes. */
export async function forgetAllVaultKeys(): Promise<void> {
  clearMemory();
  await deleteAllDeviceKeys();
}

function clearMemory(): void {
  unlocked = null;
  prepared = null;
  held = null;
  envelopeToWrite = false;
  useVaultStore.setState({ status: 'off', reason: null, canStartNew: false, error: null });
}

// For sync.ts: the key in use, after any unlock under way.
export async function currentKey(): Promise<Unlocked | null> {
  await opening;
  return unlocked;
}

/** The envelope to write: this device's after a re-wrap (once), else the stored one's. */
export async function envelopeFor(stored: KeyEnvelope | null): Promise<KeyEnvelope | null> {
  if (!unlocked) return null;
  if (stored && !envelopeToWrite) {
    if (!sameEnvelope(stored, unlocked.envelope)) {
      // Another device re-wrapped the key under a newer password: keep that one.
      unlocked = { ...unlocked, envelope: stored };
      await saveDeviceKey(unlocked);
    }
    return stored;
  }
  return unlocked.envelope;
}

export function envelopeWritten(): void {
  envelopeToWrite = false;
}

/** The vault could no longer be opened with the key in use (another device replaced it). */
export function lockReplaced(): void {
  lock('replaced', null);
}

/** For startNewVault: the fresh key prepared when the vault could not be opened. */
export function takePrepared(): (Unlocked & { version: number }) | null {
  return prepared;
}

export async function adoptPrepared(): Promise<void> {
  if (!prepared) return;
  const { version: _version, ...next } = prepared;
  await adopt(next);
  // The new vault's header must be written even though the stored one differs.
  envelopeToWrite = true;
}
