import { VAULT_SIZES } from '@candor/contracts';
import { parseContents, type VaultContents } from './contents';
import { VaultError } from './errors';

// The sealed vault, byte by byte (all of it authenticated):
//
//   0       format version (1)
//   1..5    PBKDF2 iterations, big-endian u32
//   5..21   salt (16 random bytes)
//   21..33  IV of the wrapped data key
//   33..81  the data key wrapped with AES-GCM under the password's key (32 bytes + 16 tag)
//   81..93  IV of the contents
//   93..    AES-GCM(contents IV, [u32 JSON length][JSON][zeros]) with the 93 bytes before as
//           additional data, the whole exactly one of VAULT_SIZES long.
//
// WebCrypto does every primitive; nothing here is hand-written cryptography.

/** The format this code writes; an older reader refuses a newer one instead of guessing. */
export const VAULT_FORMAT = 1;
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

/** The key that wraps the data key: PBKDF2-SHA256 over the password (not extractable). */
export async function deriveWrappingKey(
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

/** A password's wrapping key with the salt and count it was derived with. */
export interface WrappingKey {
  key: CryptoKey;
  salt: Uint8Array<ArrayBuffer>;
  iterations: number;
}

/** Derives a wrapping key under a new random salt. */
export async function newWrappingKey(password: string): Promise<WrappingKey> {
  const salt = random(SALT_BYTES);
  return { key: await deriveWrappingKey(password, salt), salt, iterations: PBKDF2_ITERATIONS };
}

function kdfBytes(iterations: number, salt: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(KDF_END);
  out[0] = VAULT_FORMAT;
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
    additionalData: kdfBytes(wrapping.iterations, wrapping.salt),
  });
  return { iterations: wrapping.iterations, salt: wrapping.salt, iv, wrapped: u8(wrapped) };
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
        additionalData: kdfBytes(envelope.iterations, envelope.salt),
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
  if (blob[0] !== VAULT_FORMAT) {
    throw new VaultError(
      'VAULT_FORMAT',
      `This vault has format ${blob[0]}, which this version of Candor cannot read: reload the page.`,
    );
  }
  const iterations = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(1);
  if (iterations < MIN_ITERATIONS || iterations > 100 * PBKDF2_ITERATIONS) {
    throw new VaultError('VAULT_FORMAT', 'This vault names an iteration count Candor refuses.');
  }
  return {
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
  blob.set(kdfBytes(envelope.iterations, envelope.salt), 0);
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
