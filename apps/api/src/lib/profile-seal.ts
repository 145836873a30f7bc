import crypto from 'node:crypto';
import type { Gender } from '@candor/contracts';

/** A respondent's breakdown fields (from the device, decision 020): what results are broken down by. */
export interface Profile {
  gender: Gender;
  ageBand: string;
  country: string;
}

const VERSION = 'v1';

/**
 * The plaintext length of every sealed profile, in bytes. The longest profile
 * (`["undisclosed","undisclosed","US"]`, 34 bytes) fits with room: unpadded, the sealed length alone gave
 * a copy of the database each respondent's gender class (130 of 130, issue 28).
 */
export const PROFILE_BYTES = 64;

/**
 * Larger sealed JSON (a question's pending counts, which grow with its distinct cells and words)
 * is padded to a power of two of at least this many bytes, so its length moves only when the
 * whole period's content doubles, never by what one answer added.
 */
export const MIN_SEALED_BUCKET = 1024;

/** The bucket of a plaintext of `bytes`: a power of two, at least MIN_SEALED_BUCKET. */
export function bucketOf(bytes: number): number {
  let size = MIN_SEALED_BUCKET;
  while (size < bytes) size *= 2;
  return size;
}

/**
 * `value` as JSON with trailing spaces up to `length` bytes: JSON.parse skips them, so values
 * sealed before padding open the same way. Padded before encryption, since AES-GCM keeps the
 * length and a padded ciphertext would compress (TOAST) back to the true length.
 */
function paddedJson(value: unknown, lengthOf: (bytes: number) => number): Buffer {
  const json = Buffer.from(JSON.stringify(value), 'utf8');
  const length = lengthOf(json.length);
  if (length <= json.length) return json;
  return Buffer.concat([json, Buffer.alloc(length - json.length, 0x20)]);
}

/**
 * Seals any JSON value with AES-256-GCM under `key` and a random nonce: equal values look
 * different, and without the key a copy of the database shows nothing of it. Padded to `padTo`
 * bytes (a function of the true length: bucketOf unless given), so the stored length tells
 * nothing about the value within a bucket.
 */
export function sealJson(
  key: Buffer,
  value: unknown,
  padTo: (bytes: number) => number = bucketOf,
): string {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(paddedJson(value, padTo)), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** Opens a value sealed by sealJson; throws on a wrong key or a changed value. */
export function openJson(key: Buffer, sealed: string): unknown {
  const [version, nonce, tag, body] = sealed.split('.');
  if (version !== VERSION || !nonce || !tag || body === undefined) {
    throw new Error('not a sealed value');
  }
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  return JSON.parse(plain.toString('utf8'));
}

/**
 * Seals a profile (sealJson): without the key a copy of the database holds no gender, age band
 * or country next to a respondent, and every profile has one length (PROFILE_BYTES; a value
 * that could not fit, which validation rules out, takes the next multiple of it).
 */
export function sealProfile(key: Buffer, profile: Profile): string {
  return sealJson(
    key,
    [profile.gender, profile.ageBand, profile.country],
    (bytes) => Math.ceil(bytes / PROFILE_BYTES) * PROFILE_BYTES,
  );
}

/** Opens a sealed profile; throws on a wrong key or a changed value. */
export function openProfile(key: Buffer, sealed: string): Profile {
  const [gender, ageBand, country] = openJson(key, sealed) as string[];
  return { gender: gender as Gender, ageBand: ageBand!, country: country! };
}

/** A profile written by the 0007 migration (`plain:gender|age|country`), before sealing. */
export function legacyProfile(stored: string): Profile | undefined {
  if (!stored.startsWith('plain:')) return undefined;
  const [gender, ageBand, country] = stored.slice('plain:'.length).split('|');
  return {
    gender: (gender ?? 'undisclosed') as Gender,
    ageBand: ageBand ?? '',
    country: country ?? '',
  };
}
