import crypto from 'node:crypto';
import type { Role } from '@candor/contracts';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Keys } from './keys.js';
import { isUuid } from './uuid.js';

const ISSUER = 'candor';
const ACCESS = { typ: 'at+jwt', audience: 'candor:access' } as const;
const PASSWORD = { typ: 'pwd+jwt', audience: 'candor:set-password' } as const;
const CHALLENGE = { typ: 'sf+jwt', audience: 'candor:second-factor' } as const;
/** How long a staff member has, after a right password, to give the second factor. */
export const CHALLENGE_TOKEN_TTL_SECONDS = 10 * 60;
/** How long a set-password token from a verified code stays good. */
export const PASSWORD_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessClaims {
  /** The user's public uuid. */
  sub: string;
  role: Role;
  /**
   * The session (refresh-token family) the token was issued for: every request checks that it
   * is still live (plugins/auth.ts), so logging out ends the token at once. Every token names
   * one: a token without it could not be ended by any logout, and is refused.
   */
  sid: string;
}

export interface PasswordClaims {
  sub: string;
  /** The OTP challenge whose verification issued the token: spending it marks the challenge. */
  cid: number;
  /** When that verification happened (ms): a later verification of the same row is a new token. */
  vat: number;
}

export interface ChallengeClaims {
  /** The staff member's public uuid: the password was right for this account. */
  sub: string;
}

/** Thrown for any token that is not good: malformed, forged, expired, or of the wrong kind. */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
/** Access tokens remembered as verified (per process; the oldest leaves first). */
const VERIFIED_CACHE_SIZE = 20_000;

/** Access and set-password JWTs (HS256, jose) and the opaque refresh tokens. */
export function createTokenService(
  keys: Pick<Keys, 'accessToken' | 'passwordToken' | 'refreshChild' | 'challengeToken'>,
  { accessTtlSeconds, clock = () => new Date() }: { accessTtlSeconds: number; clock?: () => Date },
) {
  // jose imports a raw secret into WebCrypto on every call; import each key once instead (it is
  // on every authenticated request's path).
  const imported = new Map<Uint8Array, Promise<crypto.webcrypto.CryptoKey>>();
  const keyOf = (raw: Uint8Array) => {
    let key = imported.get(raw);
    if (!key) {
      key = crypto.webcrypto.subtle.importKey(
        'raw',
        raw,
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign', 'verify'],
      );
      imported.set(raw, key);
    }
    return key;
  };

  const verified = new Map<string, { claims: AccessClaims; exp: number }>();
  const knownAccess = (token: string): AccessClaims | undefined => {
    const known = verified.get(token);
    return known && known.exp > seconds(clock()) ? known.claims : undefined;
  };

  async function verify(
    token: string,
    raw: Uint8Array,
    kind: typeof ACCESS | typeof PASSWORD | typeof CHALLENGE,
  ) {
    try {
      const { payload } = await jwtVerify(token, await keyOf(raw), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: kind.audience,
        typ: kind.typ,
        currentDate: clock(),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      return payload;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) {
        throw new InvalidTokenError(err instanceof joseErrors.JOSEError ? err.code : 'malformed');
      }
      throw err;
    }
  }

  return {
    /** A short-lived access token for `claims.sub` with its role. */
    async signAccess(claims: AccessClaims): Promise<string> {
      const now = seconds(clock());
      return new SignJWT({ role: claims.role, sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256', typ: ACCESS.typ })
        .setIssuer(ISSUER)
        .setAudience(ACCESS.audience)
        .setSubject(claims.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + accessTtlSeconds)
        .sign(await keyOf(keys.accessToken));
    },

    /**
     * The claims of an access token verifyAccess() already found good, while it has not expired;
     * undefined for any other token (verifyAccess decides those). Synchronous: the hot path.
     */
    knownAccess,

    /**
     * The claims of a good access token. A token already verified is answered from memory
     * until it expires: the same exact string passed the signature check before, and a member
     * sends dozens of requests with one token.
     */
    async verifyAccess(token: string): Promise<AccessClaims> {
      const known = knownAccess(token);
      if (known) return known;
      const payload = await verify(token, keys.accessToken, ACCESS);
      const role = payload.role;
      if (role !== 'member' && role !== 'moderator' && role !== 'admin') {
        throw new InvalidTokenError('role');
      }
      // No session, no way to end the token: refused however good its signature.
      const { sid } = payload;
      if (typeof sid !== 'string' || !isUuid(sid)) throw new InvalidTokenError('sid');
      if (!isUuid(payload.sub!)) throw new InvalidTokenError('sub');
      const claims: AccessClaims = { sub: payload.sub!, role, sid };
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
      verified.set(token, { claims, exp: payload.exp! });
      return claims;
    },

    async signPassword(claims: PasswordClaims): Promise<string> {
      const now = seconds(clock());
      return new SignJWT({ cid: claims.cid, vat: claims.vat })
        .setProtectedHeader({ alg: 'HS256', typ: PASSWORD.typ })
        .setIssuer(ISSUER)
        .setAudience(PASSWORD.audience)
        .setSubject(claims.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + PASSWORD_TOKEN_TTL_SECONDS)
        .sign(await keyOf(keys.passwordToken));
    },

    async verifyPassword(token: string): Promise<PasswordClaims> {
      const payload = await verify(token, keys.passwordToken, PASSWORD);
      const { cid, vat } = payload;
      if (!Number.isSafeInteger(cid) || !Number.isSafeInteger(vat)) {
        throw new InvalidTokenError('claims');
      }
      return { sub: payload.sub!, cid: cid as number, vat: vat as number };
    },

    /**
     * The second step of a staff login (decision 024): proves the password was right a moment
     * ago, and nothing else. It opens no API route; only the second-factor calls take it.
     */
    async signChallenge(claims: ChallengeClaims): Promise<string> {
      const now = seconds(clock());
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: CHALLENGE.typ })
        .setIssuer(ISSUER)
        .setAudience(CHALLENGE.audience)
        .setSubject(claims.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + CHALLENGE_TOKEN_TTL_SECONDS)
        .sign(await keyOf(keys.challengeToken));
    },

    async verifyChallenge(token: string): Promise<ChallengeClaims> {
      const payload = await verify(token, keys.challengeToken, CHALLENGE);
      if (!isUuid(payload.sub!)) throw new InvalidTokenError('sub');
      return { sub: payload.sub! };
    },

    /** A new opaque refresh token: 256 random bits. */
    newRefresh(): string {
      return crypto.randomBytes(32).toString('base64url');
    },

    /**
     * The token that rotating `parent` yields: an HMAC of the parent under a server key. Only
     * someone holding the parent gets it, and the server can hand the same child out again
     * during the grace window without ever storing a token.
     */
    childRefresh(parent: string): string {
      return crypto.createHmac('sha256', keys.refreshChild).update(parent).digest('base64url');
    },

    /** What the database keeps of a refresh token. */
    hashRefresh(token: string): string {
      return crypto.createHash('sha256').update(token).digest('hex');
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
