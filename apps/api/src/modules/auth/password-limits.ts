import type { AuthConfig } from '../../config.js';
import { RateLimitedError } from '../../lib/app-error.js';
import { hmacHex } from '../../lib/keys.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';

/** A rate-limit key that carries an HMAC, not the number or the IP (Redis is not a place for them). */
export function limitKey(ipKey: Buffer, kind: string, value: string): string {
  return `${kind}:${hmacHex(ipKey, value).slice(0, 32)}`;
}

export interface PasswordLimitsDeps {
  limits: RateLimitStore;
  /** Keys the limits' HMACs. */
  ipKey: Buffer;
  auth: Pick<AuthConfig, 'loginThrottleMinutes' | 'loginFailuresPerNumber' | 'loginFailuresPerIp'>;
}

/**
 * The failure windows of password checks (logins, and the member's own erase): a check takes
 * its slot before any scrypt work, so neither a login burst nor a stolen access token gets more
 * checks of a number's password than the limit.
 */
export function createPasswordLimits({ limits, ipKey, auth }: PasswordLimitsDeps) {
  return {
    numberKey: (phoneE164: string) => limitKey(ipKey, 'login:number', phoneE164),
    ipKey: (ip: string) => limitKey(ipKey, 'login:ip', ip),

    /**
     * Takes a password-check slot for the number (and the IP) before any scrypt work, or 429.
     * Atomic in the store: concurrent requests never get more checks than the limit.
     */
    async reserve(numberKey: string, ipKey?: string): Promise<void> {
      const windowMs = auth.loginThrottleMinutes * 60_000;
      const reserved = await limits.reserve([
        { key: numberKey, limit: auth.loginFailuresPerNumber, windowMs },
        ...(ipKey ? [{ key: ipKey, limit: auth.loginFailuresPerIp, windowMs }] : []),
      ]);
      if (!reserved.ok) throw new RateLimitedError(reserved.resetInMs);
    },

    /** A right password: the number's window starts again. */
    reset: (numberKey: string) => limits.reset(numberKey),
    /** Gives a slot back (a success from this IP, or a check that reached no verdict). */
    release: (key: string) => limits.release(key),
  };
}

export type PasswordLimits = ReturnType<typeof createPasswordLimits>;
