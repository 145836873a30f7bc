import type {
  Passkey,
  PasskeyList,
  PasskeyLoginOptions,
  PasskeyLoginRequest,
  PasskeyOptionsRequest,
  PasskeyRegisterRequest,
  PasskeyRegistrationOptions,
  TokenPair,
  TotpEnrolRequest,
  TotpEnrolment,
  TotpLoginRequest,
} from '@candor/contracts';
import {
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { Secret, TOTP } from 'otpauth';
import type { AuthConfig, WebauthnConfig } from '../../config.js';
import { AppError, RateLimitedError } from '../../lib/app-error.js';
import { openJson, sealJson } from '../../lib/profile-seal.js';
import { InvalidTokenError, type TokenService } from '../../lib/tokens.js';
import { isUuid } from '../../lib/uuid.js';
import type { AuthLimitsRepository } from './auth-limits.repository.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import { CONSECUTIVE_FAILURE_CAP, MAX_DELAY_MS, limitKey } from './password-limits.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type {
  SecondFactorRepository,
  StaffPasskeyRow,
  WebauthnPurpose,
} from './second-factor.repository.js';
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

/** How long the browser's passkey prompt may stay open, and its challenge kept a little longer. */
const WEBAUTHN_TIMEOUT_MS = 2 * 60_000;
const WEBAUTHN_CHALLENGE_TTL_MS = WEBAUTHN_TIMEOUT_MS + 60_000;
/** Passkeys one account may hold (a list people can read; rows an account cannot pile up). */
const MAX_PASSKEYS = 10;
/**
 * Adding or removing a passkey needs the session's second step this recently (a step-up, as
 * banks ask): a session left open, or a stolen access token, cannot plant a passkey of its own.
 */
export const STEP_UP_MS = 10 * 60_000;
export const PASSKEY_REFUSED =
  'That passkey did not answer for this account. Try again, or enter a code from your authenticator app.';
const PASSKEY_NOT_ADDED = 'The new passkey could not be checked. Try adding it again.';
const NO_PASSKEY = 'This account has no passkey. Enter a code from your authenticator app.';
const PASSKEY_KNOWN = 'This passkey is on an account already.';
const TOO_MANY_PASSKEYS = `An account holds at most ${MAX_PASSKEYS} passkeys. Remove one first.`;
const LAST_FACTOR = 'This is your only second factor: add another before removing it.';

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
  /** The passkeys' relying party: the RP id and the origins a passkey's answer may come from. */
  webauthn: WebauthnConfig;
  audit: Pick<AuditService, 'record'>;
  clock: () => Date;
}

/** A signed-in staff member and the session their request came with. */
type SessionActor = Actor & { sid: string };

const toPasskey = (row: StaffPasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  transports: row.transports,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

const transportsOf = (row: StaffPasskeyRow) => row.transports as AuthenticatorTransport[];

/**
 * The second step of a staff login (decision 024): a TOTP code after the password, enrolled at
 * the first login. Codes are checked under the same kind of limits as passwords (decision 022),
 * per account: LOGIN_FAILURES_PER_NUMBER wrong codes per LOGIN_THROTTLE_MINUTES, then a delay
 * that doubles, and at most 100 in a row; each guess takes its slot before the code is checked,
 * so a burst of concurrent guesses gets no more. A right code is good once.
 */
export function createSecondFactorService(
  repo: SecondFactorRepository,
  {
    users,
    sessions,
    tokens,
    limits,
    ipKey,
    sealKey,
    auth,
    webauthn,
    audit,
    clock,
  }: SecondFactorServiceDeps,
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

  /**
   * Takes a slot of the account's limits before a code or a passkey's answer is checked, or 429
   * with the wait. Codes and passkeys share the slots (the keys kept their first name).
   */
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

  /** No verdict (the database failed): the guess does not count. */
  const release = (keys: { window: string; streak: string }) =>
    Promise.all([limits.release(keys.window), limits.release(keys.streak)]).catch(() => undefined);

  /** Keeps the challenge of options made for a ceremony until it is answered or expires. */
  const keepChallenge = (userId: number, purpose: WebauthnPurpose, challenge: string) => {
    const now = clock();
    return repo.putChallenge(
      userId,
      purpose,
      challenge,
      new Date(now.getTime() + WEBAUTHN_CHALLENGE_TTL_MS),
      now,
    );
  };

  /**
   * The expectedChallenge of @simplewebauthn/server's checks: takes the answer's challenge if it
   * was made for this account and ceremony and not taken yet (once, atomically). A database
   * failure is kept aside, to be thrown as one rather than read as a wrong answer.
   */
  function challengeTaker(userId: number, purpose: WebauthnPurpose) {
    const state: { failure?: Error } = {};
    const take = async (challenge: string) => {
      try {
        return await repo.takeChallenge(userId, purpose, challenge, clock());
      } catch (err) {
        state.failure = err instanceof Error ? err : new Error(String(err));
        return false;
      }
    };
    return { take, state };
  }

  /** The signed-in staff member (the staff scope checked the role; the row says the rest). */
  async function self(actor: Actor): Promise<UserRow> {
    const user = await users.findUserByUuid(actor.uuid);
    if (!user) throw new AppError('UNAUTHENTICATED');
    return user;
  }

  /** The account, when its session gave its second factor within STEP_UP_MS. */
  async function steppedUp(actor: SessionActor): Promise<UserRow> {
    const user = await self(actor);
    const at = await repo.secondStepAt(user.id, actor.sid);
    if (!at || clock().getTime() - at.getTime() > STEP_UP_MS) {
      throw new AppError('REAUTH_REQUIRED');
    }
    return user;
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
        await release(keys);
        throw err;
      }
      if (!ok) throw new AppError('OTP_INVALID', WRONG_CODE);
      await Promise.all([limits.clear(keys.window), limits.clear(keys.streak)]);
      return sessions.issue(user);
    },

    /**
     * What navigator.credentials.get is asked with at a login's second step: a new challenge
     * (kept server side, taken once, for a few minutes) and the account's passkeys.
     */
    async passkeyLoginOptions({ challenge }: PasskeyOptionsRequest): Promise<PasskeyLoginOptions> {
      const user = await staffOf(challenge);
      const passkeys = await repo.listPasskeys(user.id);
      if (passkeys.length === 0) throw new AppError('INVALID_STATE', NO_PASSKEY);
      const options = await generateAuthenticationOptions({
        rpID: webauthn.rpId,
        allowCredentials: passkeys.map((p) => ({
          id: p.credentialId,
          transports: transportsOf(p),
        })),
        userVerification: 'preferred',
        timeout: WEBAUTHN_TIMEOUT_MS,
      });
      await keepChallenge(user.id, 'login', options.challenge);
      return options as PasskeyLoginOptions;
    },

    /**
     * The second step with a passkey: its answer must be signed by one of this account's
     * passkeys, over a challenge made for this account and not used yet, from a configured
     * origin for the configured RP id, with a signature counter past the stored one (unless the
     * authenticator keeps none). Counted against the same limits as codes.
     */
    async loginWithPasskey({ challenge, response }: PasskeyLoginRequest): Promise<TokenPair> {
      const user = await staffOf(challenge);
      const keys = await reserve(user);
      let ok = false;
      const taker = challengeTaker(user.id, 'login');
      try {
        const passkey = await repo.findPasskey(user.id, response.id);
        if (passkey) {
          const verdict = await verifyAuthenticationResponse({
            response,
            expectedChallenge: taker.take,
            expectedOrigin: webauthn.origins,
            expectedRPID: webauthn.rpId,
            expectedType: 'webauthn.get',
            credential: {
              id: passkey.credentialId,
              publicKey: isoBase64URL.toBuffer(passkey.publicKey),
              counter: passkey.counter,
              transports: transportsOf(passkey),
            },
            // The passkey is the second factor after a password: its presence is enough.
            requireUserVerification: false,
          }).catch(() => null);
          if (taker.state.failure) throw taker.state.failure;
          if (verdict?.verified) {
            ok = await repo.spendCounter(
              passkey.id,
              passkey.counter,
              verdict.authenticationInfo.newCounter,
              clock(),
            );
          }
        }
      } catch (err) {
        await release(keys);
        throw err;
      }
      if (!ok) throw new AppError('PASSKEY_INVALID', PASSKEY_REFUSED);
      await Promise.all([limits.clear(keys.window), limits.clear(keys.streak)]);
      return sessions.issue(user);
    },

    /** The signed-in staff member's passkeys, and whether they have a TOTP authenticator too. */
    async listPasskeys(actor: Actor): Promise<PasskeyList> {
      const user = await self(actor);
      const [rows, totp] = await Promise.all([repo.listPasskeys(user.id), repo.enrolled(user.id)]);
      return { results: rows.map(toPasskey), totp };
    },

    /** What navigator.credentials.create is asked with to add a passkey to one's own account. */
    async passkeyRegistrationOptions(actor: SessionActor): Promise<PasskeyRegistrationOptions> {
      const user = await steppedUp(actor);
      const passkeys = await repo.listPasskeys(user.id);
      if (passkeys.length >= MAX_PASSKEYS) throw new AppError('INVALID_STATE', TOO_MANY_PASSKEYS);
      const options = await generateRegistrationOptions({
        rpName: ISSUER,
        rpID: webauthn.rpId,
        // The role and a uuid prefix, as the TOTP label: never the phone number.
        userName: `${user.role}-${user.uuid.slice(0, 8)}`,
        userDisplayName: `Candor ${user.role}`,
        userID: new Uint8Array(Buffer.from(user.uuid.replace(/-/g, ''), 'hex')),
        attestationType: 'none',
        excludeCredentials: passkeys.map((p) => ({
          id: p.credentialId,
          transports: transportsOf(p),
        })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        timeout: WEBAUTHN_TIMEOUT_MS,
      });
      await keepChallenge(user.id, 'register', options.challenge);
      return options as PasskeyRegistrationOptions;
    },

    /** Adds the new passkey whose attestation answers a registration challenge of this account. */
    async addPasskey(
      actor: SessionActor,
      { response, name }: PasskeyRegisterRequest,
    ): Promise<Passkey> {
      const user = await steppedUp(actor);
      const taker = challengeTaker(user.id, 'register');
      const verdict = await verifyRegistrationResponse({
        response,
        expectedChallenge: taker.take,
        expectedOrigin: webauthn.origins,
        expectedRPID: webauthn.rpId,
        requireUserVerification: false,
      }).catch(() => null);
      if (taker.state.failure) throw taker.state.failure;
      if (!verdict?.verified) throw new AppError('PASSKEY_INVALID', PASSKEY_NOT_ADDED);
      const { credential } = verdict.registrationInfo;
      if ((await repo.listPasskeys(user.id)).length >= MAX_PASSKEYS) {
        throw new AppError('INVALID_STATE', TOO_MANY_PASSKEYS);
      }
      const now = clock();
      const added = await repo.addPasskey({
        userId: user.id,
        credentialId: credential.id,
        name: name ?? 'Passkey',
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? response.response.transports ?? [],
        createdAt: now,
      });
      if (!added) throw new AppError('INVALID_STATE', PASSKEY_KNOWN);
      await audit.record(actor, 'user.passkey_add', `user:${user.uuid}`);
      return toPasskey(added);
    },

    /** Removes one of one's own passkeys, keeping at least one second factor. */
    async removePasskey(actor: SessionActor, id: string): Promise<void> {
      if (!isUuid(id)) throw new AppError('NOT_FOUND');
      const user = await steppedUp(actor);
      const [rows, totp] = await Promise.all([repo.listPasskeys(user.id), repo.enrolled(user.id)]);
      if (!rows.some((r) => r.id === id)) throw new AppError('NOT_FOUND');
      if (!totp && rows.length === 1) throw new AppError('INVALID_STATE', LAST_FACTOR);
      if (!(await repo.removePasskey(user.id, id))) throw new AppError('NOT_FOUND');
      await audit.record(actor, 'user.passkey_remove', `user:${user.uuid}`);
    },
  };
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
