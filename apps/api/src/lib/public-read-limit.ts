import { RateLimitedError } from './app-error.js';
import { hmacHex } from './keys.js';
import type { RateLimitStore } from './rate-limit.js';

/**
 * Reads a visitor (no session) may make of one kind per client address and minute. A closed
 * 35-question survey's results with a breakdown or two is under 100; an address shared by many
 * people (a carrier's NAT) gets headroom. Page views, the other public write, allow 120.
 */
export const PUBLIC_READS_PER_IP_PER_MINUTE = 300;
const MINUTE_MS = 60_000;

/**
 * A per-address limit for reads anyone may make without a session, shared by every process
 * through the rate-limit store. The key holds an HMAC of the address, never the address.
 * Throws 429 RATE_LIMITED (with Retry-After) past the limit.
 */
export function createPublicReadLimit(
  limits: RateLimitStore,
  ipKey: Buffer,
  scope: string,
  perMinute = PUBLIC_READS_PER_IP_PER_MINUTE,
) {
  return async (ip: string): Promise<void> => {
    const hits = await limits.hit(`${scope}:ip:${hmacHex(ipKey, ip).slice(0, 32)}`, MINUTE_MS);
    if (hits.count > perMinute) throw new RateLimitedError(hits.resetInMs);
  };
}
