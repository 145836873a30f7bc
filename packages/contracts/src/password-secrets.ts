// What a password becomes on the member's device (decision 020, "a vault secret the server
// never sees"). The password itself never leaves the device: one slow hash of it, salted with
// the account's number, splits (HKDF) into the login secret, which the web app sends in the
// spec's `password` fields and the server hashes again as it hashed passwords, and the vault's
// root, which wraps the vault's data key and is never sent. The server, its logs and anyone
// who runs it see only the login secret, from which the vault's root cannot be computed.
//
// WebCrypto does every primitive (the browser's, and Node's `globalThis.crypto`); nothing here
// is hand-written cryptography.

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth-rules.js';

/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256, as the vault used before. */
export const PASSWORD_STRETCH_ITERATIONS = 600_000;

/** "cs1." and 43 base64url characters: a login secret, never a password a person typed. */
export const LOGIN_SECRET_PATTERN = /^cs1\.[A-Za-z0-9_-]{43}$/;

export const isLoginSecret = (value: string): boolean => LOGIN_SECRET_PATTERN.test(value);

/** WebCrypto's key type, named the same way in browsers and in Node. */
export type SecretKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

export interface PasswordSecrets {
  /** Sent as the API's `password`: proves the password without being it. */
  login: string;
  /** HKDF key the vault derives its wrapping keys from; not extractable, never sent. */
  vaultRoot: SecretKey;
}

const encode = (text: string) => new TextEncoder().encode(text);

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The password's two secrets for the account whose number is `e164` (+447700900123). The
 * number is the salt, so every device derives the same secrets without asking the server
 * anything (a salt the server handed out would say which numbers have accounts).
 */
export async function passwordSecrets(password: string, e164: string): Promise<PasswordSecrets> {
  const subtle = globalThis.crypto.subtle;
  const typed = await subtle.importKey('raw', encode(password.normalize('NFC')), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const stretched = await subtle.deriveBits(
    {
      name: 'PBKDF2',
      hash: 'SHA-256',
      salt: encode(`candor/password/v1/${e164}`),
      iterations: PASSWORD_STRETCH_ITERATIONS,
    },
    typed,
    256,
  );
  const root = await subtle.importKey('raw', stretched, 'HKDF', false, ['deriveBits', 'deriveKey']);
  const login = await subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encode('candor/login/v1') },
    root,
    256,
  );
  const vaultRoot = await subtle.importKey(
    'raw',
    await subtle.deriveBits(
      { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encode('candor/vault/v1') },
      root,
      256,
    ),
    'HKDF',
    false,
    ['deriveKey'],
  );
  return { login: `cs1.${base64url(new Uint8Array(login))}`, vaultRoot };
}

/**
 * The reason a password is refused, in words, or null when it is fine: only its length and
 * the list of common passwords (NIST SP 800-63B, no composition rules). The list is the
 * caller's (`@zxcvbn-ts/language-common`'s), so the device that checks it, which is the only
 * place the password is, downloads it only when a password is chosen.
 */
export function passwordProblem(password: string, common: ReadonlySet<string>): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  }
  const lowered = password.toLowerCase();
  if (common.has(lowered) || common.has(lowered.trim())) {
    return 'This password is too common: it is on a list of passwords that attackers try first.';
  }
  if (/^(.)\1+$/u.test(password)) {
    return 'This password is too common: it repeats one character.';
  }
  return null;
}
