import crypto from 'node:crypto';

export type TimingKind = 'answer' | 'graph';

export interface TimingClaims {
  kind: TimingKind;
  qid: string;
  /** A keyed hash of the member's uuid: binds the id to one member without naming them. */
  who: string;
  /** When the timing started (ms since the epoch); it lives only in the id, never in a table. */
  startMs: number;
  /** 128 random bits (base64url): two ids of one start differ. */
  nonce: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WHO = /^[A-Za-z0-9_-]{22}$/;
const START = /^[0-9a-z]{1,11}$/;
const NONCE = /^[A-Za-z0-9_-]{22}$/;

/** A fresh nonce for signTimingId. */
export const timingNonce = () => crypto.randomBytes(16).toString('base64url');

function mac(key: Buffer, payload: string): string {
  return crypto.createHmac('sha256', key).update(`timing:${payload}`).digest('base64url');
}

/** The `who` of a member's timing ids: HMAC of their uuid, 128 bits. */
export function timingOwner(key: Buffer, uuid: string): string {
  return crypto
    .createHmac('sha256', key)
    .update(`owner:${uuid}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

/**
 * An opaque timing id: `kind.qid.start.who.nonce.mac`, HMAC-SHA256 signed. It carries its own start,
 * so starting a timing stores nothing and the end stores only the duration.
 */
export function signTimingId(key: Buffer, claims: TimingClaims): string {
  const payload = `${claims.kind}.${claims.qid}.${claims.startMs.toString(36)}.${claims.who}.${claims.nonce}`;
  return `${payload}.${mac(key, payload)}`;
}

/** The claims of a well-formed id with a good signature; null for anything else. */
export function verifyTimingId(key: Buffer, id: string): TimingClaims | null {
  if (id.length > 200) return null;
  const parts = id.split('.');
  if (parts.length !== 6) return null;
  const [kind, qid, start, who, nonce, signature] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (kind !== 'answer' && kind !== 'graph') return null;
  if (!UUID.test(qid) || !START.test(start) || !WHO.test(who) || !NONCE.test(nonce)) return null;
  const expected = Buffer.from(mac(key, `${kind}.${qid}.${start}.${who}.${nonce}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  return { kind, qid, who, startMs: parseInt(start, 36), nonce };
}
