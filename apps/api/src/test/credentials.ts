import type { AnswerProfile, CredentialKey, CredentialResponse } from '@candor/contracts';
import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { App } from '../app.js';
import type { Db } from '../db/client.js';
import { choices, questions, surveys } from '../db/schema.js';
import { blindForTest } from './blinding.js';
import { get, json, post } from './accounts.js';

export { blindForTest };

/**
 * What a member's device does for survey `gid`: fetches its key without a session, blinds,
 * asks for the signature with the member's token and finalizes it into a `Candor-Credential`.
 */
export async function obtainCredential(
  app: App,
  token: string,
  gid: string,
  opts: { ip?: string } = {},
): Promise<string> {
  const keyRes = await get(app, `/api/v1/surveys/${gid}/credential-key/`, opts);
  if (keyRes.statusCode !== 200) throw new Error(`key: ${keyRes.statusCode} ${keyRes.body}`);
  const key = json<CredentialKey>(keyRes);
  const device = await blindForTest(Buffer.from(key.public_key, 'base64url'));
  const res = await post(
    app,
    '/api/v1/credentials/',
    { requests: [{ gid, blinded_msg: device.blindedMsg.toString('base64url') }] },
    { token, ...opts },
  );
  const body = json<CredentialResponse>(res);
  if (res.statusCode !== 200 || body.credentials.length !== 1) {
    throw new Error(`issue: ${res.statusCode} ${res.body}`);
  }
  return device.finalize(Buffer.from(body.credentials[0]!.blind_sig, 'base64url'));
}

/** An answer redeemed with a credential, no session: as the web app sends it. */
export function redeem(
  app: App,
  qid: string,
  credential: string,
  body: Record<string, unknown>,
  opts: { key?: string; profile?: AnswerProfile | null; ip?: string } = {},
) {
  const profile =
    opts.profile === null
      ? {}
      : { profile: opts.profile ?? { gender: 'female', age_band: '25-34', country: 'US' } };
  return post(
    app,
    `/api/v1/questions/${qid}/answer/`,
    { ...body, ...profile },
    {
      headers: {
        'candor-credential': credential,
        ...(opts.key ? { 'idempotency-key': opts.key } : {}),
      },
      ...(opts.ip ? { ip: opts.ip } : {}),
    },
  );
}

export interface ClosedQuestion {
  id: number;
  qid: string;
  labels: string[];
}
export interface ReleasedSurvey {
  id: number;
  gid: string;
  closed: boolean;
  questions: ClosedQuestion[];
}

/** Every published, released survey with its closed questions in order (the seed's, in tests). */
export async function releasedSurveys(db: Db): Promise<ReleasedSurvey[]> {
  const rows = await db
    .select({
      sid: surveys.id,
      gid: surveys.gid,
      closedAt: surveys.closedAt,
      id: questions.id,
      qid: questions.qid,
      type: questions.type,
    })
    .from(questions)
    .innerJoin(surveys, eq(surveys.id, questions.surveyId))
    .where(and(isNotNull(surveys.publishedAt), lte(surveys.releaseDate, new Date())))
    .orderBy(asc(questions.surveyId), asc(questions.position));
  const labels = await db.select().from(choices).orderBy(asc(choices.position));
  const bySurvey = new Map<number, ReleasedSurvey>();
  for (const r of rows.filter((x) => x.type === 'Closed')) {
    const s = bySurvey.get(r.sid) ?? {
      id: r.sid,
      gid: r.gid,
      closed: r.closedAt !== null,
      questions: [],
    };
    s.questions.push({
      id: r.id,
      qid: r.qid,
      labels: labels.filter((c) => c.questionId === r.id).map((c) => c.label),
    });
    bySurvey.set(r.sid, s);
  }
  return [...bySurvey.values()];
}

/**
 * A member's device, as tests need it once the session no longer answers: it asks one
 * credential per survey (once, with the member's token) and answers and rates with it, never
 * with the session, carrying the member's class. Answers wait in the inbox until a mix:
 * `answerNow` forces one, so what follows reads them counted, as after the mixer's next pass.
 */
export function memberDevice(
  app: App,
  member: { token: string; profile?: AnswerProfile | null; ip?: string },
) {
  const from = member.ip ? { ip: member.ip } : {};
  const held = new Map<string, Promise<string>>();
  const gidOf = async (qid: string): Promise<string> => {
    const [row] = await app.db
      .select({ gid: surveys.gid })
      .from(questions)
      .innerJoin(surveys, eq(surveys.id, questions.surveyId))
      .where(eq(questions.qid, qid));
    if (!row) throw new Error(`no question ${qid}`);
    return row.gid;
  };
  const credentialFor = (gid: string): Promise<string> => {
    let credential = held.get(gid);
    if (!credential) {
      credential = obtainCredential(app, member.token, gid, from);
      // A refusal (under review, suspended) is asked again next time, as the device does.
      credential.catch(() => held.delete(gid));
      held.set(gid, credential);
    }
    return credential;
  };
  const device = {
    credentialFor,
    async credentialOf(qid: string): Promise<string> {
      return credentialFor(await gidOf(qid));
    },
    /** Redeems an answer: 201 when acknowledged (sealed in the inbox, counted once mixed). */
    async answer(qid: string, body: Record<string, unknown>, opts: { key?: string } = {}) {
      return redeem(app, qid, await device.credentialOf(qid), body, {
        ...opts,
        ...from,
        profile: member.profile ?? null,
      });
    },
    /** Answers and mixes at once, so the answer is stored and counted as after a mix. */
    async answerNow(qid: string, body: Record<string, unknown>, opts: { key?: string } = {}) {
      const res = await device.answer(qid, body, opts);
      await app.credentials.mix(true);
      return res;
    },
    /** Withdraws every answer and rating the survey's credential gave (as before an erasure). */
    async withdraw(gid: string) {
      return post(
        app,
        `/api/v1/surveys/${gid}/answers/withdrawal/`,
        {},
        { headers: { 'candor-credential': await credentialFor(gid) } },
      );
    },
    async rate(qid: string, score: number) {
      return post(
        app,
        `/api/v1/questions/${qid}/rating/`,
        { score },
        { headers: { 'candor-credential': await device.credentialOf(qid) }, ...from },
      );
    },
  };
  return device;
}

/** The default class a device sends with its answers when the caller gives none. */
const SOME_PROFILE: AnswerProfile = { gender: 'female', age_band: '25-34', country: 'US' };

/**
 * `obtainCredential` over HTTP, for tests and benches that talk to real server processes: the
 * keys of `gids` fetched without a session, one `POST /api/v1/credentials/` with the member's
 * token for all of them (as the device asks at login), each signature finalized. Throws on any
 * refusal (an account under review or suspended is refused: 403).
 */
export async function obtainCredentialsOverHttp(
  origin: string,
  token: string,
  gids: string[],
): Promise<Map<string, string>> {
  const devices = await Promise.all(
    gids.map(async (gid) => {
      const keyRes = await fetch(`${origin}/api/v1/surveys/${gid}/credential-key/`);
      if (keyRes.status !== 200) throw new Error(`key: ${keyRes.status} ${await keyRes.text()}`);
      const key = (await keyRes.json()) as CredentialKey;
      return blindForTest(Buffer.from(key.public_key, 'base64url'));
    }),
  );
  const res = await fetch(`${origin}/api/v1/credentials/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      requests: gids.map((gid, i) => ({
        gid,
        blinded_msg: devices[i]!.blindedMsg.toString('base64url'),
      })),
    }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`issue: ${res.status} ${text}`);
  const body = JSON.parse(text) as CredentialResponse;
  if (body.credentials.length !== gids.length) throw new Error(`issue: ${text}`);
  const held = new Map<string, string>();
  for (const c of body.credentials) {
    const i = gids.indexOf(c.gid);
    if (i < 0) throw new Error(`issue: unexpected ${c.gid}`);
    held.set(c.gid, await devices[i]!.finalize(Buffer.from(c.blind_sig, 'base64url')));
  }
  return held;
}

/** `redeem` over HTTP: an answer with the credential and no session (`Response` unread). */
export function redeemOverHttp(
  origin: string,
  qid: string,
  credential: string,
  body: Record<string, unknown>,
  opts: { key?: string; profile?: AnswerProfile; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(`${origin}/api/v1/questions/${qid}/answer/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'candor-credential': credential,
      ...(opts.key ? { 'idempotency-key': opts.key } : {}),
    },
    body: JSON.stringify({ ...body, profile: opts.profile ?? SOME_PROFILE }),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}
