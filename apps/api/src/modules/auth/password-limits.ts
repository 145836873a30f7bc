import type { AuthConfig } from '../../config.js';
import { RateLimitedError } from '../../lib/app-error.js';
import { clientOf } from '../../lib/client-connections.js';
import { hmacHex } from '../../lib/keys.js';
import type { AuthLimitsRepository } from './auth-limits.repository.js';
import type { DeviceTokens } from './device-tokens.js';

/** A rate-limit key that carries an HMAC, not the number or the IP (Redis is not a place for them). */
export function limitKey(ipKey: Buffer, kind: string, value: string): string {
  return `${kind}:${hmacHex(ipKey, value).slice(0, 32)}`;
}

/** NIST SP 800-63B 5.2.2: at most 100 consecutive failed attempts on one account. */
export const CONSECUTIVE_FAILURE_CAP = 100;
/** The longest progressive delay between two checks of one account's password. */
export const MAX_DELAY_MS = 3_600_000;
/** A streak of failures nobody adds to for this long is forgotten. */
const STREAK_KEEP_MS = 30 * 24 * 3_600_000;
const CAPPED =
  'Too many failed logins to this account. Reset your password with a code by text message.';

/** Who is asking: a device this account's owner has logged in on, else the client's address. */
export interface Client {
  /** The device's id when it sent a valid device token for this number. */
  device: string | null;
  ip: string;
}

export interface PasswordLimitsDeps {
  repo: AuthLimitsRepository;
  devices: DeviceTokens;
  /** Keys the limits' HMACs. */
  ipKey: Buffer;
  auth: Pick<AuthConfig, 'loginThrottleMinutes' | 'loginFailuresPerNumber' | 'loginFailuresPerIp'>;
  clock: () => Date;
}

/** The keys one password check counts against. */
export interface CheckKeys {
  streak: string;
  pair: string;
  ip: string | null;
}

/**
 * The limits of password checks (logins, and the member's own erase), decision 022: each check
 * takes its slots before any scrypt work, in the database, so neither a burst nor several API
 * processes get more checks than the limits.
 * - per (number, client): LOGIN_FAILURES_PER_NUMBER failures per LOGIN_THROTTLE_MINUTES; an
 *   attacker's address is locked out, the owner's device is not;
 * - per number, a progressive delay: after that many consecutive failures, each further check
 *   from a device the owner has not used waits 10 s, 20 s, 40 s ... up to an hour after the last;
 * - per number, at most 100 consecutive failures (NIST), then only a reset by code (which the
 *   owner can always get) lets the password be checked again;
 * - per IP: LOGIN_FAILURES_PER_IP failures per window, across numbers (spraying).
 */
export function createPasswordLimits({ repo, devices, ipKey, auth, clock }: PasswordLimitsDeps) {
  const windowMs = auth.loginThrottleMinutes * 60_000;
  const numberKey = (phoneE164: string) => limitKey(ipKey, 'login:number', phoneE164);

  function keysOf(phoneE164: string, client: Client): CheckKeys {
    const number = numberKey(phoneE164);
    const who = client.device ? `device:${client.device}` : `ip:${clientOf(client.ip)}`;
    return {
      streak: number,
      pair: limitKey(ipKey, 'login:pair', `${number}|${who}`),
      ip: client.device ? null : limitKey(ipKey, 'login:ip', clientOf(client.ip)),
    };
  }

  const refused = (retryInMs: number, detail?: string) => new RateLimitedError(retryInMs, detail);

  return {
    numberKey,
    keysOf,

    /** The device id of a device token sent for this number, or null. */
    deviceOf: (phoneE164: string, token: unknown) => devices.verify(numberKey(phoneE164), token),
    /** A device token for this number, for the reply to a successful login. */
    issueDevice: (phoneE164: string) => devices.issue(numberKey(phoneE164)),

    /**
     * Takes a slot of every limit before the password is checked, or 429 with how long to wait.
     * Atomic per limit; a later refusal gives the earlier slots back.
     */
    async reserve(keys: CheckKeys, client: Client): Promise<void> {
      const now = clock();
      const taken: string[] = [];
      const giveBack = () => Promise.all(taken.map((k) => repo.release(k)));
      const pair = await repo.takeWindow(keys.pair, auth.loginFailuresPerNumber, windowMs, now);
      if (pair) throw refused(pair.retryInMs);
      taken.push(keys.pair);
      if (keys.ip) {
        const ip = await repo.takeWindow(keys.ip, auth.loginFailuresPerIp, windowMs, now);
        if (ip) {
          await giveBack();
          throw refused(ip.retryInMs);
        }
        taken.push(keys.ip);
      }
      const streak = await repo.takeStreak(
        keys.streak,
        {
          free: auth.loginFailuresPerNumber,
          cap: CONSECUTIVE_FAILURE_CAP,
          unitMs: 10_000,
          maxDelayMs: MAX_DELAY_MS,
          keepMs: STREAK_KEEP_MS,
          exempt: client.device !== null,
        },
        now,
      );
      if (streak) {
        await giveBack();
        throw refused(streak.retryInMs, streak.capped ? CAPPED : undefined);
      }
    },

    /** A right password: the streak ends, the pair's window starts again, the IP's slot returns. */
    async succeeded(keys: CheckKeys): Promise<void> {
      await Promise.all([
        repo.clear(keys.streak),
        repo.clear(keys.pair),
        keys.ip ? repo.release(keys.ip) : undefined,
      ]);
    },

    /** A check that reached no verdict (the database failed): it does not count. */
    async undo(keys: CheckKeys): Promise<void> {
      const taken = [keys.streak, keys.pair, ...(keys.ip ? [keys.ip] : [])];
      await Promise.all(taken.map((k) => repo.release(k)));
    },

    /** A new password set with a code: the account's streak (and its cap) ends. */
    clearAccount: (phoneE164: string) => repo.clear(numberKey(phoneE164)),
  };
}

export type PasswordLimits = ReturnType<typeof createPasswordLimits>;
