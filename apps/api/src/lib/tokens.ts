import crypto from 'node:crypto';
import type { Role } from '@candor/contracts';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Keys } from './keys.js';

const ISSUER = 'candor';
const ACCESS = { typ: 'at+jwt', audience: 'candor:access' } as const;
const PASSWORD = { typ: 'pwd+jwt', audience: 'candor:set-password' } as const;
/** How long a set-password token from a verified code stays good. */
export const PASSWORD_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessClaims {
  /** The user's public uuid. */
  sub: string;
  role: Role;
}

export interface PasswordClaims {
  sub: string;
  /** The OTP challenge whose verification issued the token: spending it marks the challenge. */
  cid: number;
  /** When that verification happened (ms): a later verification of the same row is a new token. */
  vat: number;
}

/** Thrown for any token that is not good: malformed, forged, expired, or of the wrong kind. */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** Access and set-password JWTs (HS256, jose) and the opaque refresh tokens. */
export function createTokenService(
  keys: Pick<Keys, 'accessToken' | 'passwordToken' | 'refreshChild'>,
  { accessTtlSeconds, clock = () => new Date() }: { accessTtlSeconds: number; clock?: () => Date },
) {
  async function verify(token: string, key: Uint8Array, kind: typeof ACCESS | typeof PASSWORD) {
    try {
      const { payload } = await jwtVerify(token, key, {
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
    signAccess(claims: AccessClaims): Promise<string> {
      const now = seconds(clock());
      return new SignJWT({ role: claims.role })
        .setProtectedHeader({ alg: 'HS256', typ: ACCESS.typ })
        .setIssuer(ISSUER)
        .setAudience(ACCESS.audience)
        .setSubject(claims.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + accessTtlSeconds)
        .sign(keys.accessToken);
    },

    async verifyAccess(token: string): Promise<AccessClaims> {
      const payload = await verify(token, keys.accessToken, ACCESS);
      const role = payload.role;
      if (role !== 'member' && role !== 'moderator' && role !== 'admin') {
        throw new InvalidTokenError('role');
      }
      return { sub: payload.sub!, role };
    },

    signPassword(claims: PasswordClaims): Promise<string> {
      const now = seconds(clock());
      return new SignJWT({ cid: claims.cid, vat: claims.vat })
        .setProtectedHeader({ alg: 'HS256', typ: PASSWORD.typ })
        .setIssuer(ISSUER)
        .setAudience(PASSWORD.audience)
        .setSubject(claims.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + PASSWORD_TOKEN_TTL_SECONDS)
        .sign(keys.passwordToken);
    },

    async verifyPassword(token: string): Promise<PasswordClaims> {
      const payload = await verify(token, keys.passwordToken, PASSWORD);
      const { cid, vat } = payload;
      if (!Number.isSafeInteger(cid) || !Number.isSafeInteger(vat)) {
        throw new InvalidTokenError('claims');
      }
      return { sub: payload.sub!, cid: cid as number, vat: vat as number };
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
