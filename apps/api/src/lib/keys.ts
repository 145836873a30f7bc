import crypto from 'node:crypto';
import type { Secrets } from './secrets.js';

/** Separate keys for separate jobs, all derived from JWT_SECRET, so one leak cannot cross over. */
export interface Keys {
  /** Signs access tokens (HS256). */
  accessToken: Uint8Array;
  /** Signs the short-lived set-password tokens (HS256). */
  passwordToken: Uint8Array;
  /** HMAC of one-time codes before they are stored. */
  otp: Buffer;
  /** HMAC of client IPs kept for the signup velocity checks. */
  ip: Buffer;
  /** Derives a rotated refresh token from its parent (see tokens.ts). */
  refreshChild: Buffer;
  /** Signs the opaque ids of running answer and graph timings. */
  timing: Buffer;
  /** Signs panel completion codes (HMAC of survey, panel and participant). */
  panelCode: Buffer;
  /** Signs the short-lived second-factor challenges of a staff login (HS256). */
  challengeToken: Uint8Array;
  /** Seals staff TOTP secrets (AES-256-GCM, lib/profile-seal.ts sealJson). */
  secondFactorSeal: Buffer;
  /** Seals webhooks' signing secrets (AES-256-GCM, sealJson). */
  webhookSeal: Buffer;
}

function derive(secret: string, label: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', secret, 'candor', label, 32));
}

/** HKDF-SHA256 of the JWT secret, one label per use. */
export function deriveKeys(secrets: Pick<Secrets, 'jwtSecret'>): Keys {
  return {
    accessToken: new Uint8Array(derive(secrets.jwtSecret, 'access-token')),
    passwordToken: new Uint8Array(derive(secrets.jwtSecret, 'password-token')),
    otp: derive(secrets.jwtSecret, 'otp-code'),
    ip: derive(secrets.jwtSecret, 'client-ip'),
    refreshChild: derive(secrets.jwtSecret, 'refresh-child'),
    timing: derive(secrets.jwtSecret, 'timing-id'),
    panelCode: derive(secrets.jwtSecret, 'panel-code'),
    challengeToken: new Uint8Array(derive(secrets.jwtSecret, 'second-factor-challenge')),
    secondFactorSeal: derive(secrets.jwtSecret, 'second-factor-seal'),
    webhookSeal: derive(secrets.jwtSecret, 'webhook-seal'),
  };
}

/**
 * The key of respondents' pseudonyms, from PSEUDONYM_SECRET (not JWT_SECRET): the database and
 * the token key together still cannot join an answer to an account without it.
 */
export function derivePseudonymKey(secrets: Pick<Secrets, 'pseudonymSecret'>): Buffer {
  return derive(secrets.pseudonymSecret, 'respondent-pseudonym');
}

/**
 * The key of accounts' number lookups (modules/auth/identity.ts), from PSEUDONYM_SECRET: kept
 * as long as the accounts, so not from JWT_SECRET, whose rotation would lose every login.
 */
export function derivePhoneLookupKey(secrets: Pick<Secrets, 'pseudonymSecret'>): Buffer {
  return derive(secrets.pseudonymSecret, 'phone-lookup');
}

/** The key that seals respondents' breakdown fields, also from PSEUDONYM_SECRET. */
export function deriveProfileKey(secrets: Pick<Secrets, 'pseudonymSecret'>): Buffer {
  return derive(secrets.pseudonymSecret, 'respondent-profile');
}

/**
 * The key of panel completions' participant hashes and respondent keys, from PSEUDONYM_SECRET:
 * like a pseudonym, without it a completion joins to neither a respondent nor a panel's list.
 */
export function derivePanelKey(secrets: Pick<Secrets, 'pseudonymSecret'>): Buffer {
  return derive(secrets.pseudonymSecret, 'panel-completion');
}

/**
 * Keys of the answer credentials (decision 020), from PSEUDONYM_SECRET: one seals each survey's
 * private signing key, one seals answers waiting in the inbox to be mixed. Neither can tie an
 * answer to an account: the signatures are blind, and the inbox holds no account.
 */
export function deriveCredentialKeys(secrets: Pick<Secrets, 'pseudonymSecret'>) {
  return {
    signingKeySeal: derive(secrets.pseudonymSecret, 'credential-signing-key'),
    inbox: derive(secrets.pseudonymSecret, 'answer-inbox'),
  };
}

/** Hex HMAC-SHA256 of `value` with `key`. */
export function hmacHex(key: Buffer, value: string): string {
  return crypto.createHmac('sha256', key).update(value).digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
