import crypto from 'node:crypto';
import type { gender } from '../db/schema.js';

type Gender = (typeof gender.enumValues)[number];

/** A respondent's breakdown fields: what results are broken down by. */
export interface Profile {
  gender: Gender;
  ageBand: string;
  country: string;
}

const VERSION = 'v1';

/**
 * Seals any JSON value with AES-256-GCM under `key` and a random nonce: equal values look
 * different, and without the key a copy of the database shows nothing of it.
 */
export function sealJson(key: Buffer, value: unknown): string {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
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
 * or country next to a respondent.
 */
export function sealProfile(key: Buffer, profile: Profile): string {
  return sealJson(key, [profile.gender, profile.ageBand, profile.country]);
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
