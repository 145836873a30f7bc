import {
  type CodeSent,
  type ForgotPasswordRequest,
  type LoginResponse,
  type ResendOtpRequest,
  type SetPasswordRequest,
  type SignupRequest,
  type VerifyRequest,
  type VerifyResponse,
  needsSecondFactor,
} from '@candor/contracts';
import type { AuthConfig, SmsConfig } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import { hmacHex } from '../../lib/keys.js';
import {
  burnPasswordCheck,
  hashPassword,
  passwordProblem,
  verifyPassword,
} from '../../lib/passwords.js';
import { type Phone, normalisePhone } from '../../lib/phone.js';
import { InvalidTokenError, type TokenService } from '../../lib/tokens.js';
import type { AuthRepository, ChallengeRow, UserRow } from './auth.repository.js';
import type { Codes } from './codes.js';
import type { Client, PasswordLimits } from './password-limits.js';
import { SESSION_STATUSES } from './session-gate.js';
import type { SessionsService } from './sessions.service.js';
import { PHONE_PREFIX_DIGITS, riskReasons } from './signup-risk.js';

const DAY_MS = 24 * 3_600_000;

export const CODE_SENT: CodeSent = {
  detail: 'If that number can receive it, a 6-digit code is on its way by text message.',
};
const PASSWORD_STEP_EXPIRED =
  'This step has expired or was already used. Ask for a new code and start again.';

function fieldError(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', undefined, { [field]: [message] });
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw fieldError('password', problem);
}

export interface SignupServiceDeps {
  codes: Codes;
  /** Device tokens, and the account's failure streak a reset by code ends. */
  passwordLimits: Pick<PasswordLimits, 'deviceOf' | 'clearAccount'>;
  /** A verified number with a password logs in at once. */
  sessions: Pick<SessionsService, 'signIn'>;
  tokens: Pick<TokenService, 'signPassword' | 'verifyPassword'>;
  /** Keys the IP hashes of the signup events (risk checks). */
  ipKey: Buffer;
  auth: Pick<AuthConfig, 'defaultPhoneRegion' | 'reviewAllSignups'>;
  smsConfig: Pick<SmsConfig, 'allowedCountries'>;
  clock: () => Date;
}

/** Signup by SMS code, verification, and passwords (chosen after verifying, or reset by code). */
export function createSignupService(
  repo: Pick<
    AuthRepository,
    | 'findUserByPhone'
    | 'findUserByUuid'
    | 'insertUser'
    | 'updateUser'
    | 'revokeAllOfUser'
    | 'consumePasswordToken'
    | 'insertSignupEvent'
    | 'countSignupEvents'
  >,
  deps: SignupServiceDeps,
) {
  const { codes, sessions, tokens, auth, smsConfig, passwordLimits, clock } = deps;

  /** The client of a request: a device the number's owner logged in on, else its address. */
  const clientOf = (phone: Phone, ip: string, device: unknown): Client => ({
    device: passwordLimits.deviceOf(phone.e164, device),
    ip,
  });

  function phoneOf(input: string, region?: string): Phone {
    return normalisePhone(input, region ?? auth.defaultPhoneRegion);
  }

  function checkCountry(phone: Phone): void {
    const allowed = smsConfig.allowedCountries;
    if (allowed.includes('*') || allowed.includes(phone.country)) return;
    throw fieldError('phone_number', 'Candor cannot send text messages to this country yet.');
  }

  async function replacePassword(user: UserRow, password: string): Promise<LoginResponse> {
    const passwordHash = await hashPassword(password);
    // The owner proved the number: the account's failure streak and its cap end.
    await passwordLimits.clearAccount(user.phoneE164);
    // Every session made with the old password ends before the new one starts.
    await repo.revokeAllOfUser(user.id, clock());
    const updated = await repo.updateUser(user.id, { passwordHash });
    // Staff still give their second factor: a texted code is not one (decision 024).
    return sessions.signIn(updated ?? user);
  }

  async function passwordToken(user: UserRow, challenge: ChallengeRow): Promise<VerifyResponse> {
    return {
      status: 'password_required',
      password_token: await tokens.signPassword({
        sub: user.uuid,
        cid: challenge.id,
        vat: challenge.usedAt!.getTime(),
      }),
    };
  }

  async function verifySignup(user: UserRow, phone: Phone, ip: string): Promise<UserRow> {
    const now = clock();
    const since = new Date(now.getTime() - DAY_MS);
    const ipHash = hmacHex(deps.ipKey, ip);
    const phonePrefix = phone.e164.replace(/^\+/, '').slice(0, PHONE_PREFIX_DIGITS);
    await repo.insertSignupEvent(ipHash, phonePrefix, now);
    const [signupsFromIp, signupsFromPrefix] = await Promise.all([
      repo.countSignupEvents(since, { ipHash }),
      repo.countSignupEvents(since, { phonePrefix }),
    ]);
    const reasons = riskReasons({
      type: phone.type,
      signupsFromIp,
      signupsFromPrefix,
      reviewAll: auth.reviewAllSignups,
    });
    const verified = await repo.updateUser(
      user.id,
      {
        status: reasons.length ? 'under_review' : 'active',
        riskReasons: reasons,
        phoneVerifiedAt: now,
      },
      'pending',
    );
    if (!verified) throw new AppError('OTP_INVALID');
    return verified;
  }

  /** A new code for the number, with no wrong tries yet (decision 022); same answer for all. */
  async function resend(body: ResendOtpRequest, ip: string, device?: unknown): Promise<CodeSent> {
    const phone = phoneOf(body.phone_number);
    checkCountry(phone);
    const client = clientOf(phone, ip, device);
    const user = await repo.findUserByPhone(phone.e164);
    const wanted =
      body.purpose === 'signup'
        ? user?.status === 'pending'
        : user !== undefined && SESSION_STATUSES.has(user.status);
    await codes.spendAllowance(phone, client);
    if (wanted) await codes.send(phone.e164, body.purpose, client);
    else await codes.sendNone(phone.e164, body.purpose, client);
    return CODE_SENT;
  }

  return {
    resend,

    /** Starts a signup; answers the same whether or not the number has an account. */
    async signup(body: SignupRequest, ip: string, device?: unknown): Promise<CodeSent> {
      const phone = phoneOf(body.phone_number, body.country);
      checkCountry(phone);
      const client = clientOf(phone, ip, device);
      const { password } = body;
      if (password !== undefined) checkPassword(password);
      const registered = await repo.findUserByPhone(phone.e164);
      // Counted before any password work: a burst past the limit costs no scrypt.
      await codes.spendAllowance(phone, client);

      // With a password, every branch below runs scrypt exactly once (hash it, check it against
      // the pending signup's, or burn the same work), so the time of the reply does not tell a
      // new, a pending and a registered number apart. Without one, none runs.
      const profile = {
        name: body.name ?? '',
        country: body.country,
      };
      let user = registered;
      if (user && user.status !== 'pending') {
        if (password !== undefined) await burnPasswordCheck(password);
        await codes.sendNone(phone.e164, 'signup', client);
        await codes.warnRegistered(phone.e164);
        return CODE_SENT;
      }
      if (user) {
        // A repeated signup for a number not verified yet may come from anyone: it must not plant
        // a password the owner would then verify into. Only the same password survives; any
        // other makes verify ask the code's holder to choose one.
        let samePassword = false;
        if (password !== undefined) {
          samePassword = user.passwordHash
            ? await verifyPassword(password, user.passwordHash)
            : await burnPasswordCheck(password);
        }
        user = await repo.updateUser(
          user.id,
          { ...profile, passwordHash: samePassword ? user.passwordHash : null },
          'pending',
        );
      } else {
        const passwordHash = password === undefined ? null : await hashPassword(password);
        user = await repo.insertUser({ phoneE164: phone.e164, ...profile, passwordHash });
      }
      // Lost a race with a concurrent signup or verification of the same number: it has the code.
      if (user) await codes.send(phone.e164, 'signup', client);
      return CODE_SENT;
    },

    /** Sends a reset code to a verified account only; same answer for all. */
    async forgotPassword(
      body: ForgotPasswordRequest,
      ip: string,
      device?: unknown,
    ): Promise<CodeSent> {
      return resend({ phone_number: body.phone_number, purpose: 'reset' }, ip, device);
    },

    /** A right code verifies the number (signup) or authorises a new password (reset). */
    async verify(body: VerifyRequest, ip: string, device?: unknown): Promise<VerifyResponse> {
      const phone = phoneOf(body.phone_number);
      const challenge = await codes.spend(
        phone.e164,
        body.purpose,
        body.otp,
        clientOf(phone, ip, device),
      );
      const user = await repo.findUserByPhone(phone.e164);
      if (!user) throw new AppError('OTP_INVALID');
      if (body.purpose === 'reset') {
        if (!SESSION_STATUSES.has(user.status)) throw new AppError('OTP_INVALID');
        return passwordToken(user, challenge);
      }
      if (user.status !== 'pending') throw new AppError('OTP_INVALID');
      const verified = await verifySignup(user, phone, ip);
      if (verified.passwordHash) {
        const signedIn = await sessions.signIn(verified);
        return needsSecondFactor(signedIn) ? signedIn : { status: 'logged_in', ...signedIn };
      }
      return passwordToken(verified, challenge);
    },

    /** Sets the password after verification or with a reset code; logs in. */
    async setPassword(body: SetPasswordRequest, ip = '', device?: unknown): Promise<LoginResponse> {
      checkPassword(body.password);
      if ('password_token' in body) {
        let claims;
        try {
          claims = await tokens.verifyPassword(body.password_token);
        } catch (err) {
          if (err instanceof InvalidTokenError) {
            throw new AppError('OTP_INVALID', PASSWORD_STEP_EXPIRED);
          }
          throw err;
        }
        const user = await repo.findUserByUuid(claims.sub);
        if (!user || !SESSION_STATUSES.has(user.status)) {
          throw new AppError('OTP_INVALID', PASSWORD_STEP_EXPIRED);
        }
        if (!(await repo.consumePasswordToken(claims.cid, new Date(claims.vat), clock()))) {
          throw new AppError('OTP_INVALID', PASSWORD_STEP_EXPIRED);
        }
        return replacePassword(user, body.password);
      }
      const phone = phoneOf(body.phone_number);
      await codes.spend(phone.e164, 'reset', body.otp, clientOf(phone, ip, device));
      const user = await repo.findUserByPhone(phone.e164);
      if (!user || !SESSION_STATUSES.has(user.status)) throw new AppError('OTP_INVALID');
      return replacePassword(user, body.password);
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;
