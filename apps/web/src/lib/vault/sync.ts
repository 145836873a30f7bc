import { ApiError } from '../api-client';
import { mergeVaults, type VaultContents } from './contents';
import { fromBase64Url, openVault, readEnvelope, sealVault, toBase64Url } from './crypto';
import { VaultError } from './errors';
import {
  adoptPrepared,
  currentKey,
  envelopeFor,
  envelopeWritten,
  lockReplaced,
  readRemoteVault,
  takePrepared,
  writeRemoteVault,
} from './session';

/** Reads the device's own records as vault contents. */
export type ReadLocal = () => Promise<VaultContents>;
/** Writes merged contents back to the device's records (idempotent: it may run twice). */
export type ApplyLocal = (merged: VaultContents) => Promise<void>;

export type SyncResult =
  /** The merged contents are on the device and in the vault at `version`, `size` bytes long. */
  | { status: 'synced'; version: number; size: number }
  /** No key opens the vault on this device (useVaultStore says why); nothing was written. */
  | { status: 'locked' };

/** How many times a write that lost the compare-and-swap is read, merged and tried again. */
export const SYNC_ATTEMPTS = 5;

let chain: Promise<unknown> = Promise.resolve();

/** Runs one vault operation at a time on this page. */
function serial<T>(work: () => Promise<T>): Promise<T> {
  const run = chain.then(work, work);
  chain = run.catch(() => undefined);
  return run;
}

const randomBelow = (n: number) => globalThis.crypto.getRandomValues(new Uint32Array(1))[0]! % n;

async function syncOnce(read: ReadLocal, apply: ApplyLocal, replace: boolean): Promise<SyncResult> {
  const own = await currentKey();
  if (!own) return { status: 'locked' };
  for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
    const remote = await readRemoteVault();
    const local = await read();
    let merged = local;
    let stored = null;
    if (remote.blob && !replace) {
      const bytes = fromBase64Url(remote.blob);
      stored = readEnvelope(bytes);
      let theirs: VaultContents;
      try {
        theirs = await openVault(bytes, own.key);
      } catch (err) {
        if (!(err instanceof VaultError) || err.code !== 'VAULT_UNREADABLE') throw err;
        // Another device started a new vault under another key: this one must not overwrite
        // it. Logging in again (the password) opens it, and this device's records merge then.
        lockReplaced();
        return { status: 'locked' };
      }
      merged = mergeVaults(local, theirs);
    }
    await apply(merged);
    const envelope = await envelopeFor(stored);
    if (!envelope) return { status: 'locked' };
    const sealed = await sealVault(merged, own.key, envelope);
    try {
      const written = await writeRemoteVault({
        version: remote.version,
        blob: toBase64Url(sealed),
      });
      envelopeWritten();
      return { status: 'synced', version: written.version, size: sealed.length };
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409)) throw err;
      // Another device wrote between our read and our write: read its vault, merge, try again
      // after a short random wait (two devices retrying in step would collide again).
      await new Promise((r) => setTimeout(r, 50 + randomBelow(200 * (attempt + 1))));
    }
  }
  throw new VaultError(
    'VAULT_BUSY',
    `The vault kept changing on another device (${SYNC_ATTEMPTS} tries): it will be saved later.`,
  );
}

/**
 * Syncs this device with the vault: reads it, opens it with the device's key, merges it with
 * the device's records (`read`), writes the merge back to the device (`apply`), seals it and
 * writes it over the version read; when another device wrote first (409) it reads, merges and
 * tries again, SYNC_ATTEMPTS times at most (then VAULT_BUSY). Throws VAULT_TOO_LARGE when the
 * merge does not fit the largest size (the device has applied it; the vault keeps its last
 * version), and ApiError on network and server failures. Never call it per answer: see
 * scheduleVaultSync for when it runs (its write times are seen by the server).
 */
export function syncVault(read: ReadLocal, apply: ApplyLocal): Promise<SyncResult> {
  return serial(() => syncOnce(read, apply, false));
}

/**
 * Replaces a vault this device cannot open with a new one holding this device's records,
 * under a key made when the password was typed. Only after the member agreed: whatever the old
 * vault held that is not on this device is then lost (devices that still hold its key can
 * merge their own records in after logging in). Throws VAULT_LOCKED when no new key was
 * prepared (log in again first).
 */
export function startNewVault(read: ReadLocal, apply: ApplyLocal): Promise<SyncResult> {
  return serial(async () => {
    if (!takePrepared()) {
      throw new VaultError('VAULT_LOCKED', 'Log in again to start a new vault.');
    }
    await adoptPrepared();
    return syncOnce(read, apply, true);
  });
}
