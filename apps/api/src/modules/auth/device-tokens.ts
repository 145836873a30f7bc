import crypto from 'node:crypto';
import { hmacHex, sameDigest } from '../../lib/keys.js';

/** The request header a device sends its token in, and the reply header a login returns it in. */
export const DEVICE_HEADER = 'candor-device';
const DEVICE_TTL_MS = 180 * 24 * 3_600_000;

/**
 * Device tokens (OWASP "device cookies"; decision 022): given on a successful login, signed for
 * that account's number (by its limit key, an HMAC: the number itself is not in the token), and
 * sent back by the web app on login and recovery. A valid one makes its device a client of its
 * own: its tries count only against it, and the account's progressive delay does not apply.
 * It authenticates nothing: the password or the code is still needed.
 */
export function createDeviceTokens(key: Buffer, clock: () => Date) {
  const mac = (numberKey: string, id: string, issued: string) =>
    hmacHex(key, `device-token:${numberKey}:${id}:${issued}`).slice(0, 32);

  return {
    /** A new token for the number (by its limit key). */
    issue(numberKey: string): string {
      const id = crypto.randomBytes(12).toString('base64url');
      const issued = Math.floor(clock().getTime() / 1000).toString(36);
      return `${id}.${issued}.${mac(numberKey, id, issued)}`;
    },

    /** The device's id when the token is this number's and unexpired; else null. */
    verify(numberKey: string, token: unknown): string | null {
      if (typeof token !== 'string' || token.length > 100) return null;
      const [id, issued, tag, ...rest] = token.split('.');
      if (!id || !issued || !tag || rest.length) return null;
      if (!sameDigest(mac(numberKey, id, issued), tag)) return null;
      const age = clock().getTime() - Number.parseInt(issued, 36) * 1000;
      return age >= 0 && age < DEVICE_TTL_MS ? id : null;
    },
  };
}

export type DeviceTokens = ReturnType<typeof createDeviceTokens>;
