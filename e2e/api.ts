// The API as the end-to-end tests call it beside the browser: typed by the contracts, never by
// hand. Each call sends the person's own address (the server trusts the proxy header in these
// tests) so the per-address rules see one person, not the test runner.
import {
  type CredentialKey,
  type CredentialResponse,
  type LoginResponse,
  type SignupRequest,
  type SurveyDetail,
  type SurveyList,
  type SurveySummary,
  promotedOnHome,
  type TokenPair,
  type TotpEnrolment,
  type User,
  type VerifyResponse,
  needsSecondFactor,
  passwordSecrets,
} from '@candor/contracts';
import { blindForTest } from '../apps/api/src/test/blinding';
import { messagesTo } from '../apps/api/src/test/outbox';
import { expect, inject } from 'vitest';
import { keepSecret, nextCode, secretOf } from './second-factor';

const baseURL = inject('baseURL');
const dataDir = inject('dataDir');

/** Who is calling: a number and password, and the address their requests come from. */
export interface Caller {
  e164: string;
  password: string;
  ip?: string;
}

/** A JSON request; `ip` becomes X-Forwarded-For. */
export function call(
  path: string,
  opts: { method?: string; body?: unknown; token?: string; ip?: string | undefined } = {},
) {
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.ip) headers['X-Forwarded-For'] = opts.ip;
  return fetch(`${baseURL}${path}`, {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
}

/**
 * A staff login's second step (decision 024), as the person would give it: enrols an
 * authenticator when the API asks (keeping its secret for the run), then a code from it.
 */
export async function secondStepByApi(
  who: Caller,
  step: { challenge: string; enrol: boolean },
): Promise<TokenPair> {
  if (step.enrol) {
    const res = await call('/api/token/totp/enrol/', {
      body: { challenge: step.challenge },
      ip: who.ip,
    });
    if (res.status !== 200) throw new Error(`Enrolment of ${who.e164}: ${res.status}`);
    keepSecret(who.e164, ((await res.json()) as TotpEnrolment).secret);
  } else if (!secretOf(who.e164)) {
    throw new Error(`${who.e164} has an authenticator this run does not know`);
  }
  const res = await call('/api/token/totp/', {
    body: { challenge: step.challenge, code: await nextCode(who.e164) },
    ip: who.ip,
  });
  if (res.status !== 200) throw new Error(`Second factor of ${who.e164}: ${res.status}`);
  return (await res.json()) as TokenPair;
}

const secrets = new Map<string, Promise<string>>();

/**
 * What the web app sends as the password: its login secret, made on the device from the
 * password and the number (decision 020). The API is called as the web app calls it.
 */
export function loginSecret(who: Pick<Caller, 'e164' | 'password'>): Promise<string> {
  const key = `${who.e164} ${who.password}`;
  let secret = secrets.get(key);
  if (!secret) {
    secret = passwordSecrets(who.password, who.e164).then((s) => s.login);
    secrets.set(key, secret);
  }
  return secret;
}

/** Staff sessions of this file, by number: a code is good once, so a session is kept. */
const staffSessions = new Map<string, Promise<TokenPair>>();

/**
 * POST /api/token/: the status, and the pair when the login worked; for staff, after their
 * second factor.
 */
export async function logInByApi(who: Caller): Promise<{ status: number; access?: string }> {
  const res = await call('/api/token/', {
    body: { phone_number: who.e164, password: await loginSecret(who) },
    ip: who.ip,
  });
  const body = (await res.json()) as Partial<LoginResponse>;
  if (res.status === 200 && needsSecondFactor(body)) {
    const pair = secondStepByApi(who, body);
    staffSessions.set(who.e164, pair);
    return { status: 200, access: (await pair).access };
  }
  const access = (body as Partial<TokenPair>).access;
  return { status: res.status, ...(access ? { access } : {}) };
}

/**
 * A fresh access token (they live 2 s in these tests); the login must work. Staff keep their
 * session and refresh it, as the web app does, instead of giving a code each time.
 */
export async function token(who: Caller): Promise<string> {
  const kept = staffSessions.get(who.e164);
  if (kept) {
    const refreshed = kept.then(async ({ refresh }) => {
      const res = await call('/api/token/refresh/', { body: { refresh } });
      if (res.status !== 200) throw new Error(`refresh: ${res.status}`);
      return (await res.json()) as TokenPair;
    });
    staffSessions.set(who.e164, refreshed);
    try {
      return (await refreshed).access;
    } catch {
      // The session ended (a role change, a reset): log in again.
      staffSessions.delete(who.e164);
    }
  }
  const { status, access } = await logInByApi(who);
  expect(status).toBe(200);
  return access!;
}

/** Waits for a new code texted to `to` (E.164) after `after` messages, and returns it. */
export async function waitForCode(to: string, after = 0): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const code = messagesTo(dataDir, to)
      .slice(after)
      .at(-1)
      ?.body.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`No code texted to ${to}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How many texts went to `to` so far. */
export const outboxCount = (to: string) => messagesTo(dataDir, to).length;

/** Signs up through the API with the texted code; returns the account as the API has it. */
export async function signUpByApi(
  who: Caller & { country: string },
  profile: Partial<SignupRequest> = {},
): Promise<{ user: User; access: string }> {
  const before = outboxCount(who.e164);
  const created = await call('/api/v1/user/create/', {
    body: {
      phone_number: who.e164,
      password: await loginSecret(who),
      country: who.country,
      ...profile,
    } satisfies Partial<SignupRequest>,
    ip: who.ip,
  });
  expect(created.status).toBeLessThan(300);
  const otp = await waitForCode(who.e164, before);
  const verified = await call('/api/v1/user/verify/', {
    body: { phone_number: who.e164, otp, purpose: 'signup' },
    ip: who.ip,
  });
  const body = (await verified.json()) as VerifyResponse;
  if (body.status !== 'logged_in') throw new Error(`Signup of ${who.e164} not logged in`);
  const me = await call('/api/v1/user/detail/', { token: body.access });
  return { user: (await me.json()) as User, access: body.access };
}

/** Erases the account if it still logs in (a test may have deleted or refused it already). */
export async function eraseIfPresent(who: Caller): Promise<void> {
  const { status, access } = await logInByApi(who);
  if (status !== 200) return;
  const res = await call('/api/v1/user/delete/', {
    body: { password: await loginSecret(who) },
    token: access,
    ip: who.ip,
  });
  if (res.status !== 204) throw new Error(`Could not erase ${who.e164}: ${res.status}`);
}

/** The surveys the API lists, in slot order (the home page shows those of homeSurveys). */
export async function listedSurveys(): Promise<SurveySummary[]> {
  const res = await call('/api/v1/surveys/open-closed-random-video-surveys?page_size=100');
  return ((await res.json()) as SurveyList).results;
}

/** The surveys whose bricks the home page shows: nothing closed and empty (promotedOnHome). */
export async function homeSurveys(): Promise<SurveySummary[]> {
  return (await listedSurveys()).filter(promotedOnHome);
}

/** Surveys the end-to-end tests author themselves are named so; sample-survey finders skip them. */
export const AUTHORED_PREFIX = 'E2E ';

/** The full detail of the smallest listed sample survey that `find` accepts. */
export async function sampleSurvey(find: (s: SurveySummary) => boolean): Promise<SurveyDetail> {
  const found = (await listedSurveys())
    .filter((s) => !s.name.startsWith(AUTHORED_PREFIX) && find(s))
    .sort((a, b) => a.questions.length - b.questions.length)[0];
  if (!found) throw new Error('No such sample survey');
  const res = await call(`/api/v1/surveys/${found.gid}/video-survey`);
  return (await res.json()) as SurveyDetail;
}

const credentials = new Map<string, Promise<string>>();

/**
 * The survey's anonymous credential as another device of `who` holds it: asked once per person
 * and survey (one credential per member per survey: a browser of the same member then cannot
 * answer that survey).
 */
function credentialFor(who: Caller, gid: string): Promise<string> {
  const id = `${who.e164} ${gid}`;
  let held = credentials.get(id);
  if (!held) {
    held = (async () => {
      const key = (await (
        await call(`/api/v1/surveys/${gid}/credential-key/`)
      ).json()) as CredentialKey;
      const device = await blindForTest(Buffer.from(key.public_key, 'base64url'));
      const res = await call('/api/v1/credentials/', {
        body: { requests: [{ gid, blinded_msg: device.blindedMsg.toString('base64url') }] },
        token: await token(who),
        ip: who.ip,
      });
      if (res.status !== 200) throw new Error(`credential: ${res.status} ${await res.text()}`);
      const [issued] = ((await res.json()) as CredentialResponse).credentials;
      return device.finalize(Buffer.from(issued!.blind_sig, 'base64url'));
    })();
    held.catch(() => credentials.delete(id));
    credentials.set(id, held);
  }
  return held;
}

/**
 * An answer through the API as the member's other device sends it: with the survey's
 * credential, no session or cookie. It waits in the server's inbox until the next mix (a second
 * or two in these tests) and is never on this browser's device.
 */
export async function answerByApi(
  who: Caller,
  gid: string,
  q: Pick<SurveyDetail['questions'][number], 'qid' | 'type' | 'choices'>,
  text = 'It depends.',
  /** A closed question's choice to send: the first one unless told. */
  choice = q.choices[0],
): Promise<void> {
  const res = await fetch(`${baseURL}/api/v1/questions/${q.qid}/answer/`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'Candor-Credential': await credentialFor(who, gid),
      'Idempotency-Key': crypto.randomUUID(),
      ...(who.ip ? { 'X-Forwarded-For': who.ip } : {}),
    },
    body: JSON.stringify({
      ...(q.type === 'Open' ? { text } : { choice }),
      // The class a device without a profile sends (decision 020).
      profile: { gender: 'undisclosed', age_band: 'undisclosed', country: 'GB' },
    }),
  });
  if (res.status !== 201) throw new Error(`${q.qid}: ${res.status} ${await res.text()}`);
}
