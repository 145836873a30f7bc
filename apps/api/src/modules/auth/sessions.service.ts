import crypto from 'node:crypto';
import type {
  LoginRequest,
  LoginResponse,
  SecondFactorRequired,
  TokenPair,
} from '@candor/contracts';
import type { AuthConfig } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import { burnPasswordCheck, verifyPassword } from '../../lib/passwords.js';
import { normalisePhone } from '../../lib/phone.js';
import type { TokenService } from '../../lib/tokens.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import type { PasswordLimits } from './password-limits.js';
import type { SecondFactorRepository } from './second-factor.repository.js';
import { SESSION_STATUSES } from './session-gate.js';

export const LOGIN_FAILED = 'The phone number or password is not right.';

/** Staff sign in again after 30 minutes without a refresh, and 12 hours after login (ASVS L2). */
export const STAFF_IDLE_SECONDS = 30 * 60;
export const STAFF_MAX_AGE_SECONDS = 12 * 3600;

export interface SessionsServiceDeps {
  tokens: TokenService;
  passwordLimits: PasswordLimits;
  auth: Pick<
    AuthConfig,
    | 'defaultPhoneRegion'
    | 'refreshTokenTtlSeconds'
    | 'sessionMaxAgeSeconds'
    | 'refreshReuseGraceSeconds'
  >;
  /** Whether a staff account has its second factor yet (decision 024). */
  secondFactors: Pick<SecondFactorRepository, 'enrolled' | 'hasPasskey'>;
  clock: () => Date;
}

/**
 * Sessions: login by phone and password, access + rotating refresh tokens, logout. Each
 * session is a refresh-token family; plugins/auth.ts checks access tokens against it per
 * request through the session gate (session-gate.ts).
 */
export function createSessionsService(
  repo: Pick<
    AuthRepository,
    'findUserByPhone' | 'insertRefreshToken' | 'rotate' | 'revokeFamily' | 'findRefreshByHash'
  >,
  { tokens, passwordLimits, auth, secondFactors, clock }: SessionsServiceDeps,
) {
  /**
   * When a refresh token given now ends: after the role's idle time, and never past the
   * session's end (its login plus the role's lifetime). A member's session slides for 30 days
   * between uses up to SESSION_MAX_AGE; staff's for 30 minutes up to 12 hours.
   */
  function expiryOf(role: UserRow['role'], start: Date, now: Date): Date {
    const [idle, max] =
      role === 'member'
        ? [auth.refreshTokenTtlSeconds, auth.sessionMaxAgeSeconds]
        : [STAFF_IDLE_SECONDS, STAFF_MAX_AGE_SECONDS];
    return new Date(Math.min(now.getTime() + idle * 1000, start.getTime() + max * 1000));
  }

  /** A new session for the user: an access token naming it and its first refresh token. */
  async function issue(user: UserRow): Promise<TokenPair> {
    const refresh = tokens.newRefresh();
    const now = clock();
    const familyId = crypto.randomUUID();
    await repo.insertRefreshToken({
      userId: user.id,
      familyId,
      tokenHash: tokens.hashRefresh(refresh),
      expiresAt: expiryOf(user.role, now, now),
      // Staff reach this only through their second factor (signIn, second-factor.service.ts).
      secondFactor: user.role !== 'member',
      createdAt: now,
    });
    // The access token names its session: logging out ends it at once (plugins/auth.ts).
    return {
      access: await tokens.signAccess({ sub: user.uuid, role: user.role, sid: familyId }),
      refresh,
    };
  }

  /**
   * What a right password (or a new one set with a texted code) gets: a member, a session; a
   * moderator or admin, only the second step (decision 024): a short-lived challenge that opens
   * no route, to go with a code from their authenticator, enrolled now if they have none.
   */
  async function signIn(user: UserRow): Promise<TokenPair | SecondFactorRequired> {
    if (user.role === 'member') return issue(user);
    const [enrolled, passkey] = await Promise.all([
      secondFactors.enrolled(user.id),
      secondFactors.hasPasskey(user.id),
    ]);
    return {
      status: 'second_factor_required',
      challenge: await tokens.signChallenge({ sub: user.uuid }),
      enrol: !enrolled,
      // The preferred first: a passkey once the account has one, its TOTP always.
      methods: passkey ? ['passkey', 'totp'] : ['totp'],
    };
  }

  return {
    /** A session for the user; for staff, only once their second factor was given. */
    issue,
    signIn,

    /**
     * Phone + password -> tokens and a device token. Every failure looks the same and costs the
     * same. Each attempt takes its slots in the limits (password-limits.ts) before the password
     * is checked; a failure keeps them, a success ends the number's streak.
     */
    async login(
      body: LoginRequest,
      ip: string,
      deviceToken?: unknown,
    ): Promise<LoginResponse & { device: string }> {
      const phone = normalisePhone(body.phone_number, auth.defaultPhoneRegion);
      const device = passwordLimits.deviceOf(phone.e164, deviceToken);
      const client = { device, ip };
      const keys = passwordLimits.keysOf(phone.e164, client);
      await passwordLimits.reserve(keys, client);

      let user: UserRow | undefined;
      let passwordOk: boolean;
      try {
        user = await repo.findUserByPhone(phone.e164);
        passwordOk = user?.passwordHash
          ? await verifyPassword(body.password, user.passwordHash)
          : await burnPasswordCheck(body.password);
      } catch (err) {
        // No verdict was reached (the database failed): the attempt does not count.
        await passwordLimits.undo(keys).catch(() => {
          // The error to report is the one below; a failed release only counts this attempt.
        });
        throw err;
      }
      if (!user || !passwordOk || !SESSION_STATUSES.has(user.status)) {
        throw new AppError('VALIDATION_FAILED', LOGIN_FAILED, { non_field_errors: [LOGIN_FAILED] });
      }
      await passwordLimits.succeeded(keys);
      // The device keeps its token (and so its own allowance); a new device gets one.
      const signedIn = await signIn(user);
      return {
        ...signedIn,
        device:
          typeof deviceToken === 'string' && device
            ? deviceToken
            : passwordLimits.issueDevice(phone.e164),
      };
    },

    /**
     * Rotates a refresh token. A token presented again within the grace window of its first use
     * gets the same child (two tabs refreshing at once); later, the whole family is revoked. A
     * session past its end (idle too long, or older than its role's lifetime) is refused: the
     * person logs in again.
     */
    async refresh(raw: string): Promise<TokenPair> {
      const now = clock();
      const child = tokens.childRefresh(raw);
      const result = await repo.rotate(
        tokens.hashRefresh(raw),
        (row, user, start) => {
          const ends = expiryOf(user.role, start, now);
          if (
            row.revokedAt ||
            row.expiresAt <= now ||
            ends <= now ||
            !SESSION_STATUSES.has(user.status) ||
            // A staff role on a session opened without the second factor (a role written by
            // hand; the API ends sessions on every role change): log in again (decision 024).
            (user.role !== 'member' && !row.secondFactor)
          ) {
            return null;
          }
          if (row.usedAt) {
            const sinceUse = now.getTime() - row.usedAt.getTime();
            return sinceUse <= auth.refreshReuseGraceSeconds * 1000 ? { kind: 'grace' } : null;
          }
          return {
            kind: 'rotate',
            child: {
              userId: row.userId,
              familyId: row.familyId,
              tokenHash: tokens.hashRefresh(child),
              parentId: row.id,
              secondFactor: row.secondFactor,
              expiresAt: ends,
              createdAt: now,
            },
          };
        },
        now,
      );
      if (result.outcome === 'refused') {
        // Reuse after the grace window, or a session of a suspended user: end the family.
        if (
          result.row &&
          !result.row.revokedAt &&
          (result.row.usedAt || result.row.expiresAt > now)
        ) {
          await repo.revokeFamily(result.row.familyId, now);
        }
        throw new AppError('TOKEN_INVALID');
      }
      const { user, row } = result;
      return {
        access: await tokens.signAccess({ sub: user.uuid, role: user.role, sid: row.familyId }),
        refresh: child,
      };
    },

    /** Ends the session the refresh token belongs to (its whole family). Idempotent. */
    async logout(raw: string): Promise<void> {
      const row = await repo.findRefreshByHash(tokens.hashRefresh(raw));
      if (row) await repo.revokeFamily(row.familyId, clock());
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
