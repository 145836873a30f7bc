import crypto from 'node:crypto';
import type {
  MyData,
  CodeSent,
  ForgotPasswordRequest,
  LoginRequest,
  PageQuery,
  ResendOtpRequest,
  ReviewAccount,
  SetPasswordRequest,
  SignupRequest,
  TokenPair,
  User,
  VerifyRequest,
  VerifyResponse,
} from '@candor/contracts';
import type { NumberType } from 'libphonenumber-js/max';
import type { AuthConfig, SmsConfig } from '../../config.js';
import { AppError, RateLimitedError } from '../../lib/app-error.js';
import { type Keys, hmacHex, sameDigest } from '../../lib/keys.js';
import { pageLinks } from '../../lib/paging.js';
import {
  burnPasswordCheck,
  hashPassword,
  passwordProblem,
  verifyPassword,
} from '../../lib/passwords.js';
import { type Phone, maskPhone, normalisePhone } from '../../lib/phone.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import { InvalidTokenError, type TokenService } from '../../lib/tokens.js';
import type { SmsSender } from '../../plugins/sms.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { RespondentsService } from '../respondents/respondents.service.js';
import type {
  AccountsRepository,
  ChallengeRow,
  OtpPurpose,
  UserRow,
} from './accounts.repository.js';
import { isUuid } from '../../lib/uuid.js';
import { SESSION_STATUSES } from './session-gate.js';

export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_WRONG_TRIES = 5;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Verified signups from one IP in 24 h above which an account goes to review. */
export const MAX_SIGNUPS_PER_IP_PER_DAY = 3;
/** Verified signups sharing the first 8 digits of E.164 in 24 h above which: review. */
export const MAX_SIGNUPS_PER_PREFIX_PER_DAY = 5;
const PHONE_PREFIX_DIGITS = 8;

export const CODE_SENT: CodeSent = {
  detail: 'If that number can receive it, a 6-digit code is on its way by text message.',
};
export const LOGIN_FAILED = 'The phone number or password is not right.';
const CODE_SPENT = 'Too many wrong codes. Wait 10 minutes, then ask for a new code.';
const PASSWORD_STEP_EXPIRED =
  'This step has expired or was already used. Ask for a new code and start again.';

const smsText = {
  signup: (code: string) =>
    `Your Candor code is ${code}. It expires in 10 minutes. Don't share it.`,
  reset: (code: string) =>
    `Your Candor password reset code is ${code}. It expires in 10 minutes. Don't share it.`,
  alreadyRegistered:
    'Someone tried to sign up to Candor with this number. If it was you, log in or reset your password.',
};

const RISKY_TYPES: Partial<Record<NonNullable<NumberType>, string>> = {
  VOIP: 'a VoIP number',
  PREMIUM_RATE: 'a premium-rate number',
  SHARED_COST: 'a shared-cost number',
  PERSONAL_NUMBER: 'a personal (forwarding) number',
  PAGER: 'a pager number',
  UAN: 'a universal access number',
};

/** Reasons, in words for moderators, to review a signup before its answers count. */
export function riskReasons(input: {
  type: NumberType;
  signupsFromIp: number;
  signupsFromPrefix: number;
  reviewAll: boolean;
}): string[] {
  const reasons: string[] = [];
  if (input.type === undefined) reasons.push('The phone number is of an unknown type.');
  else if (RISKY_TYPES[input.type]) {
    reasons.push(`The phone number is ${RISKY_TYPES[input.type]}.`);
  }
  if (input.signupsFromIp > MAX_SIGNUPS_PER_IP_PER_DAY) {
    reasons.push(`${input.signupsFromIp} signups from the same IP address in 24 hours.`);
  }
  if (input.signupsFromPrefix > MAX_SIGNUPS_PER_PREFIX_PER_DAY) {
    reasons.push(`${input.signupsFromPrefix} signups from the same number range in 24 hours.`);
  }
  if (input.reviewAll) reasons.push('Every signup is reviewed (REVIEW_ALL_SIGNUPS).');
  return reasons;
}

/** Only these may hold a session. */
const CAN_LOG_IN = SESSION_STATUSES;

function fieldError(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', undefined, { [field]: [message] });
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw fieldError('password', problem);
}

export interface AccountsServiceDeps {
  tokens: TokenService;
  keys: Pick<Keys, 'otp' | 'ip'>;
  sms: SmsSender;
  limits: RateLimitStore;
  auth: AuthConfig;
  smsConfig: Pick<SmsConfig, 'allowedCountries' | 'perNumberPerHour' | 'perIpPerHour'>;
  /** Told when a moderator changes an account's standing, so its answers count or stop counting. */
  respondents?: Pick<
    RespondentsService,
    'accountStatusChanged' | 'exportOf' | 'withdraw' | 'erased'
  >;
  /** Staff decisions (signup reviews) are written to the audit log. */
  audit?: Pick<AuditService, 'record'>;
  clock?: () => Date;
}

/** Signup by SMS code, passwords, sessions (access + rotating refresh tokens) and review. */
export function createAccountsService(repo: AccountsRepository, deps: AccountsServiceDeps) {
  const { tokens, keys, sms, limits, auth, smsConfig } = deps;
  const clock = deps.clock ?? (() => new Date());

  /** Rate-limit keys carry an HMAC, not the number or the IP (Redis is not a place for them). */
  const limitKey = (kind: string, value: string) =>
    `${kind}:${hmacHex(keys.ip, value).slice(0, 32)}`;
  const otpHash = (phone: string, purpose: OtpPurpose, code: string) =>
    hmacHex(keys.otp, `${purpose}:${phone}:${code}`);

  function phoneOf(input: string, region?: string): Phone {
    return normalisePhone(input, region ?? auth.defaultPhoneRegion);
  }

  function checkCountry(phone: Phone): void {
    const allowed = smsConfig.allowedCountries;
    if (allowed.includes('*') || allowed.includes(phone.country)) return;
    throw fieldError('phone_number', 'Candor cannot send text messages to this country yet.');
  }

  /** Counts one text to this number and from this IP; 429 past either limit. */
  async function spendSmsAllowance(phone: Phone, ip: string): Promise<void> {
    const [byNumber, byIp] = await Promise.all([
      limits.hit(limitKey('sms:number', phone.e164), HOUR_MS),
      limits.hit(limitKey('sms:ip', ip), HOUR_MS),
    ]);
    if (byNumber.count > smsConfig.perNumberPerHour) throw new RateLimitedError(byNumber.resetInMs);
    if (byIp.count > smsConfig.perIpPerHour) throw new RateLimitedError(byIp.resetInMs);
  }

  async function sendCode(phone: string, purpose: OtpPurpose): Promise<void> {
    const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
    await issueChallenge(phone, purpose, otpHash(phone, purpose, code));
    await sms.send(phone, smsText[purpose](code));
  }

  /**
   * Where no code is sent (no account, or not one that may use this code), a challenge that no
   * code matches, so wrong codes are counted, refused and expire exactly as for a real one:
   * the replies to guesses never tell whether the number has an account.
   */
  async function sendNoCode(phone: string, purpose: OtpPurpose): Promise<void> {
    await issueChallenge(phone, purpose, otpHash(phone, purpose, crypto.randomUUID()), true);
  }

  async function issueChallenge(phone: string, purpose: OtpPurpose, hash: string, decoy = false) {
    const now = clock();
    await repo.issueCode(phone, purpose, hash, now, new Date(now.getTime() + OTP_TTL_MS), decoy);
  }

  /**
   * Checks and spends a code; OTP_INVALID for anything wrong. The try is counted before the code
   * is compared, in one statement, so a burst of concurrent guesses gets at most
   * OTP_MAX_WRONG_TRIES comparisons; the right code gives its try back as it is spent.
   */
  async function spendCode(
    phone: string,
    purpose: OtpPurpose,
    code: string,
  ): Promise<ChallengeRow> {
    const now = clock();
    const challenge = await repo.reserveTry(phone, purpose, now, OTP_MAX_WRONG_TRIES);
    if (!challenge) {
      const current = await repo.findChallenge(phone, purpose);
      const spent =
        current !== undefined &&
        !current.usedAt &&
        current.expiresAt > now &&
        current.wrongTries >= OTP_MAX_WRONG_TRIES;
      throw new AppError('OTP_INVALID', spent ? CODE_SPENT : undefined);
    }
    if (!sameDigest(otpHash(phone, purpose, code), challenge.codeHash)) {
      throw new AppError(
        'OTP_INVALID',
        challenge.wrongTries >= OTP_MAX_WRONG_TRIES ? CODE_SPENT : undefined,
      );
    }
    const spent = await repo.consumeCode(challenge.id, challenge.codeHash, now);
    if (!spent) throw new AppError('OTP_INVALID');
    return spent;
  }

  /**
   * Takes a password-check slot for the number (and the IP) before any scrypt work, or 429.
   * Atomic in the store: concurrent requests never get more checks than the limit.
   */
  async function reservePasswordCheck(numberKey: string, ipKey?: string): Promise<void> {
    const windowMs = auth.loginThrottleMinutes * 60_000;
    const reserved = await limits.reserve([
      { key: numberKey, limit: auth.loginFailuresPerNumber, windowMs },
      ...(ipKey ? [{ key: ipKey, limit: auth.loginFailuresPerIp, windowMs }] : []),
    ]);
    if (!reserved.ok) throw new RateLimitedError(reserved.resetInMs);
  }

  async function issuePair(user: UserRow): Promise<TokenPair> {
    const refresh = tokens.newRefresh();
    const now = clock();
    const familyId = crypto.randomUUID();
    await repo.insertRefreshToken({
      userId: user.id,
      familyId,
      tokenHash: tokens.hashRefresh(refresh),
      expiresAt: new Date(now.getTime() + auth.refreshTokenTtlSeconds * 1000),
      createdAt: now,
    });
    // The access token names its session: logging out ends it at once (plugins/auth.ts).
    return {
      access: await tokens.signAccess({ sub: user.uuid, role: user.role, sid: familyId }),
      refresh,
    };
  }

  async function replacePassword(user: UserRow, password: string): Promise<TokenPair> {
    const passwordHash = await hashPassword(password);
    // Every session made with the old password ends before the new one starts.
    await repo.revokeAllOfUser(user.id, clock());
    const updated = await repo.updateUser(user.id, { passwordHash });
    return issuePair(updated ?? user);
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
    const ipHash = hmacHex(keys.ip, ip);
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

  /** A new code for the same challenge (its wrong-try count stays); same answer for all. */
  async function resend(body: ResendOtpRequest, ip: string): Promise<CodeSent> {
    const phone = phoneOf(body.phone_number);
    checkCountry(phone);
    await spendSmsAllowance(phone, ip);
    const user = await repo.findUserByPhone(phone.e164);
    const wanted =
      body.purpose === 'signup'
        ? user?.status === 'pending'
        : user !== undefined && CAN_LOG_IN.has(user.status);
    await (wanted ? sendCode : sendNoCode)(phone.e164, body.purpose);
    return CODE_SENT;
  }

  return {
    resend,

    /** Starts a signup; answers the same whether or not the number has an account. */
    async signup(body: SignupRequest, ip: string): Promise<CodeSent> {
      const phone = phoneOf(body.phone_number, body.country);
      checkCountry(phone);
      const { password } = body;
      if (password !== undefined) checkPassword(password);
      // Counted before any password work: a burst past the limit costs no scrypt.
      await spendSmsAllowance(phone, ip);

      // With a password, every branch below runs scrypt exactly once (hash it, check it against
      // the pending signup's, or burn the same work), so the time of the reply does not tell a
      // new, a pending and a registered number apart. Without one, none runs.
      const profile = {
        name: body.name ?? '',
        yearOfBirth: body.year_of_birth,
        gender: body.gender,
        country: body.country,
      };
      let user = await repo.findUserByPhone(phone.e164);
      if (user && user.status !== 'pending') {
        if (password !== undefined) await burnPasswordCheck(password);
        await sendNoCode(phone.e164, 'signup');
        await sms.send(phone.e164, smsText.alreadyRegistered);
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
      if (user) await sendCode(phone.e164, 'signup');
      return CODE_SENT;
    },

    /** Sends a reset code to a verified account only; same answer for all. */
    async forgotPassword(body: ForgotPasswordRequest, ip: string): Promise<CodeSent> {
      return resend({ phone_number: body.phone_number, purpose: 'reset' }, ip);
    },

    /** A right code verifies the number (signup) or authorises a new password (reset). */
    async verify(body: VerifyRequest, ip: string): Promise<VerifyResponse> {
      const phone = phoneOf(body.phone_number);
      const challenge = await spendCode(phone.e164, body.purpose, body.otp);
      const user = await repo.findUserByPhone(phone.e164);
      if (!user) throw new AppError('OTP_INVALID');
      if (body.purpose === 'reset') {
        if (!CAN_LOG_IN.has(user.status)) throw new AppError('OTP_INVALID');
        return passwordToken(user, challenge);
      }
      if (user.status !== 'pending') throw new AppError('OTP_INVALID');
      const verified = await verifySignup(user, phone, ip);
      if (verified.passwordHash) {
        return { status: 'logged_in', ...(await issuePair(verified)) };
      }
      return passwordToken(verified, challenge);
    },

    /** Sets the password after verification or with a reset code; logs in. */
    async setPassword(body: SetPasswordRequest): Promise<TokenPair> {
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
        if (!user || !CAN_LOG_IN.has(user.status)) {
          throw new AppError('OTP_INVALID', PASSWORD_STEP_EXPIRED);
        }
        if (!(await repo.consumePasswordToken(claims.cid, new Date(claims.vat), clock()))) {
          throw new AppError('OTP_INVALID', PASSWORD_STEP_EXPIRED);
        }
        return replacePassword(user, body.password);
      }
      const phone = phoneOf(body.phone_number);
      await spendCode(phone.e164, 'reset', body.otp);
      const user = await repo.findUserByPhone(phone.e164);
      if (!user || !CAN_LOG_IN.has(user.status)) throw new AppError('OTP_INVALID');
      return replacePassword(user, body.password);
    },

    /**
     * Phone + password -> tokens. Every failure looks the same and costs the same. Each attempt
     * takes its slot in the failure windows before the password is checked; a failure keeps
     * it, a success clears the number's window and gives the IP's slot back.
     */
    async login(body: LoginRequest, ip: string): Promise<TokenPair> {
      const phone = phoneOf(body.phone_number);
      const numberKey = limitKey('login:number', phone.e164);
      const ipKey = limitKey('login:ip', ip);
      await reservePasswordCheck(numberKey, ipKey);

      let user: UserRow | undefined;
      let passwordOk: boolean;
      try {
        user = await repo.findUserByPhone(phone.e164);
        passwordOk = user?.passwordHash
          ? await verifyPassword(body.password, user.passwordHash)
          : await burnPasswordCheck(body.password);
      } catch (err) {
        // No verdict was reached (the database failed): the attempt does not count.
        await Promise.all([limits.release(numberKey), limits.release(ipKey)]).catch(() => {});
        throw err;
      }
      if (!user || !passwordOk || !CAN_LOG_IN.has(user.status)) {
        throw new AppError('VALIDATION_FAILED', LOGIN_FAILED, { non_field_errors: [LOGIN_FAILED] });
      }
      await Promise.all([limits.reset(numberKey), limits.release(ipKey)]);
      return issuePair(user);
    },

    /**
     * Rotates a refresh token. A token presented again within the grace window of its first use
     * gets the same child (two tabs refreshing at once); later, the whole family is revoked.
     */
    async refresh(raw: string): Promise<TokenPair> {
      const now = clock();
      const child = tokens.childRefresh(raw);
      const result = await repo.rotate(
        tokens.hashRefresh(raw),
        (row, user) => {
          if (row.revokedAt || row.expiresAt <= now || !CAN_LOG_IN.has(user.status)) return null;
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
              expiresAt: new Date(now.getTime() + auth.refreshTokenTtlSeconds * 1000),
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

    /** The logged-in user's own record; 401 once the account cannot hold a session. */
    async me(uuid: string): Promise<User> {
      const user = await repo.findUserByUuid(uuid);
      if (!user || !CAN_LOG_IN.has(user.status)) throw new AppError('UNAUTHENTICATED');
      return {
        uuid: user.uuid,
        name: user.name,
        phone_number: user.phoneE164,
        country: user.country,
        year_of_birth: user.yearOfBirth,
        gender: user.gender,
        role: user.role,
        status: user.status as User['status'],
      };
    },

    /** Every stored field about the member: account, sessions, and what their answers hold. */
    async exportMine(uuid: string): Promise<MyData> {
      const user = await repo.findUserByUuid(uuid);
      if (!user || !CAN_LOG_IN.has(user.status)) throw new AppError('UNAUTHENTICATED');
      const [sessions, challenges, filed] = await Promise.all([
        repo.listSessions(user.id),
        repo.listChallenges(user.phoneE164),
        deps.respondents?.exportOf(uuid) ?? null,
      ]);
      const iso = (d: Date | null) => (d ? d.toISOString() : null);
      return {
        exported_at: clock().toISOString(),
        account: {
          uuid: user.uuid,
          name: user.name,
          phone_number: user.phoneE164,
          year_of_birth: user.yearOfBirth,
          gender: user.gender,
          country: user.country,
          role: user.role,
          status: user.status as MyData['account']['status'],
          phone_verified_at: iso(user.phoneVerifiedAt),
          risk_reasons: user.riskReasons,
          created_at: user.createdAt.toISOString(),
          updated_at: user.updatedAt.toISOString(),
        },
        sessions: sessions.map((t) => ({
          family: t.family,
          created_at: t.createdAt.toISOString(),
          expires_at: t.expiresAt.toISOString(),
          used_at: iso(t.usedAt),
          revoked_at: iso(t.revokedAt),
        })),
        code_challenges: challenges.map((c) => ({
          purpose: c.purpose,
          created_at: c.createdAt.toISOString(),
          expires_at: c.expiresAt.toISOString(),
          wrong_tries: c.wrongTries,
          used_at: iso(c.usedAt),
        })),
        respondent: filed?.profile
          ? {
              gender: filed.profile.gender,
              age_band: filed.profile.ageBand,
              country: filed.profile.country,
              counts_in_results: filed.profile.counts,
            }
          : null,
        answers: (filed?.answered ?? []).map((a) => ({
          qid: a.qid,
          question: a.question,
          gid: a.gid,
          survey: a.survey,
          answer: a.choice ?? a.text ?? '',
          is_blank: a.isBlank,
          date: a.answeredOn,
          moderation: a.moderation,
          idempotency_key: a.idempotencyKey,
        })),
        ratings: (filed?.rated ?? []).map((r) => ({ qid: r.qid, score: r.score })),
        timings: (filed?.timed ?? []).map((t) => ({
          qid: t.qid,
          kind: t.kind,
          duration_ms: t.durationMs,
        })),
      };
    },

    /**
     * Erases the member after checking their password: their answers leave the results, then
     * answers, ratings, timings, sessions, code challenges and the account itself are deleted.
     */
    async eraseMine(uuid: string, password: string): Promise<void> {
      const user = await repo.findUserByUuid(uuid);
      if (!user || !CAN_LOG_IN.has(user.status)) throw new AppError('UNAUTHENTICATED');
      // A password check like a login's: it takes a slot of the number's failure window first,
      // so a stolen access token is no way around the login limit.
      const numberKey = limitKey('login:number', user.phoneE164);
      await reservePasswordCheck(numberKey);
      const ok = user.passwordHash
        ? await verifyPassword(password, user.passwordHash)
        : await burnPasswordCheck(password);
      if (ok) await limits.reset(numberKey);
      if (!ok) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          password: ['That is not your password.'],
        });
      }
      const respondentId = await deps.respondents?.withdraw(uuid);
      const samples = await repo.deleteUser(user, respondentId);
      await deps.respondents?.erased(uuid, samples);
    },

    /** Accounts waiting for a moderator, oldest first. */
    async listUnderReview(page: PageQuery, listUrl: string) {
      const { rows, total } = await repo.listByStatus(
        'under_review',
        (page.page - 1) * page.page_size,
        page.page_size,
      );
      return { count: total, ...pageLinks(listUrl, page, total), results: rows.map(toReview) };
    },

    /** approve: the account counts; reject: it cannot log in and its sessions end. */
    async review(
      uuid: string,
      decision: 'approve' | 'reject',
      actor: Actor,
    ): Promise<ReviewAccount> {
      if (!isUuid(uuid)) throw new AppError('NOT_FOUND');
      const user = await repo.findUserByUuid(uuid.toLowerCase());
      if (!user || user.status !== 'under_review') throw new AppError('NOT_FOUND');
      const updated = await repo.updateUser(
        user.id,
        { status: decision === 'approve' ? 'active' : 'rejected' },
        'under_review',
      );
      if (!updated) throw new AppError('NOT_FOUND');
      if (decision === 'reject') await repo.revokeAllOfUser(user.id, clock());
      await deps.audit?.record(actor, `signup.${decision}`, `user:${updated.uuid}`);
      await deps.respondents?.accountStatusChanged(
        updated.uuid,
        updated.status,
        updated.phoneVerifiedAt,
      );
      return toReview(updated);
    },
  };
}

function toReview(user: UserRow): ReviewAccount {
  return {
    uuid: user.uuid,
    phone_masked: maskPhone(user.phoneE164),
    country: user.country,
    status: user.status as ReviewAccount['status'],
    risk_reasons: user.riskReasons,
    created_at: user.createdAt.toISOString(),
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
