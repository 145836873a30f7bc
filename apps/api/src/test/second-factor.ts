import type { LightMyRequestResponse } from 'fastify';
import {
  type LoginResponse,
  type SecondFactorRequired,
  type TokenPair,
  type TotpEnrolment,
  needsSecondFactor,
} from '@candor/contracts';
import { Secret, TOTP } from 'otpauth';
import type { App } from '../app.js';
import { type Call, json, post } from './accounts.js';

const PERIOD = 30;

/** The TOTP code of `secret` (base32) for the time step holding `timestamp` (ms). */
export function totpCode(secret: string, timestamp: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), period: PERIOD }).generate({ timestamp });
}

/** The time step (RFC 6238 counter) holding `timestamp` (ms). */
export const totpStep = (timestamp: number) => Math.floor(timestamp / 1000 / PERIOD);

/** The last step each secret's code was given for, so the helper never gives one twice. */
const spent = new Map<string, number>();

/**
 * A code of `secret` the API will take at `now` (ms) and that was never given before: the
 * server takes the step before and after the current one too, so three logins fit in one
 * 30-second step. Past that the test moves its clock on (or, on the wall clock, waits).
 */
export async function nextTotpCode(secret: string, now: () => number = Date.now): Promise<string> {
  for (;;) {
    const current = totpStep(now());
    const step = Math.max((spent.get(secret) ?? -Infinity) + 1, current - 1);
    if (step <= current + 1) {
      spent.set(secret, step);
      return totpCode(secret, step * PERIOD * 1000);
    }
    // Only the wall clock moves by itself; a test's own clock would wait forever.
    if (now === Date.now) {
      await new Promise((r) => setTimeout(r, (step - 1) * PERIOD * 1000 - Date.now() + 50));
    } else {
      throw new Error('Every code of this step was given: move the test clock on 30 s.');
    }
  }
}

/** The result of a full staff login: its tokens and the account's TOTP secret. */
export interface StaffLogin extends TokenPair {
  secret: string;
}

/**
 * Logs a staff account in as a person would (decision 024): the password, then, at the first
 * login, the enrolment of a TOTP secret (returned, for the next logins), then a code computed
 * from the secret. `secret`: the one enrolled before. `now`: the app's clock when a test moves it.
 */
export async function staffLogin(
  app: App,
  who: { phone: string; password: string; secret?: string },
  opts: Call & { now?: () => number } = {},
): Promise<StaffLogin> {
  const res = await post(
    app,
    '/api/token/',
    { phone_number: who.phone, password: who.password },
    opts,
  );
  if (res.statusCode !== 200) throw new Error(`login: ${res.statusCode} ${res.body}`);
  const step = json<LoginResponse>(res);
  if (!needsSecondFactor(step)) throw new Error('login: no second step asked');
  return secondStep(app, step, who.secret, opts);
}

/** Gives the second factor a login asked for: enrols TOTP when asked to, then sends a code. */
export async function secondStep(
  app: App,
  step: SecondFactorRequired,
  known: string | undefined,
  opts: Call & { now?: () => number } = {},
): Promise<StaffLogin> {
  let secret = known;
  if (step.enrol) {
    const enrolled = await post(app, '/api/token/totp/enrol/', { challenge: step.challenge }, opts);
    if (enrolled.statusCode !== 200) throw new Error(`enrol: ${enrolled.statusCode}`);
    secret = json<TotpEnrolment>(enrolled).secret;
  }
  if (!secret) throw new Error('login: the account has a second factor the test does not know');
  const code = await nextTotpCode(secret, opts.now);
  const done: LightMyRequestResponse = await post(
    app,
    '/api/token/totp/',
    { challenge: step.challenge, code },
    opts,
  );
  if (done.statusCode !== 200) throw new Error(`second factor: ${done.statusCode} ${done.body}`);
  return { ...json<TokenPair>(done), secret };
}
