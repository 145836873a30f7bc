import crypto from 'node:crypto';
import { ageBandOf, type AnswerProfile } from '@candor/contracts';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../app.js';
import { users } from '../db/schema.js';
import { lastCodeFor } from './outbox.js';
import { openSessions } from './sessions.js';

let numberSeq = 0;
let ipSeq = 0;

/**
 * A fresh, valid US number (fixed line or mobile) whose first 8 digits no other test number
 * shares, so the prefix risk check stays quiet unless a test wants it.
 */
export function freshPhone(): string {
  const n = numberSeq++;
  return `+1202${200 + (n % 800)}${String(1000 + Math.floor(n / 800)).padStart(4, '0')}`;
}

/** A fresh client IP, so the per-IP limits and risk checks stay quiet unless a test wants them. */
export function freshIp(): string {
  const n = ++ipSeq;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export interface Call {
  ip?: string;
  token?: string;
  headers?: Record<string, string>;
}

/** A request through `inject`, from `ip`, with a bearer token and a JSON body when given. */
export function send(
  app: App,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body: unknown,
  call: Call = {},
) {
  return app.inject({
    method,
    url,
    ...(body === undefined ? {} : { payload: body as object }),
    remoteAddress: call.ip ?? '127.0.0.1',
    headers: {
      ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
      ...call.headers,
    },
  });
}

/** A JSON POST through `inject`, from `ip`, with a bearer token when given. */
export function post(app: App, url: string, body: unknown, call: Call = {}) {
  return send(app, 'POST', url, body, call);
}

export function get(app: App, url: string, call: Call = {}) {
  return send(app, 'GET', url, undefined, call);
}

export const signupBody = (phone: string, extra: Record<string, unknown> = {}) => ({
  phone_number: phone,
  country: 'US',
  name: 'Ada',
  ...extra,
});

/**
 * A reply's body, typed by the caller as light-my-request's own `json<T>()` is, but defaulting to
 * a record rather than `any`.
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the type
export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return res.json<T>();
}

/**
 * Signs `phone` up, reads the code from the outbox, verifies and sets `password`: a logged-in
 * account. Returns its tokens.
 */
export async function signUp(
  app: App,
  phone: string,
  opts: { password?: string; ip?: string; extra?: Record<string, unknown> } = {},
): Promise<{ access: string; refresh: string }> {
  const ip = opts.ip ?? freshIp();
  const password = opts.password ?? 'correct horse battery staple';
  const created = await post(app, '/api/v1/user/create/', signupBody(phone, opts.extra), { ip });
  if (created.statusCode !== 202) throw new Error(`create: ${created.statusCode} ${created.body}`);
  const otp = lastCodeFor(app.config.dataDir, phone);
  const verified = await post(app, '/api/v1/user/verify/', { phone_number: phone, otp }, { ip });
  if (verified.statusCode !== 200)
    throw new Error(`verify: ${verified.statusCode} ${verified.body}`);
  const { password_token } = json<{ password_token: string }>(verified);
  const set = await post(app, '/api/v1/user/set-password/', { password_token, password }, { ip });
  if (set.statusCode !== 200) throw new Error(`set-password: ${set.statusCode} ${set.body}`);
  return json(set);
}

export interface MemberOptions {
  status?: 'active' | 'under_review' | 'rejected' | 'suspended';
  role?: 'member' | 'moderator' | 'admin';
  /** Kept on the member's device, not the account: in `profile`, which answers carry. */
  yearOfBirth?: number;
  gender?: 'female' | 'male' | 'non_binary' | 'other' | 'undisclosed';
  country?: string;
}

/**
 * A verified account written straight into the database (no texts, no scrypt) and an access
 * token for it: for tests about what members do once logged in. `profile` is the class their
 * device sends with an answer (gender and year of birth are not beside accounts, decision 020).
 */
export async function createMember(
  app: App,
  opts: MemberOptions = {},
): Promise<{ uuid: string; token: string; phone: string; sid: string; profile: AnswerProfile }> {
  const phone = freshPhone();
  const uuid = crypto.randomUUID();
  const [row] = await app.db
    .insert(users)
    .values({
      uuid,
      ...(await app.identities.sealNew(uuid, phone, '')),
      country: opts.country ?? 'US',
      role: opts.role ?? 'member',
      status: opts.status ?? 'active',
      phoneVerifiedAt: new Date(),
    })
    .returning({ uuid: users.uuid });
  if (!row) throw new Error('createMember: no row');
  const [sid] = await openSessions(app.db, [uuid]);
  const token = await app.tokens.signAccess({ sub: uuid, role: opts.role ?? 'member', sid: sid! });
  const profile: AnswerProfile = {
    gender: opts.gender ?? 'female',
    age_band: ageBandOf(opts.yearOfBirth ?? 1990),
    country: opts.country ?? 'US',
  };
  return { uuid, token, phone, sid: sid!, profile };
}
