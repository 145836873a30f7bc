import crypto from 'node:crypto';
import { codeLockedMessage } from '@candor/contracts';
import type { SmsConfig } from '../../config.js';
import { AppError, RateLimitedError } from '../../lib/app-error.js';
import { hmacHex, sameDigest } from '../../lib/keys.js';
import type { Phone } from '../../lib/phone.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import type { SmsSender } from '../../plugins/sms.js';
import type { AuthRepository, ChallengeRow, OtpPurpose } from './auth.repository.js';
import { limitKey } from './password-limits.js';

export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_WRONG_TRIES = 5;
const HOUR_MS = 3_600_000;

const smsText = {
  signup: (code: string) =>
    `Your Candor code is ${code}. It expires in 10 minutes. Don't share it.`,
  reset: (code: string) =>
    `Your Candor password reset code is ${code}. It expires in 10 minutes. Don't share it.`,
  alreadyRegistered:
    'Someone tried to sign up to Candor with this number. If it was you, log in or reset your password.',
};

export interface CodesDeps {
  keys: { otp: Buffer; ip: Buffer };
  sms: SmsSender;
  limits: RateLimitStore;
  smsConfig: Pick<SmsConfig, 'perNumberPerHour' | 'perIpPerHour'>;
  clock: () => Date;
}

/** One-time codes by text message: the texts' allowance, sending, and spending a code once. */
export function createCodes(
  repo: Pick<AuthRepository, 'issueCode' | 'reserveTry' | 'findChallenge' | 'consumeCode'>,
  { keys, sms, limits, smsConfig, clock }: CodesDeps,
) {
  const otpHash = (phone: string, purpose: OtpPurpose, code: string) =>
    hmacHex(keys.otp, `${purpose}:${phone}:${code}`);

  /** 429 until a locked code expires: verify refuses every code meanwhile, resend sends none. */
  const locked = (expiresAt: Date, now: Date) =>
    new RateLimitedError(
      expiresAt.getTime() - now.getTime(),
      codeLockedMessage((expiresAt.getTime() - now.getTime()) / 1000),
    );

  /**
   * Refuses to issue a code that verify would refuse: the live challenge it would replace is
   * locked, and passes its wrong tries on to it (auth.repository.ts issueCode: any live one to a
   * decoy, a real one to a real code). So a locked code is never followed by a text it refuses,
   * and a decoy is refused exactly as a real code is (the replies tell no account apart).
   */
  async function refuseWhileLocked(phone: string, purpose: OtpPurpose, decoy: boolean) {
    const now = clock();
    const current = await repo.findChallenge(phone, purpose);
    if (
      current &&
      !current.usedAt &&
      current.expiresAt > now &&
      current.wrongTries >= OTP_MAX_WRONG_TRIES &&
      (decoy || !current.decoy)
    ) {
      throw locked(current.expiresAt, now);
    }
  }

  async function issueChallenge(phone: string, purpose: OtpPurpose, hash: string, decoy = false) {
    await refuseWhileLocked(phone, purpose, decoy);
    const now = clock();
    await repo.issueCode(phone, purpose, hash, now, new Date(now.getTime() + OTP_TTL_MS), decoy);
  }

  return {
    refuseWhileLocked,

    /** Counts one text to this number and from this IP; 429 past either limit. */
    async spendAllowance(phone: Phone, ip: string): Promise<void> {
      const [byNumber, byIp] = await Promise.all([
        limits.hit(limitKey(keys.ip, 'sms:number', phone.e164), HOUR_MS),
        limits.hit(limitKey(keys.ip, 'sms:ip', ip), HOUR_MS),
      ]);
      if (byNumber.count > smsConfig.perNumberPerHour) {
        throw new RateLimitedError(byNumber.resetInMs);
      }
      if (byIp.count > smsConfig.perIpPerHour) throw new RateLimitedError(byIp.resetInMs);
    },

    /** A new 6-digit code for the number's challenge, by text. */
    async send(phone: string, purpose: OtpPurpose): Promise<void> {
      const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
      await issueChallenge(phone, purpose, otpHash(phone, purpose, code));
      await sms.send(phone, smsText[purpose](code));
    },

    /**
     * Where no code is sent (no account, or not one that may use this code), a challenge that no
     * code matches, so wrong codes are counted, refused and expire exactly as for a real one:
     * the replies to guesses never tell whether the number has an account.
     */
    async sendNone(phone: string, purpose: OtpPurpose): Promise<void> {
      await issueChallenge(phone, purpose, otpHash(phone, purpose, crypto.randomUUID()), true);
    },

    /** Tells the number's owner that someone tried to sign up with it. */
    async warnRegistered(phone: string): Promise<void> {
      await sms.send(phone, smsText.alreadyRegistered);
    },

    /**
     * Checks and spends a code; OTP_INVALID for anything wrong. The try is counted before the
     * code is compared, in one statement, so a burst of concurrent guesses gets at most
     * OTP_MAX_WRONG_TRIES comparisons; the right code gives its try back as it is spent.
     */
    async spend(phone: string, purpose: OtpPurpose, code: string): Promise<ChallengeRow> {
      const now = clock();
      const challenge = await repo.reserveTry(phone, purpose, now, OTP_MAX_WRONG_TRIES);
      if (!challenge) {
        const current = await repo.findChallenge(phone, purpose);
        const spent =
          current !== undefined &&
          !current.usedAt &&
          current.expiresAt > now &&
          current.wrongTries >= OTP_MAX_WRONG_TRIES;
        if (spent) throw locked(current.expiresAt, now);
        throw new AppError('OTP_INVALID');
      }
      if (!sameDigest(otpHash(phone, purpose, code), challenge.codeHash)) {
        if (challenge.wrongTries >= OTP_MAX_WRONG_TRIES) throw locked(challenge.expiresAt, now);
        throw new AppError('OTP_INVALID');
      }
      const spent = await repo.consumeCode(challenge.id, challenge.codeHash, now);
      if (!spent) throw new AppError('OTP_INVALID');
      return spent;
    },
  };
}

export type Codes = ReturnType<typeof createCodes>;
