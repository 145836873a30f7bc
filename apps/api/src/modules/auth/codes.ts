import crypto from 'node:crypto';
import { CODE_LOCKED_MESSAGE } from '@candor/contracts';
import type { SmsConfig } from '../../config.js';
import { AppError, RateLimitedError } from '../../lib/app-error.js';
import { hmacHex, sameDigest } from '../../lib/keys.js';
import type { Phone } from '../../lib/phone.js';
import { clientOf } from '../../lib/client-connections.js';
import type { SmsSender } from '../../plugins/sms.js';
import type { AuthRepository, ChallengeRow, OtpPurpose } from './auth.repository.js';
import type { AuthLimitsRepository } from './auth-limits.repository.js';
import { type Client, limitKey } from './password-limits.js';

export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_WRONG_TRIES = 5;
const HOUR_MS = 3_600_000;
/** The longest wait between two texts to one number asked for by clients it has not used. */
const TEXT_SPACING_MAX_MS = 15 * 60_000;

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
  /** The texts' counters, in the database (decision 022). */
  limits: AuthLimitsRepository;
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

  /** A code past its wrong tries: refused whatever is typed; a new code has none (decision 022). */
  const locked = () => new AppError('OTP_INVALID', CODE_LOCKED_MESSAGE);

  /** Whose guesses count where: the requester's in its own count, everyone else's together. */
  const requesterOf = (client: Client) =>
    limitKey(
      keys.ip,
      'code:client',
      client.device ? `device:${client.device}` : clientOf(client.ip),
    );

  async function issueChallenge(
    phone: string,
    purpose: OtpPurpose,
    hash: string,
    client: Client,
    decoy = false,
  ) {
    const now = clock();
    await repo.issueCode(phone, purpose, hash, now, new Date(now.getTime() + OTP_TTL_MS), {
      decoy,
      requester: requesterOf(client),
    });
  }

  return {
    /**
     * Counts one text to this number (decision 022), or 429: SMS_PER_NUMBER_PER_HOUR per
     * (number, client), so nobody else's requests use up the owner's; from a client the number
     * has not used, also SMS_PER_IP_PER_HOUR per IP and, per number, a spacing that doubles
     * from a minute after that many texts up to 15 minutes (no number is bombed by a botnet,
     * and its owner waits at most that long while a code sent meanwhile reaches them anyway).
     */
    async spendAllowance(phone: Phone, client: Client): Promise<void> {
      const now = clock();
      const who = client.device ? `device:${client.device}` : `ip:${clientOf(client.ip)}`;
      const pairKey = limitKey(keys.ip, 'sms:pair', `${phone.e164}|${who}`);
      const pair = await limits.takeWindow(pairKey, smsConfig.perNumberPerHour, HOUR_MS, now);
      if (pair) throw new RateLimitedError(pair.retryInMs);
      if (client.device) return;
      const ipKey = limitKey(keys.ip, 'sms:ip', clientOf(client.ip));
      const byIp = await limits.takeWindow(ipKey, smsConfig.perIpPerHour, HOUR_MS, now);
      if (byIp) {
        await limits.release(pairKey);
        throw new RateLimitedError(byIp.retryInMs);
      }
      const spaced = await limits.takeStreak(
        limitKey(keys.ip, 'sms:number', phone.e164),
        {
          free: smsConfig.perNumberPerHour,
          cap: 2_000_000_000,
          unitMs: 60_000,
          maxDelayMs: TEXT_SPACING_MAX_MS,
          keepMs: 24 * HOUR_MS,
          exempt: false,
        },
        now,
      );
      if (spaced) {
        await Promise.all([limits.release(pairKey), limits.release(ipKey)]);
        throw new RateLimitedError(spaced.retryInMs);
      }
    },

    /** A new 6-digit code for the number's challenge, by text. */
    async send(phone: string, purpose: OtpPurpose, client: Client): Promise<void> {
      const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
      await issueChallenge(phone, purpose, otpHash(phone, purpose, code), client);
      await sms.send(phone, smsText[purpose](code));
    },

    /**
     * Where no code is sent (no account, or not one that may use this code), a challenge that no
     * code matches, so wrong codes are counted, refused and expire exactly as for a real one:
     * the replies to guesses never tell whether the number has an account.
     */
    async sendNone(phone: string, purpose: OtpPurpose, client: Client): Promise<void> {
      await issueChallenge(
        phone,
        purpose,
        otpHash(phone, purpose, crypto.randomUUID()),
        client,
        true,
      );
    },

    /** Tells the number's owner that someone tried to sign up with it. */
    async warnRegistered(phone: string): Promise<void> {
      await sms.send(phone, smsText.alreadyRegistered);
    },

    /**
     * Checks and spends a code; OTP_INVALID for anything wrong. The try is counted before the
     * code is compared, in one statement, so a burst of concurrent guesses gets at most
     * OTP_MAX_WRONG_TRIES comparisons from the client that asked for the code and as many from
     * all others together (a botnet cannot spend the owner's code); the right code gives its
     * try back as it is spent.
     */
    async spend(
      phone: string,
      purpose: OtpPurpose,
      code: string,
      client: Client,
    ): Promise<ChallengeRow> {
      const now = clock();
      const requester = requesterOf(client);
      const challenge = await repo.reserveTry(phone, purpose, now, OTP_MAX_WRONG_TRIES, requester);
      const tries = (row: ChallengeRow) =>
        row.requester === requester ? row.requesterTries : row.wrongTries;
      if (!challenge) {
        const current = await repo.findChallenge(phone, purpose);
        const spent =
          current !== undefined &&
          !current.usedAt &&
          current.expiresAt > now &&
          tries(current) >= OTP_MAX_WRONG_TRIES;
        if (spent) throw locked();
        throw new AppError('OTP_INVALID');
      }
      if (!sameDigest(otpHash(phone, purpose, code), challenge.codeHash)) {
        if (tries(challenge) >= OTP_MAX_WRONG_TRIES) throw locked();
        throw new AppError('OTP_INVALID');
      }
      const spent = await repo.consumeCode(challenge.id, challenge.codeHash, now, requester);
      if (!spent) throw new AppError('OTP_INVALID');
      return spent;
    },
  };
}

export type Codes = ReturnType<typeof createCodes>;
