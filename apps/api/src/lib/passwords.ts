import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { isLoginSecret, passwordProblem as checkPassword } from '@candor/contracts';
import { dictionary } from '@zxcvbn-ts/language-common';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

// OWASP's scrypt floor (N=2^17 is nicer but 128 MiB per hash is a DoS lever on 2 cores).
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function maxmem(N: number, r: number): number {
  // scrypt needs 128 * N * r bytes; leave headroom for Node's own accounting.
  return 256 * N * r;
}

let scryptRuns = 0;

/**
 * How many password hashes (scrypt runs) this process has computed for hashing or checking,
 * so tests can show that every branch of a request does the same work (timing says nothing).
 */
export function passwordHashCount(): number {
  return scryptRuns;
}

/** `scrypt$N$r$p$salt$hash`: the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  scryptRuns += 1;
  return hashUncounted(password);
}

async function hashUncounted(password: string): Promise<string> {
  const salt = crypto.randomBytes(SALT_LENGTH);
  const { N, r, p } = PARAMS;
  const hash = await scrypt(password.normalize('NFC'), salt, KEY_LENGTH, {
    N,
    r,
    p,
    maxmem: maxmem(N, r),
  });
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** True when `password` matches `stored`; a malformed `stored` never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return false;
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  if (![N, R, P].every((v) => Number.isInteger(v) && v > 0)) return false;
  const expected = Buffer.from(hashText, 'base64url');
  scryptRuns += 1;
  const actual = await scrypt(
    password.normalize('NFC'),
    Buffer.from(saltText, 'base64url'),
    expected.length,
    { N, r: R, p: P, maxmem: maxmem(N, R) },
  );
  return crypto.timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;

/** Spends the same scrypt work as a real check, for unknown numbers (timing says nothing). */
export async function burnPasswordCheck(password: string): Promise<false> {
  // Made once per process, not per request: not counted.
  dummyHash ??= hashUncounted(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummyHash);
  return false;
}

let common: Set<string> | undefined;

/**
 * The reason a password is refused, in words, or null when it is fine (the contracts' rule,
 * with the common-password list). A login secret (`cs1.`, decision 020) is what the web app
 * sends: it is made on the device, which checked the password itself against the same rule
 * and list, since only the device ever has it.
 */
export function passwordProblem(password: string): string | null {
  if (isLoginSecret(password)) return null;
  common ??= new Set(dictionary['passwords-common']);
  return checkPassword(password, common);
}
