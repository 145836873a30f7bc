import crypto from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** How long one attempt may take in all, connection to status line (a slow drip included). */
export const ATTEMPT_MS = 10_000;
/** IPv6 global unicast (2000::/3); anything else (IPv4-compatible ::/96 included) is refused. */
const GLOBAL_V6 = ipaddr.parseCIDR('2000::/3');

export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true });

/**
 * Addresses a webhook may reach: public unicast only (no loopback, private, link-local such as
 * the cloud metadata address, carrier-grade NAT, multicast or reserved), unless an operator
 * listed the range (WEBHOOK_ALLOWED_PRIVATE, for a receiver inside their own network).
 */
export function createAddressGuard(allowed: string[]) {
  const ranges = allowed.map((cidr) => ipaddr.parseCIDR(cidr));
  return (address: string): boolean => {
    if (!ipaddr.isValid(address)) return false;
    // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 one.
    const ip = ipaddr.process(address);
    if (ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match([net, bits] as never))) {
      return true;
    }
    if (ip.range() !== 'unicast') return false;
    return ip.kind() === 'ipv4' || ip.match(GLOBAL_V6);
  };
}

export class RefusedTarget extends Error {}

/**
 * Checks every address a host name resolves to, before any connection: a name with one private
 * address among public ones is refused.
 */
export async function checkTarget(
  url: string,
  isAllowed: (address: string) => boolean,
  resolve: Resolve = systemResolve,
): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
    : await resolve(host).catch(() => {
        throw new RefusedTarget(`The name ${host} does not resolve.`);
      });
  if (!addresses.length || addresses.some((a) => !isAllowed(a.address))) {
    throw new RefusedTarget(
      'This address leads to a private or reserved network; webhooks go to public addresses only.',
    );
  }
}

/**
 * The connection's own lookup: the address it connects to is the one checked, so a name that
 * resolves to a public address when saved and to a private one when sent (DNS rebinding) is
 * refused at the connection.
 */
function guardedLookup(isAllowed: (address: string) => boolean, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((all) => {
        const ok = all.length > 0 && all.every((a) => isAllowed(a.address));
        if (!ok) throw new RefusedTarget('private address refused');
        const first = all[0]!;
        if ((options as { all?: boolean }).all) {
          (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, all);
        } else callback(null, first.address, first.family);
      })
      .catch((err: unknown) => callback(err as NodeJS.ErrnoException, '', 0));
  };
}

/** Standard Webhooks' signature: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return `v1,${mac.toString('base64')}`;
}

export interface Attempt {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/**
 * POSTs one signed event. Never follows a redirect (a 3xx is a failure: a redirect could point
 * inside the network); reads the status line only and closes the connection.
 */
export function send(
  url: string,
  message: { id: string; body: string; secret: string; timestamp: number },
  isAllowed: (address: string) => boolean,
  resolve: Resolve = systemResolve,
  deadlineMs = ATTEMPT_MS,
): Promise<Attempt> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) && !isAllowed(host)) {
    return Promise.resolve({ ok: false, status: null, error: 'private address refused' });
  }
  return new Promise((done) => {
    const finish = (attempt: Attempt) => {
      clearTimeout(timer);
      done(attempt);
    };
    const req = transport.request(
      target,
      {
        method: 'POST',
        // No connection kept for the next attempt: each is checked afresh.
        agent: false,
        lookup: guardedLookup(isAllowed, resolve),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Candor-Webhooks/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(message.timestamp),
          'webhook-signature': signatureOf(
            message.secret,
            message.id,
            message.timestamp,
            message.body,
          ),
        },
      },
      (res) => {
        // The status is all Candor reads: the body is never waited for (an endless one included).
        res.destroy();
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        finish({ ok, status, error: ok ? null : `answered ${status}` });
      },
    );
    // A hard deadline on the whole attempt: a receiver that drips a byte at a time still ends.
    const timer = setTimeout(() => req.destroy(new Error('timed out')), deadlineMs);
    req.on('error', (err) => {
      const error =
        err instanceof RefusedTarget
          ? 'private address refused'
          : err.message === 'timed out'
            ? 'timed out'
            : `could not connect (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
      finish({ ok: false, status: null, error });
    });
    req.end(message.body);
  });
}
