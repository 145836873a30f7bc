import { VaultError } from './errors';
import { type ApplyLocal, type ReadLocal, startNewVault, type SyncResult, syncVault } from './sync';

// When the vault is written. The server sees each write's time, and a compromised server could
// line those times up with the anonymous answers' arrival (decision 020), so a write never
// follows an answer: it happens at login or restore, when the page is hidden, and at most every
// SYNC_EVERY_MS plus a random jitter while something changed. docs/privacy.md states what the
// write times and the size still say.

/** The least time between two writes the timer makes. */
export const SYNC_EVERY_MS = 10 * 60_000;
/** Up to this much more, drawn at random each time, so writes keep no fixed rhythm. */
export const SYNC_JITTER_MS = 5 * 60_000;

interface VaultData {
  read: ReadLocal;
  apply: ApplyLocal;
}

let data: VaultData | null = null;
let running = false;
let dirty = false;
let lastWrite = 0;
let timer: ReturnType<typeof setTimeout> | null = null;

const jitter = () => globalThis.crypto.getRandomValues(new Uint32Array(1))[0]! % SYNC_JITTER_MS;

/**
 * The answering feature hands over how to read and apply the device's records (app/ or the
 * feature calls it once; lib/ cannot import a feature).
 */
export function provideVaultData(provider: VaultData): void {
  const first = data === null;
  data = provider;
  // A session's first sync ran before the records could be read (they load lazily): now.
  if (first && running) void runSync();
}

/**
 * The device's records changed (an answer, a rating, a credential): the vault will be written
 * at the next hidden page or timer, never now.
 */
export function vaultChanged(): void {
  dirty = true;
  arm();
}

function arm(): void {
  if (!running || !dirty || timer) return;
  const wait = Math.max(0, lastWrite + SYNC_EVERY_MS - Date.now()) + jitter();
  timer = setTimeout(() => {
    timer = null;
    void runSync();
  }, wait);
}

async function runSync(): Promise<SyncResult | null> {
  if (!data || !running) return null;
  // Changes made while this sync runs are marked again by vaultChanged.
  dirty = false;
  try {
    const result = await syncVault(data.read, data.apply);
    lastWrite = Date.now();
    return result;
  } catch {
    // Offline, busy, too large: the records stay on the device; the next trigger tries again.
    dirty = true;
    lastWrite = Date.now();
    return null;
  } finally {
    arm();
  }
}

function onVisibility(): void {
  if (document.visibilityState === 'hidden' && dirty) void runSync();
}

/**
 * Starts the schedule for a session (login, signup, restore) and syncs once now, whether or
 * not anything changed: a write at login says only that the member logged in.
 */
export function startVaultSchedule(): Promise<SyncResult | null> {
  if (!running) {
    running = true;
    document.addEventListener('visibilitychange', onVisibility);
  }
  return runSync();
}

/**
 * Replaces a vault this device cannot open with a new one holding this device's records (the
 * member agreed: what only the old vault held is lost). Needs a vault made ready at login.
 */
export async function replaceLockedVault(): Promise<SyncResult> {
  if (!data) throw new VaultError('VAULT_LOCKED', 'Log in again to start a new vault.');
  const result = await startNewVault(data.read, data.apply);
  lastWrite = Date.now();
  return result;
}

/** Stops the schedule (logout, erasure); a change not yet written stays on the device. */
export function stopVaultSchedule(): void {
  running = false;
  dirty = false;
  if (timer) clearTimeout(timer);
  timer = null;
  document.removeEventListener('visibilitychange', onVisibility);
}

/**
 * Writes what changed before the session ends (logout deletes the device's records of the
 * member's answers), giving up after `timeoutMs` (offline, a slow server).
 */
export async function flushVault(timeoutMs = 4000): Promise<void> {
  if (!running || !dirty || !data) return;
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([runSync(), new Promise((r) => (giveUp = setTimeout(r, timeoutMs)))]).finally(
    () => clearTimeout(giveUp),
  );
}
