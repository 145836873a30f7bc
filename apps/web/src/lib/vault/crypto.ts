import { type SecretKey, VAULT_SIZES } from '@candor/contracts';
import { parseContents, type VaultContents } from './contents';
import { VaultError } from './errors';

// The sealed vault, byte by byte (all of it authenticated):
//
//   0       format version: 2 (1, read only: the key was wrapped under PBKDF2 of the password)
//   1..5    0 for format 2; format 1's PBKDF2 iterations, big-endian u32
//   5..21   salt (16 random bytes)
//   21..33  IV of the wrapped data key
//   33..81  the data key wrapped with AES-GCM (32 bytes + 16 tag) under the wrapping key: for
//           format 2, HKDF(salt) of the vault's root, which the device derives from the
//           password and never sends (packages/contracts, password-secrets.ts)
//   81..93  IV of the contents
//   93..    AES-GCM(contents IV, [u32 JSON length][JSON][zeros]) with the 93 bytes before as
//           additional data, the whole exactly one of VAULT_SIZES long.
//
// WebCrypto does every primitive; nothing here is hand-written cryptography.

/** The format this code writes; an older reader refuses a newer one instead of guessing. */
export const VAULT_FORMAT = 2;
/** The format before the vault's root: the wrapping key was PBKDF2 of the password itself. */
const LEGACY_FORMAT = 1;
/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256. */
export const PBKDF2_ITERATIONS = 600_000;
/** Fewer is refused on reading: a vault rewritten with a weak count would be a downgrade. */
const MIN_ITERATIONS = 600_000;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const WRAPPED_BYTES = KEY_BYTES + TAG_BYTES;
/** Format, iterations, salt: bound to the wrapped key as its additional data. */
const KDF_END = 1 + 4 + SALT_BYTES;
const ENVELOPE_END = KDF_END + IV_BYTES + WRAPPED_BYTES;
const HEADER_BYTES = ENVELOPE_END + IV_BYTES;
/** What the smallest and largest sizes leave for the JSON (after its 4-byte length). */
export const VAULT_CAPACITY = VAULT_SIZES.map((size) => size - HEADER_BYTES - TAG_BYTES - 4);

/** The data key wrapped under a password: what the header carries and the device keeps. */
export interface KeyEnvelope {
  /** Missing in what a device kept before format 2: those are format 1. */
  format?: 1 | 2;
  /** Format 1's PBKDF2 count; 0 in format 2. */
  iterations: number;
  salt: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
  wrapped: Uint8Array<ArrayBuffer>;
}

const subtle = () => globalThis.crypto.subtle;
const random = (n: number) => globalThis.crypto.getRandomValues(new Uint8Array(n));
const u8 = (buffer: ArrayBuffer) => new Uint8Array(buffer);

/**
 * A fresh random 256-bit AES-GCM data key for an account's vault. Extractable only so that it
 * can be wrapped under a new password (WebCrypto's wrapKey needs it); it is never exported
 * otherwise and never sent anywhere.
 */
export function generateDataKey(): Promise<CryptoKey> {
  return subtle().generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
}

/** An envelope's format: what a device kept before format 2 carries none. */
export const envelopeFormat = (envelope: KeyEnvelope): 1 | 2 => envelope.format ?? LEGACY_FORMAT;

/**
 * Format 1's wrapping key: PBKDF2-SHA256 over the password itself (not extractable). Read only,
 * to open a vault sealed before format 2, which is then wrapped again under the vault's root.
 */
export async function deriveLegacyWrappingKey(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations = PBKDF2_ITERATIONS,
): Promise<CryptoKey> {
  const base = await subtle().importKey(
    'raw',
    new TextEncoder().encode(password),
    'PBKDF2',
    false,
    ['deriveKey'],
  );
  return subtle().deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  );
}

/** Format 2's wrapping key: HKDF-SHA256 of the vault's root with the envelope's salt. */
export function deriveWrappingKey(
  vaultRoot: SecretKey,
  salt: Uint8Array<ArrayBuffer>,
): Promise<CryptoKey> {
  return subtle().deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt, info: new TextEncoder().encode('candor/vault-wrap/v2') },
    vaultRoot,
    { name: 'AES-GCM', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  );
}

/** A wrapping key with the salt (and format 1's count) it was derived with. */
export interface WrappingKey {
  key: CryptoKey;
  salt: Uint8Array<ArrayBuffer>;
  format: 1 | 2;
  iterations: number;
}

/** A format 2 wrapping key under a new random salt. */
export async function newWrappingKey(vaultRoot: SecretKey): Promise<WrappingKey> {
  const salt = random(SALT_BYTES);
  return {
    key: await deriveWrappingKey(vaultRoot, salt),
    salt,
    format: VAULT_FORMAT,
    iterations: 0,
  };
}

/** The wrapping key that fits an envelope: the root's for format 2, the password's for 1. */
export function wrappingKeyFor(
  envelope: KeyEnvelope,
  secret: { vaultRoot: SecretKey; password: string },
): Promise<CryptoKey> {
  return envelopeFormat(envelope) === LEGACY_FORMAT
    ? deriveLegacyWrappingKey(secret.password, envelope.salt, envelope.iterations)
    : deriveWrappingKey(secret.vaultRoot, envelope.salt);
}

function kdfBytes(format: 1 | 2, iterations: number, salt: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(KDF_END);
  out[0] = format;
  new DataView(out.buffer).setUint32(1, iterations);
  out.set(salt, 5);
  return out;
}

/** Wraps the data key under a password's key (a fresh IV each time). */
export async function wrapDataKey(dataKey: CryptoKey, wrapping: WrappingKey): Promise<KeyEnvelope> {
  const iv = random(IV_BYTES);
  const wrapped = await subtle().wrapKey('raw', dataKey, wrapping.key, {
    name: 'AES-GCM',
    iv,
    additionalData: kdfBytes(wrapping.format, wrapping.iterations, wrapping.salt),
  });
  return {
    format: wrapping.format,
    iterations: wrapping.iterations,
    salt: wrapping.salt,
    iv,
    wrapped: u8(wrapped),
  };
}

/** Unwraps the data key; VAULT_WRONG_PASSWORD when this password's key does not fit. */
export async function unwrapDataKey(
  envelope: KeyEnvelope,
  wrappingKey: CryptoKey,
): Promise<CryptoKey> {
  try {
    return await subtle().unwrapKey(
      'raw',
      envelope.wrapped,
      wrappingKey,
      {
        name: 'AES-GCM',
        iv: envelope.iv,
        additionalData: kdfBytes(envelopeFormat(envelope), envelope.iterations, envelope.salt),
      },
      { name: 'AES-GCM', length: 256 },
      true,
      ['encrypt', 'decrypt'],
    );
  } catch {
    throw new VaultError(
      'VAULT_WRONG_PASSWORD',
      'This password does not open the vault: it was sealed under another password, or its header is damaged.',
    );
  }
}

/** The envelope of a sealed vault, checked for length, format and iteration count. */
export function readEnvelope(blob: Uint8Array): KeyEnvelope {
  if (!(VAULT_SIZES as readonly number[]).includes(blob.length)) {
    throw new VaultError('VAULT_FORMAT', `A vault is one of ${VAULT_SIZES.join(', ')} bytes long.`);
  }
  const format = blob[0];
  if (format !== VAULT_FORMAT && format !== LEGACY_FORMAT) {
    throw new VaultError(
      'VAULT_FORMAT',
      `This vault has format ${format}, which this version of Candor cannot read: reload the page.`,
    );
  }
  const iterations = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(1);
  const counted = iterations >= MIN_ITERATIONS && iterations <= 100 * PBKDF2_ITERATIONS;
  if (format === LEGACY_FORMAT ? !counted : iterations !== 0) {
    throw new VaultError('VAULT_FORMAT', 'This vault names an iteration count Candor refuses.');
  }
  return {
    format,
    iterations,
    salt: blob.slice(5, KDF_END),
    iv: blob.slice(KDF_END, KDF_END + IV_BYTES),
    wrapped: blob.slice(KDF_END + IV_BYTES, ENVELOPE_END),
  };
}

/** True when two envelopes are the same bytes (the same wrapping of the same key). */
export function sameEnvelope(a: KeyEnvelope, b: KeyEnvelope): boolean {
  const eq = (x: Uint8Array, y: Uint8Array) =>
    x.length === y.length && x.every((v, i) => v === y[i]);
  return (
    envelopeFormat(a) === envelopeFormat(b) &&
    a.iterations === b.iterations &&
    eq(a.salt, b.salt) &&
    eq(a.iv, b.iv) &&
    eq(a.wrapped, b.wrapped)
  );
}

/** The smallest allowed size whose room holds `jsonBytes` of JSON; undefined when none does. */
export function vaultSizeFor(jsonBytes: number): number | undefined {
  const i = VAULT_CAPACITY.findIndex((room) => jsonBytes <= room);
  return i < 0 ? undefined : VAULT_SIZES[i];
}

/**
 * Seals the contents under the data key, with the envelope as header, padded to the smallest
 * of VAULT_SIZES that fits: the length says the size class and nothing finer. Contents larger
 * than the largest size throw VAULT_TOO_LARGE (nothing is cut: the device keeps everything).
 */
export async function sealVault(
  contents: VaultContents,
  dataKey: CryptoKey,
  envelope: KeyEnvelope,
): Promise<Uint8Array<ArrayBuffer>> {
  const json = new TextEncoder().encode(JSON.stringify(contents));
  const size = vaultSizeFor(json.length);
  if (size === undefined) {
    throw new VaultError(
      'VAULT_TOO_LARGE',
      `Your saved answers no longer fit the vault (${json.length} bytes of ${VAULT_CAPACITY.at(-1)!}): ` +
        'this device keeps them, but another device cannot restore them from the vault.',
    );
  }
  const blob = new Uint8Array(size);
  blob.set(kdfBytes(envelopeFormat(envelope), envelope.iterations, envelope.salt), 0);
  blob.set(envelope.iv, KDF_END);
  blob.set(envelope.wrapped, KDF_END + IV_BYTES);
  const iv = random(IV_BYTES);
  blob.set(iv, ENVELOPE_END);
  // The plaintext is the room after the header and tag: a length, the JSON, then zeros (inside
  // the authenticated ciphertext, so the padding is as opaque as the rest).
  const plain = new Uint8Array(size - HEADER_BYTES - TAG_BYTES);
  new DataView(plain.buffer).setUint32(0, json.length);
  plain.set(json, 4);
  const sealed = await subtle().encrypt(
    { name: 'AES-GCM', iv, additionalData: blob.slice(0, HEADER_BYTES) },
    dataKey,
    plain,
  );
  blob.set(u8(sealed), HEADER_BYTES);
  return blob;
}

/**
 * Opens a sealed vault with the data key. VAULT_UNREADABLE when GCM refuses it (a changed
 * byte anywhere, or another data key: the two cannot be told apart, by design).
 */
export async function openVault(blob: Uint8Array, dataKey: CryptoKey): Promise<VaultContents> {
  readEnvelope(blob);
  let plain: Uint8Array;
  try {
    plain = u8(
      await subtle().decrypt(
        {
          name: 'AES-GCM',
          iv: blob.slice(ENVELOPE_END, HEADER_BYTES),
          additionalData: blob.slice(0, HEADER_BYTES),
        },
        dataKey,
        blob.slice(HEADER_BYTES),
      ),
    );
  } catch {
    throw new VaultError(
      'VAULT_UNREADABLE',
      'The vault could not be opened: it was damaged, or sealed under another key.',
    );
  }
  const length = new DataView(plain.buffer, plain.byteOffset, plain.byteLength).getUint32(0);
  if (length > plain.length - 4) {
    throw new VaultError('VAULT_FORMAT', 'The vault says it holds more than it does.');
  }
  return parseContents(JSON.parse(new TextDecoder().decode(plain.subarray(4, 4 + length))));
}

/** base64url without padding, as the API takes the vault. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  // In chunks: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  let binary: string;
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw new VaultError('VAULT_FORMAT', 'The vault is not base64url.');
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
