import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/client.js';
import {
  answers,
  otpChallenges,
  ratings,
  refreshTokens,
  respondents,
  timings,
  users,
} from '../db/schema.js';
import { seedSampleContent } from '../db/seed/seed.js';
import { derivePseudonymKey, hmacHex } from '../lib/keys.js';
import {
  createMember,
  freshIp,
  freshPhone,
  get,
  json,
  post,
  send,
  signUp,
  signupBody,
} from '../test/accounts.js';
import { credentialTag } from '../modules/credentials/credentials.service.js';
import { createTestApp, testConfig, testSecrets } from '../test/app.js';
import { memberDevice } from '../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../test/database.js';
import { type ApiField, type ApiRoute, apiRoutes } from '../test/openapi.js';
import { lastCodeFor } from '../test/outbox.js';

// Issue 7, generated: every member route of the OpenAPI document, called by another member A (and
// by a visitor, a member under review, a moderator and an admin) with each of member B's ids in
// each id-like input. Nothing may answer 5xx; the status is the one the policy below gives; A's
// reply holds nothing private of B's; and everything B owns reads the same afterwards. A control
// sends the same requests as B itself and shows the same checks flag them.
//
// The staff routes (/api/v1/admin/...) take other people's ids by design; who may call them is
// the role matrix in modules/users/admin.test.ts.

/** `answered`: a member who answered and rated B's questions too (differently from B). */
type Who = 'visitor' | 'member' | 'answered' | 'under_review' | 'moderator' | 'admin';
const CALLERS: Who[] = ['visitor', 'member', 'answered', 'under_review', 'moderator', 'admin'];

interface Answered {
  qid: string;
  gid: string;
  type: 'Closed' | 'Open';
  choices: string[];
  /** B's answer: a choice label or B's text. */
  answer: string;
  /** The Idempotency-Key B sent with it, if any. */
  key?: string;
}

/** B: a member owning something of every kind a member can own. */
interface Owner {
  uuid: string;
  phone: string;
  /** The data folder whose SMS outbox holds B's texts. */
  outbox: string;
  pseudonym: string;
  /** The live session. */
  access: string;
  refresh: string;
  /** Refresh tokens of sessions that ended (logout, password reset). */
  endedRefresh: string[];
  spentPasswordToken: string;
  spentCodes: Array<{ otp: string; purpose: 'signup' | 'reset' }>;
  answered: Answered[];
  /** B's device: B's credentials, one per survey, which answered and rated B's questions. */
  device: Device;
  /** Those credentials (B's answers are stored under respondents only they name). */
  credentials: string[];
  liveTimings: string[];
  endedTimings: string[];
  /** Strings that must never reach anyone else: name -> value. */
  secrets: Array<[string, string]>;
}

type Device = ReturnType<typeof memberDevice>;

/** The class B's and A's devices send with their answers. */
const PROFILE = { gender: 'female', age_band: '25-34', country: 'US' } as const;

/**
 * The routes that take an answer credential and no session (decision 020, slice 5): every
 * caller sends its own device's credential for the survey, never its session; a caller that
 * has none (a visitor, an account under review, which is refused one) sends nothing, as a
 * visitor does.
 */
const CREDENTIAL_ROUTES = new Set([
  'POST /api/v1/questions/{qid}/answer/',
  'POST /api/v1/questions/{qid}/rating/',
  'POST /api/v1/surveys/{gid}/answers/panel-completion/',
]);

/** One of B's values for an input, and what else must go with it to aim at B's thing. */
interface Swap {
  label: string;
  value: string;
  with?: Record<string, string>;
}

/**
 * Every id-like input a member route may take (`<in> <name>`), and B's values for it: one case
 * per value. A route taking an input in neither this table nor NOT_IDS fails the first test.
 */
const B_IDS: Record<string, { swaps: (b: Owner) => Swap[]; neutral?: (b: Owner) => string }> = {
  // Public ids. Every listed survey and question is shown to everyone, so a qid or gid is no
  // secret: A may answer, time or read B's question or survey (2xx is allowed), but gets A's own
  // outcome, never B's answer, rating or results access.
  'path qid': {
    swaps: (b) => b.answered.map((a) => ({ label: `B's ${a.type} qid`, value: a.qid })),
  },
  'body qid': {
    swaps: (b) => b.answered.map((a) => ({ label: `B's ${a.type} qid`, value: a.qid })),
  },
  'path gid': { swaps: (b) => [{ label: "B's survey", value: b.answered[0]!.gid }] },
  // Member-bound ids: they name something of B's, and nothing at all for anyone else.
  'path id': {
    swaps: (b) => [
      ...b.liveTimings.map((value) => ({ label: "B's running timing", value })),
      ...b.endedTimings.map((value) => ({ label: "B's ended timing", value })),
    ],
  },
  'header idempotency-key': {
    swaps: (b) =>
      b.answered
        .filter((a) => a.key)
        .map((a) => ({
          label: "B's key, B's question",
          value: a.key!,
          with: { 'path qid': a.qid },
        })),
  },
  // B's credentials, as A could come to hold them: spent or ended. A live refresh token is a
  // bearer credential (decision 005): whoever presents it is its session, and a used one of a
  // live session ends that session (reuse detection: a thief is caught by that, not by the
  // caller's identity; auth.test.ts). What this file proves for live ones is that no route
  // ever hands them to anyone else (the secrets check).
  'body refresh': {
    swaps: (b) => b.endedRefresh.map((value) => ({ label: "B's ended refresh token", value })),
  },
  'body password_token': {
    swaps: (b) => [{ label: "B's spent password token", value: b.spentPasswordToken }],
  },
  'body otp': {
    swaps: (b) =>
      b.spentCodes.map((c) => ({
        label: `B's spent ${c.purpose} code`,
        value: c.otp,
        with: { 'body phone_number': b.phone, 'body purpose': c.purpose },
      })),
    // A guesses: never the code B holds right now.
    neutral: (b) => (lastCodeFor(b.outbox, b.phone) === '000000' ? '000001' : '000000'),
  },
  // Private: B's number names B's account on the public account routes.
  'body phone_number': {
    swaps: (b) => [{ label: "B's phone number", value: b.phone }],
    neutral: () => freshPhone(),
  },
  'path uuid': { swaps: (b) => [{ label: "B's uuid", value: b.uuid }] },
};

const A_TEXT = 'what A writes';
const A_PASSWORD = 'A has a long passphrase too';

/** Inputs that name nothing of anyone's, and what A sends in them (undefined: left out). */
const NOT_IDS: Record<string, (q: Answered | undefined) => string | number | undefined> = {
  'query page': () => undefined,
  'query page_size': () => undefined,
  'query breakdown': () => undefined,
  // The share image's version: a hash of what it shows, nobody's.
  'query v': () => undefined,
  // A's own answer, never the same as B's, so a replay of B's would show.
  'body choice': (q) => (q?.type === 'Closed' ? q.choices.find((c) => c !== q.answer) : undefined),
  'body text': (q) => (q?.type === 'Open' ? A_TEXT : undefined),
  'body score': () => 5,
  'body password': () => A_PASSWORD,
  'body name': () => 'A',
  'body year_of_birth': () => 1985,
  'body gender': () => 'male',
  'body country': () => 'US',
  'body purpose': () => 'reset',
  'body path': () => '/privacy',
  'body referrer_host': () => undefined,
  // A's own panel and participant id: a completion is A's, whatever survey it names.
  'body panel': () => 'panel-a',
  'body pid': () => 'participant-a',
  // A credential is the device's own, never an id: check() sends the caller's own on the
  // answer and rating routes (and its device's profile with an answer), none elsewhere.
  'header candor-credential': () => undefined,
  'body profile': () => undefined,
  'body duration_ms': () => undefined,
  // Left out: a credential request without its surveys is refused before anything is read.
  'body requests': () => undefined,
  // A's own vault, sealed on A's device: nobody's id.
  'body version': () => 0,
  'body blob': () => 'A'.repeat(Math.ceil((4096 * 4) / 3)),
  // An image's name is the hash of its content: nobody's; A asks for one that does not exist.
  'path name': () => `${'0'.repeat(32)}.webp`,
  // A staff login's second step (decision 024): B, a member, never gets a challenge, so there
  // is none of B's to swap in; A sends one it made up, and a guessed code.
  'body challenge': () => 'made-up.challenge.token',
  'body code': () => '000000',
  // A passkey's answer (decision 024): left out, as a guess with no authenticator behind it.
  'body response': () => undefined,
};

interface Policy {
  /** Statuses for member, member under review, moderator and admin (all members here). */
  signedIn: number[];
  visitor: number[];
  /**
   * For the member who answered B's questions too, where it differs from `signedIn`: A's own
   * answer, rating and results, never B's. A query that forgot its member filter would find
   * B's rows here as readily as A's, and the leak and state checks would flag it.
   */
  answered?: number[];
  /**
   * The designed reset flow may text B a code, or count a wrong one against B's code, for
   * anyone who types B's number (only B's phone receives codes): B's code challenges may change,
   * nothing else of B's may.
   */
  textsB?: true;
}
const anyone = (...s: number[]): Policy => ({ signedIn: s, visitor: s });
const members = (...s: number[]): Policy => ({ signedIn: s, visitor: [401] });

/** Every member route and what it answers A when an input carries B's id (or nothing swapped). */
const POLICY: Record<string, Policy> = {
  'GET /api/health': anyone(200),
  'GET /api/health/live': anyone(200),
  'GET /api/health/ready': anyone(200),
  'GET /api/v1/surveys/open-closed-random-video-surveys': anyone(200),
  'GET /api/v1/surveys/{gid}/video-survey': anyone(200),
  // A listed survey's link-preview image: the survey's, nobody's answers.
  'GET /api/v1/surveys/{gid}/share-image.png': anyone(200),
  // Same reply for any number (no account enumeration); B gets an "already registered" text,
  // and a signup challenge that no code matches, so guesses read as for a new number.
  'POST /api/v1/user/create/': { ...anyone(202), textsB: true },
  'POST /api/v1/user/resend-otp/': { ...anyone(202), textsB: true },
  'POST /api/v1/user/forgot-password/': { ...anyone(202), textsB: true },
  // A does not hold B's live code: OTP_INVALID.
  'POST /api/v1/user/verify/': { ...anyone(400), textsB: true },
  'POST /api/v1/user/set-password/': { ...anyone(400), textsB: true },
  // B's number with A's password: the login failure every wrong login gets.
  'POST /api/token/': anyone(400),
  'POST /api/token/refresh/': anyone(401),
  // Without a challenge from a staff password, the second step opens nothing: TOKEN_INVALID.
  'POST /api/token/totp/enrol/': anyone(401),
  'POST /api/token/totp/': anyone(401),
  // Passkeys (decision 024): without a challenge from a staff password, nothing opens either.
  'POST /api/token/passkey/options/': anyone(401),
  'POST /api/token/passkey/': anyone(400),
  // Idempotent: 204 whatever the token, and an ended one ends nothing more.
  'POST /api/v1/user/logout/': anyone(204),
  'GET /api/v1/user/detail/': members(200),
  'GET /api/v1/user/export/': members(200),
  // A's own account, with a password that is not A's: refused, nothing erased.
  'POST /api/v1/user/delete/': members(400),
  // B's question is public: A answers it for A with A's credential (201), B's key replays
  // nothing of B's; A who answered it too gets A's own answer back (200), with B's key as
  // without. Without a credential (a visitor, an account under review): 401.
  'POST /api/v1/questions/{qid}/answer/': { ...members(201), answered: [200] },
  'GET /api/v1/questions/my-attempted-questions/': members(200),
  'GET /api/v1/user/mirror/': members(200),
  // A's credential never answered B's question: NOT_ANSWERED; B's answer does not make it A's.
  // A who answered it rates A's own answer.
  'POST /api/v1/questions/{qid}/rating/': { ...members(409), answered: [200] },
  'POST /api/v1/questions/answer-time-start/': members(201),
  'POST /api/v1/questions/graph-time-start/': members(201),
  // B's timing ids, running or ended, name nothing for A.
  'PUT /api/v1/questions/answer-time-end/{id}': members(404),
  'PUT /api/v1/questions/graph-time-end/{id}': members(404),
  // Published numbers, the same for every reader with a session or without: the server cannot
  // tell who answered (answers carry no account), so the "after answering" rule is the
  // browser's.
  'GET /api/v1/questions/{qid}/results/': anyone(200),
  // A survey's published numbers in one read, the same for every reader.
  'GET /api/v1/surveys/{gid}/results/': anyone(200),
  // A's completion code for B's survey: NOT_ANSWERED until A answered every question of it,
  // then A's own code (B's answers make nothing A's).
  'POST /api/v1/surveys/{gid}/answers/panel-completion/': { ...members(409), answered: [409, 201] },
  // Withdrawal takes the survey's credential and nothing else (decision 020): A has none of
  // B's, and without one the request is refused before anything is read.
  'POST /api/v1/surveys/{gid}/answers/withdrawal/': anyone(400),
  // Uploaded images are public content (covers), nobody's: a name that is not there is 404.
  'GET /uploads/{name}': anyone(404),
  // A survey's credential key is the same for everyone (decision 020): B's survey's is public.
  'GET /api/v1/surveys/{gid}/credential-key/': anyone(200, 404, 409),
  'POST /api/v1/credentials/': { signedIn: [400], visitor: [401] },
  // A's own vault: the first write makes it, later ones over version 0 are told to merge.
  'GET /api/v1/user/vault/': members(200),
  'PUT /api/v1/user/vault/': members(200, 409),
  // Anonymous: no user, IP or cookie is stored, so there is nothing of B's to touch.
  'POST /api/v1/page-views/': anyone(204),
  // Researchers' API (decision 031): a research token only; a session, any role's, is refused.
  'GET /api/v1/research/surveys/': anyone(401),
  'GET /api/v1/research/surveys/{gid}/codebook.json': anyone(401),
  'GET /api/v1/research/surveys/{gid}/export.json': anyone(401),
  'GET /api/v1/research/surveys/{gid}/export.csv': anyone(401),
  'GET /api/v1/research/surveys/{gid}/reach/': anyone(401),
};

const key = (r: Pick<ApiRoute, 'method' | 'pattern'>) => `${r.method} ${r.pattern}`;
const inputKey = (f: Pick<ApiField, 'in' | 'name'>) => `${f.in} ${f.name}`;
const isMemberRoute = (r: ApiRoute) => !r.pattern.startsWith('/api/v1/admin/');

interface Case {
  route: ApiRoute;
  /** `<in> <name>` of the input carrying B's value; null: nothing swapped. */
  input: string | null;
  swap: Swap | null;
}

/** One case per (member route, id-like input, B's value); one plain call for routes with none. */
function casesFor(routes: ApiRoute[], b: Owner): Case[] {
  return routes.filter(isMemberRoute).flatMap((route): Case[] => {
    const inputs = [...route.params, ...route.bodies.flat()]
      .map(inputKey)
      .filter((k, i, all) => B_IDS[k] && all.indexOf(k) === i);
    if (inputs.length === 0) return [{ route, input: null, swap: null }];
    return inputs.flatMap((input) =>
      B_IDS[input]!.swaps(b).map((swap) => ({ route, input, swap })),
    );
  });
}

/** The request of a case: B's value in its input, A's own or neutral values everywhere else. */
function requestOf(c: Case, b: Owner) {
  const given: Record<string, string> = c.swap ? { [c.input!]: c.swap.value, ...c.swap.with } : {};
  const question = b.answered.find((a) => a.qid === given['path qid']);
  const valueOf = (f: ApiField): string | number | undefined => {
    const k = inputKey(f);
    if (k in given) return given[k];
    if (B_IDS[k]) {
      if (!f.required) return undefined;
      const neutral = B_IDS[k].neutral;
      if (!neutral)
        throw new Error(`${key(c.route)}: what does A send in ${k}? Give it a neutral.`);
      return neutral(b);
    }
    const fill = NOT_IDS[k];
    if (!fill) throw new Error(`${key(c.route)}: unknown input ${k}`);
    return fill(question);
  };
  let url = c.route.pattern;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of c.route.params) {
    const v = valueOf(p);
    if (v === undefined) continue;
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(v)));
    else if (p.in === 'query') query.set(p.name, String(v));
    else headers[p.name] = String(v);
  }
  // The body shape (union branch) that has the swapped input, else the first.
  const shape =
    c.route.bodies.find((s) => s.some((f) => inputKey(f) === c.input)) ?? c.route.bodies[0];
  let body: Record<string, unknown> | undefined;
  if (shape) {
    body = {};
    for (const f of shape) {
      const v = valueOf(f);
      if (v !== undefined) body[f.name] = v;
    }
  } else if (c.route.method === 'POST' || c.route.method === 'PUT') body = {};
  if (query.size) url += `?${query.toString()}`;
  return { method: c.route.method, url, headers, body };
}

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/g;

/** What of B's a reply shows to someone else: B's secrets, a token for B, B's own answer. */
function leaksOf(res: LightMyRequestResponse, sent: string, b: Owner): string[] {
  const text = res.body + JSON.stringify(res.headers);
  // What the caller sent itself is no leak if it comes back (an error naming the input, say).
  const found = b.secrets
    .filter(([, v]) => text.includes(v) && !sent.includes(v))
    .map(([name]) => name);
  for (const token of text.match(JWT) ?? []) {
    try {
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
        sub?: unknown;
      };
      if (claims.sub === b.uuid) found.push('token (a JWT naming B)');
    } catch {
      // Not a JWT after all.
    }
  }
  // B's choice is a public label; next to B's qid as someone's own answer, it is B's.
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach(visit);
      return;
    }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    const mine = b.answered.find((a) => a.qid === o.qid);
    if (mine && o.answer === mine.answer) found.push(`answer to ${mine.qid}`);
    Object.values(o).forEach(visit);
  };
  try {
    visit(JSON.parse(res.body));
  } catch {
    // Not JSON: the text checks above are all.
  }
  return found;
}

describe.each(engines)('every member route with another member’s ids, on %s', (engine) => {
  let database: Database;
  let app: App;
  let routes: ApiRoute[];
  let b: Owner;
  const secrets = testSecrets();
  /** Each owner's last snapshot: the next case's "before". */
  const latest = new Map<Owner, Awaited<ReturnType<typeof snapshot>>>();

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    const base = testConfig();
    app = await createTestApp(
      database,
      {
        resultsRefreshSeconds: 0,
        analytics: true,
        // Many callers type B's number: with the real limits the later ones would get 429 (the
        // limits have their own tests in auth.test.ts) instead of the answer under test.
        sms: { ...base.sms, perNumberPerHour: 10_000, perIpPerHour: 10_000 },
        auth: { ...base.auth, loginFailuresPerNumber: 10_000, loginFailuresPerIp: 10_000 },
      },
      { secrets },
    );
    routes = apiRoutes(app);
    b = await makeOwner();
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  function expectStatus(res: LightMyRequestResponse, status: number, what: string) {
    if (res.statusCode !== status) {
      throw new Error(`${what}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    }
    return res;
  }

  /** A member with an answer, a rating and a timing of every kind, sessions and codes. */
  async function makeOwner(): Promise<Owner> {
    const phone = freshPhone();
    const password = 'B keeps this passphrase';
    const ip = freshIp();
    const dir = app.config.dataDir;
    const first = await signUp(app, phone, { password, ip });
    const signupCode = lastCodeFor(dir, phone)!;
    // A second session, rotated once, then logged out: both its tokens are ended.
    const login = json<{ access: string; refresh: string }>(
      expectStatus(
        await post(app, '/api/token/', { phone_number: phone, password }, { ip }),
        200,
        'login',
      ),
    );
    const rotated = json<{ refresh: string }>(
      expectStatus(
        await post(app, '/api/token/refresh/', { refresh: login.refresh }),
        200,
        'refresh',
      ),
    );
    expectStatus(
      await post(app, '/api/v1/user/logout/', { refresh: rotated.refresh }),
      204,
      'logout',
    );
    // A password reset: spends a reset code and a password token, ends the first session.
    expectStatus(
      await post(app, '/api/v1/user/forgot-password/', { phone_number: phone }, { ip }),
      202,
      'forgot',
    );
    const resetCode = lastCodeFor(dir, phone)!;
    const { password_token } = json<{ password_token: string }>(
      expectStatus(
        await post(
          app,
          '/api/v1/user/verify/',
          { phone_number: phone, otp: resetCode, purpose: 'reset' },
          { ip },
        ),
        200,
        'verify reset',
      ),
    );
    const live = json<{ access: string; refresh: string }>(
      expectStatus(
        await post(app, '/api/v1/user/set-password/', { password_token, password }, { ip }),
        200,
        'set-password',
      ),
    );
    const token = live.access;
    const { uuid } = json<{ uuid: string }>(await get(app, '/api/v1/user/detail/', { token }));

    const list = json<{
      results: Array<{
        gid: string;
        status: string;
        questions: Array<Omit<Answered, 'gid' | 'answer'>>;
      }>;
    }>(await get(app, '/api/v1/surveys/open-closed-random-video-surveys?page_size=100'));
    const open = list.results
      .filter((s) => s.status === 'Open')
      .flatMap((s) => s.questions.map((q) => ({ ...q, gid: s.gid })));
    const closedQs = open.filter((q) => q.type === 'Closed');
    const openQs = open.filter((q) => q.type === 'Open');
    const unique = crypto.randomBytes(6).toString('hex');
    const answered: Answered[] = [
      { ...closedQs[0]!, answer: closedQs[0]!.choices[0]!, key: `b-key-closed-${unique}` },
      { ...closedQs[1]!, answer: closedQs[1]!.choices[0]! },
      { ...openQs[0]!, answer: `B-private-text-${unique}`, key: `b-key-open-${unique}` },
    ];
    // B's device answers and rates with its credentials, never the session.
    const device = memberDevice(app, { token, profile: PROFILE });
    for (const a of answered) {
      const body = a.type === 'Closed' ? { choice: a.answer } : { text: a.answer };
      expectStatus(await device.answer(a.qid, body, a.key ? { key: a.key } : {}), 201, 'answer');
    }
    for (const [a, score] of [
      [answered[0]!, 7],
      [answered[2]!, 2],
    ] as const) {
      expectStatus(await device.rate(a.qid, score), 200, 'rating');
    }
    await app.credentials.mix(true);
    const credentials = await Promise.all(
      [...new Set(answered.map((a) => a.gid))].map((gid) => device.credentialFor(gid)),
    );
    const startTiming = async (kind: 'answer' | 'graph', qid: string) =>
      json<{ id: string }>(
        expectStatus(
          await post(app, `/api/v1/questions/${kind}-time-start/`, { qid }, { token }),
          201,
          'timing start',
        ),
      ).id;
    const endedTimings: string[] = [];
    for (const kind of ['answer', 'graph'] as const) {
      const id = await startTiming(kind, answered[0]!.qid);
      expectStatus(
        await send(
          app,
          'PUT',
          `/api/v1/questions/${kind}-time-end/${encodeURIComponent(id)}`,
          {},
          {
            token,
          },
        ),
        200,
        'timing end',
      );
      endedTimings.push(id);
    }
    const liveTimings = [
      await startTiming('answer', answered[1]!.qid),
      await startTiming('graph', answered[2]!.qid),
    ];
    // Page views are anonymous (no user, IP or cookie): nothing there is B's to protect.

    const pseudonym = hmacHex(derivePseudonymKey(secrets), uuid.toLowerCase());
    const endedRefresh = [first.refresh, login.refresh, rotated.refresh];
    return {
      uuid,
      phone,
      outbox: dir,
      pseudonym,
      access: live.access,
      refresh: live.refresh,
      endedRefresh,
      spentPasswordToken: password_token,
      spentCodes: [
        { otp: signupCode, purpose: 'signup' },
        { otp: resetCode, purpose: 'reset' },
      ],
      answered,
      device,
      credentials,
      liveTimings,
      endedTimings,
      secrets: [
        ...credentials.map((c): [string, string] => ['answer credential', c]),
        ['uuid', uuid],
        ['phone number', phone],
        ['national number', phone.slice(2)],
        ['pseudonym', pseudonym],
        ['access token', live.access],
        ['refresh token', live.refresh],
        ...endedRefresh.map((t): [string, string] => ['ended refresh token', t]),
        ['password token', password_token],
        ...answered
          .filter((a) => a.type === 'Open')
          .map((a): [string, string] => ['written answer', a.answer]),
        ...answered.filter((a) => a.key).map((a): [string, string] => ['idempotency key', a.key!]),
        ...[...liveTimings, ...endedTimings].map((t): [string, string] => ['timing id', t]),
      ],
    };
  }

  /**
   * Everything B owns, read from the rows (account, sessions, respondents: the account's, if
   * any, and those of B's credentials, their answers, ratings and timings, code challenges)
   * and through B's own export and answer list. What waits in the inbox is mixed first, so a
   * change made through B's credential shows. `codes` apart: the reset flow may change them
   * (Policy.textsB).
   */
  async function snapshot(owner: Owner): Promise<{ codes: string; rest: string }> {
    const db = app.db;
    await app.credentials.mix(true);
    const [user] = await db.select().from(users).where(eq(users.uuid, owner.uuid));
    const sessions = await db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, user!.id))
      .orderBy(asc(refreshTokens.id));
    const codes = await db
      .select()
      .from(otpChallenges)
      .where(eq(otpChallenges.phoneLookup, app.identities.lookup(owner.phone)))
      .orderBy(asc(otpChallenges.id));
    const pseudonyms = [
      owner.pseudonym,
      ...owner.credentials.map((c) => credentialTag(Buffer.from(c.split('.')[0]!, 'base64url'))),
    ];
    const respondent = await db
      .select()
      .from(respondents)
      .where(inArray(respondents.pseudonym, pseudonyms))
      .orderBy(asc(respondents.id));
    // B's credentials answered: their respondents exist (the account's need not).
    expect(respondent.length).toBeGreaterThanOrEqual(owner.credentials.length);
    const rids = respondent.map((r) => r.id);
    const own = {
      answers: await db
        .select()
        .from(answers)
        .where(inArray(answers.respondentId, rids))
        .orderBy(asc(answers.id)),
      ratings: await db
        .select()
        .from(ratings)
        .where(inArray(ratings.respondentId, rids))
        .orderBy(asc(ratings.respondentId), asc(ratings.questionId)),
      timings: await db
        .select()
        .from(timings)
        .where(inArray(timings.respondentId, rids))
        .orderBy(asc(timings.id)),
    };
    const token = owner.access;
    const {
      exported_at: _at,
      code_challenges,
      ...exported
    } = json(await get(app, '/api/v1/user/export/', { token }));
    const attempted = json(
      await get(app, '/api/v1/questions/my-attempted-questions/?page_size=100', { token }),
    );
    return {
      codes: JSON.stringify({ codes, code_challenges }),
      rest: JSON.stringify({ user, sessions, respondent, own, exported, attempted }),
    };
  }

  /**
   * A's device answers each of B's questions with what the cases send (never B's answer) and
   * rates it, with A's credentials.
   */
  async function answerAndRate(device: Device, owner: Owner) {
    for (const q of owner.answered) {
      const choice = NOT_IDS['body choice']!(q);
      const text = NOT_IDS['body text']!(q);
      const body = choice !== undefined ? { choice } : { text };
      expectStatus(await device.answer(q.qid, body), 201, 'A answers');
      expectStatus(await device.rate(q.qid, 5), 200, 'A rates');
    }
  }

  /** The caller's credential for the survey of `qid` (B's public question), if it gets one. */
  async function credentialOf(device: Device, qid: string): Promise<string | undefined> {
    try {
      return await device.credentialOf(qid);
    } catch {
      return undefined; // refused (an account under review): its device holds none
    }
  }

  /**
   * Sends one case as `who` (a fresh account of that kind, or B itself for the control) and
   * returns what is wrong: 5xx, a status off the policy, a leak, or B's state changed.
   */
  async function check(c: Case, who: Who | 'owner', owner: Owner): Promise<string[]> {
    const policy = POLICY[key(c.route)]!;
    const token =
      who === 'owner'
        ? owner.access
        : who === 'visitor'
          ? undefined
          : (
              await createMember(app, {
                role: who === 'moderator' || who === 'admin' ? who : 'member',
                status: who === 'under_review' ? 'under_review' : 'active',
              })
            ).token;
    const device =
      who === 'owner'
        ? owner.device
        : token
          ? memberDevice(app, { token, profile: PROFILE })
          : undefined;
    if (who === 'answered') await answerAndRate(device!, owner);
    const before = latest.get(owner) ?? (await snapshot(owner));
    const req = requestOf(c, owner);
    // The answer and rating routes take the caller's own credential and no session.
    const byCredential = CREDENTIAL_ROUTES.has(key(c.route));
    let credential: string | undefined;
    if (byCredential) {
      const qid = owner.answered.find(
        (a) => req.url.includes(`/questions/${a.qid}/`) || req.url.includes(`/surveys/${a.gid}/`),
      )?.qid;
      if (!qid) throw new Error(`${req.url}: which of B's questions or surveys?`);
      credential = device ? await credentialOf(device, qid) : undefined;
      if (credential && req.method === 'POST' && req.url.endsWith('/answer/')) {
        req.body = { ...req.body, profile: PROFILE };
      }
    }
    const res = await send(app, req.method, req.url, req.body, {
      ...(token && !byCredential ? { token } : {}),
      headers: { ...req.headers, ...(credential ? { 'candor-credential': credential } : {}) },
      ip: freshIp(),
    });
    const after = await snapshot(owner);
    latest.set(owner, after);

    const what = `${req.method} ${req.url} ${JSON.stringify(req.body ?? '')} ${
      c.swap ? `[${c.swap.label}]` : '[nothing swapped]'
    } as ${who}: ${res.statusCode} ${res.body.slice(0, 160)}`;
    const wrong: string[] = [];
    if (res.statusCode >= 500) wrong.push(`5xx: ${what}`);
    const expected =
      who === 'visitor' || (byCredential && !credential)
        ? policy.visitor
        : who === 'answered'
          ? (policy.answered ?? policy.signedIn)
          : policy.signedIn;
    if (!expected.includes(res.statusCode)) wrong.push(`not ${expected.join('/')}: ${what}`);
    const leaks = leaksOf(res, JSON.stringify(req), owner);
    if (leaks.length) wrong.push(`shows B's ${[...new Set(leaks)].join(', ')}: ${what}`);
    if (after.rest !== before.rest) wrong.push(`changed B's state: ${what}`);
    if (after.codes !== before.codes && !policy.textsB) wrong.push(`changed B's codes: ${what}`);
    return wrong;
  }

  it('knows every member route, and how to fill each of its inputs', () => {
    const member = routes.filter(isMemberRoute);
    const problems: string[] = [];
    for (const route of member) {
      if (route.tags.some((t) => t === 'admin' || t === 'moderation')) {
        problems.push(`${key(route)} is tagged for staff but is not under /api/v1/admin/`);
      }
      if (!POLICY[key(route)]) {
        problems.push(`${key(route)}: add it to POLICY with what it answers to B's ids`);
      }
      for (const f of [...route.params, ...route.bodies.flat()]) {
        const k = inputKey(f);
        if (B_IDS[k] || k in NOT_IDS) continue;
        problems.push(
          `${key(route)} takes \`${k}\`: add it to B_IDS (B's values for it) if it names ` +
            `anything of a member's, else to NOT_IDS (what A sends)`,
        );
      }
    }
    for (const k of Object.keys(POLICY)) {
      if (!member.some((r) => key(r) === k)) problems.push(`POLICY names ${k}: no such route`);
    }
    expect(problems).toEqual([]);
    // A route added with an id input is swapped without further ado; these hold today.
    const swapped = new Set(casesFor(routes, b).map((c) => `${key(c.route)} ${c.input}`));
    for (const pair of [
      'POST /api/v1/questions/{qid}/answer/ header idempotency-key',
      'PUT /api/v1/questions/graph-time-end/{id} path id',
      'POST /api/v1/user/set-password/ body password_token',
      'POST /api/v1/user/logout/ body refresh',
      'GET /api/v1/questions/{qid}/results/ path qid',
    ]) {
      expect(swapped).toContain(pair);
    }
  });

  it('answers every caller with B’s ids as the policy says, and reads or changes nothing of B', async () => {
    const cases = casesFor(routes, b);
    expect(cases.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const who of CALLERS) {
      for (const c of cases) wrong.push(...(await check(c, who, b)));
    }
    expect(wrong).toEqual([]);
    // B's running timings are still B's to end: A's tries spent nothing.
    for (const [i, kind] of (['answer', 'graph'] as const).entries()) {
      const id = encodeURIComponent(b.liveTimings[i]!);
      const ended = await send(
        app,
        'PUT',
        `/api/v1/questions/${kind}-time-end/${id}`,
        {},
        {
          token: b.access,
        },
      );
      expect(ended.statusCode, ended.body).toBe(200);
    }
  }, 120_000); // every route and caller, with a credential each: 10-20 s alone, more under load

  it('flags the same requests sent by B itself (the checks can fail)', async () => {
    const owner = await makeOwner();
    const flagged: string[] = [];
    for (const c of casesFor(routes, owner)) flagged.push(...(await check(c, 'owner', owner)));
    const flags = (kind: string, route: string) =>
      flagged.some((f) => f.startsWith(kind) && f.includes(route));
    // Reads: B's own views show B's number and uuid. B's account lists none of B's answers:
    // they carry no account (decision 020).
    expect(flags("shows B's", '/api/v1/user/detail/')).toBe(true);
    expect(flags("shows B's", '/api/v1/user/export/')).toBe(true);
    const listed = await get(app, '/api/v1/questions/my-attempted-questions/', {
      token: owner.access,
    });
    expect(json<{ count: number }>(listed).count).toBe(0);
    // Writes: B's rating (through B's credential, once mixed) changes.
    expect(flags('changed B', '/rating/')).toBe(true);
    // Off the policy: B's credential answered B's questions already (another answer: 409, B's
    // key with it too, never a replay of B's answer in place of a refusal); B may rate and end
    // its timings.
    expect(flags('not 201', '/answer/')).toBe(true);
    expect(flags('not 409', '/rating/')).toBe(true);
    expect(flags('not 404', '-time-end/')).toBe(true);
  });

  // Found by this file: the fifth wrong code said "Too many wrong codes" only where a live
  // challenge counted the wrong tries, so the reply told whether a number had an account. Now a
  // number that is sent no code gets a challenge no code matches (auth/codes.ts sendNone).
  // Reset: forgot-password, then wrong codes to set-password. Signup: create (a registered
  // number is texted "already registered"), then wrong codes to verify.
  const afterFiveWrongCodes = async (
    phone: string,
    start: { url: string; body: object },
    check: { url: string; body: object },
  ) => {
    const ip = freshIp();
    await post(app, start.url, start.body, { ip });
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await post(app, check.url, { phone_number: phone, ...check.body }, { ip });
      seen.push(`${res.statusCode} ${res.body}`);
    }
    return seen;
  };

  it('answers wrong reset codes for B’s number as for a number with no account', async () => {
    const registered = freshPhone();
    await signUp(app, registered);
    const replies = (phone: string) =>
      afterFiveWrongCodes(
        phone,
        { url: '/api/v1/user/forgot-password/', body: { phone_number: phone } },
        { url: '/api/v1/user/set-password/', body: { otp: '000000', password: A_PASSWORD } },
      );
    expect(await replies(registered)).toEqual(await replies(freshPhone()));
  });

  it('answers wrong signup codes for B’s number as for a number with no account', async () => {
    const registered = freshPhone();
    await signUp(app, registered);
    const replies = (phone: string) =>
      afterFiveWrongCodes(
        phone,
        { url: '/api/v1/user/create/', body: signupBody(phone) },
        { url: '/api/v1/user/verify/', body: { otp: '000000' } },
      );
    expect(await replies(registered)).toEqual(await replies(freshPhone()));
  });
});
