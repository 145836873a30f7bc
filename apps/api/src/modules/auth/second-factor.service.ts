import type {
  TokenPair,
  TotpEnrolRequest,
  TotpEnrolment,
  TotpLoginRequest,
} from '@candor/contracts';
import { Secret, TOTP } from 'otpauth';
import type { AuthConfig } from '../../config.js';
import { AppError, RateLimitedError } from '../../lib/app-error.js';
import { openJson, sealJson } from '../../lib/profile-seal.js';
import { InvalidTokenError, type TokenService } from '../../lib/tokens.js';
import type { AuthLimitsRepository } from './auth-limits.repository.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import { CONSECUTIVE_FAILURE_CAP, MAX_DELAY_MS, limitKey } from './password-limits.js';
import type { SecondFactorRepository } from './second-factor.repository.js';
import { SESSION_STATUSES } from './session-gate.js';
import type { SessionsService } from './sessions.service.js';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;
const DIGITS = 6;
/** Codes of the step before and after now are taken too (a phone's clock a little off). */
const WINDOW = 1;
const ISSUER = 'Candor';
/** Every sealed secret has one length (a base32 secret of 20 bytes is 32 characters). */
const SEALED_BYTES = 64;

export const WRONG_CODE =
  'That code is not right. Enter the newest code from your authenticator app.';
export const STEP_EXPIRED = 'This step has expired. Log in again with your password.';
const ALREADY_ENROLLED = 'This account already has a second factor. Enter its code.';
const CAPPED =
  'Too many wrong codes for this account. Ask another admin to reset your second factor.';
/** A streak of wrong codes nobody adds to for this long is forgotten. */
const STREAK_KEEP_MS = 30 * 24 * 3_600_000;

export interface SecondFactorServiceDeps {
  users: Pick<AuthRepository, 'findUserByUuid'>;
  sessions: Pick<SessionsService, 'issue'>;
  tokens: Pick<TokenService, 'verifyChallenge'>;
  limits: AuthLimitsRepository;
  /** Keys the limits' HMACs. */
  ipKey: Buffer;
  /** Seals TOTP secrets (keys.secondFactorSeal). */
  sealKey: Buffer;
  auth: Pick<AuthConfig, 'loginThrottleMinutes' | 'loginFailuresPerNumber'>;
  clock: () => Date;
}

/**
 * The second step of a staff login (decision 024): a TOTP code after the password, enrolled at
 * the first login. Codes are checked under the same kind of limits as passwords (decision 022),
 * per account: LOGIN_FAILURES_PER_NUMBER wrong codes per LOGIN_THROTTLE_MINUTES, then a delay
 * that doubles, and at most 100 in a row; each guess takes its slot before the code is checked,
 * so a burst of concurrent guesses gets no more. A right code is good once.
 */
export function createSecondFactorService(
  repo: SecondFactorRepository,
  { users, sessions, tokens, limits, ipKey, sealKey, auth, clock }: SecondFactorServiceDeps,
) {
  const windowMs = auth.loginThrottleMinutes * 60_000;

  /** The staff account a challenge is for, while it may still log in; else TOKEN_INVALID. */
  async function staffOf(challenge: string): Promise<UserRow> {
    let sub: string;
    try {
      ({ sub } = await tokens.verifyChallenge(challenge));
    } catch (err) {
      if (err instanceof InvalidTokenError) throw new AppError('TOKEN_INVALID', STEP_EXPIRED);
      throw err;
    }
    const user = await users.findUserByUuid(sub);
    if (!user || user.role === 'member' || !SESSION_STATUSES.has(user.status)) {
      throw new AppError('TOKEN_INVALID', STEP_EXPIRED);
    }
    return user;
  }

  const totpOf = (user: UserRow, secret: Secret) =>
    new TOTP({
      issuer: ISSUER,
      // The account's role, not its number: the URI is shown and may be photographed.
      label: `${user.role}-${user.uuid.slice(0, 8)}`,
      algorithm: 'SHA1',
      digits: DIGITS,
      period: PERIOD,
      secret,
    });

  /** Takes a slot of the account's limits before a code is checked, or 429 with the wait. */
  async function reserve(user: UserRow): Promise<{ window: string; streak: string }> {
    const now = clock();
    const keys = {
      window: limitKey(ipKey, 'totp:window', user.uuid),
      streak: limitKey(ipKey, 'totp:streak', user.uuid),
    };
    const refusedWindow = await limits.takeWindow(
      keys.window,
      auth.loginFailuresPerNumber,
      windowMs,
      now,
    );
    if (refusedWindow) throw new RateLimitedError(refusedWindow.retryInMs);
    const refusedStreak = await limits.takeStreak(
      keys.streak,
      {
        free: auth.loginFailuresPerNumber,
        cap: CONSECUTIVE_FAILURE_CAP,
        unitMs: 10_000,
        maxDelayMs: MAX_DELAY_MS,
        keepMs: STREAK_KEEP_MS,
        exempt: false,
      },
      now,
    );
    if (refusedStreak) {
      await limits.release(keys.window);
      throw new RateLimitedError(
        refusedStreak.retryInMs,
        refusedStreak.capped ? CAPPED : undefined,
      );
    }
    return keys;
  }

  return {
    /**
     * A new TOTP secret for an account without a confirmed second factor, to put in an
     * authenticator app; the first right code (loginWithTotp) confirms it. Asking again
     * replaces a secret not confirmed yet.
     */
    async enrolTotp({ challenge }: TotpEnrolRequest): Promise<TotpEnrolment> {
      const user = await staffOf(challenge);
      const secret = new Secret({ size: 20 });
      const sealed = sealJson(sealKey, secret.base32, () => SEALED_BYTES);
      if (!(await repo.startTotp(user.id, sealed, clock()))) {
        throw new AppError('INVALID_STATE', ALREADY_ENROLLED);
      }
      return { secret: secret.base32, uri: totpOf(user, secret).toString() };
    },

    /** The second step: a right, unused code from the account's authenticator -> a session. */
    async loginWithTotp({ challenge, code }: TotpLoginRequest): Promise<TokenPair> {
      const user = await staffOf(challenge);
      const keys = await reserve(user);
      let ok = false;
      try {
        const factor = await repo.findTotp(user.id);
        if (factor) {
          const secret = Secret.fromBase32(openJson(sealKey, factor.secretSealed) as string);
          const timestamp = clock().getTime();
          const delta = totpOf(user, secret).validate({ token: code, timestamp, window: WINDOW });
          if (delta !== null) {
            const step = TOTP.counter({ period: PERIOD, timestamp }) + delta;
            ok = await repo.spendStep(user.id, factor.secretSealed, step, clock());
          }
        }
      } catch (err) {
        // No verdict (the database failed): the guess does not count.
        await Promise.all([limits.release(keys.window), limits.release(keys.streak)]).catch(
          () => undefined,
        );
        throw err;
      }
      if (!ok) throw new AppError('OTP_INVALID', WRONG_CODE);
      await Promise.all([limits.clear(keys.window), limits.clear(keys.streak)]);
      return sessions.issue(user);
    },
  };
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
