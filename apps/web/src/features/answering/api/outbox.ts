import {
  ageBandOf,
  type AnswerProfile,
  type AnswerRequest,
  type AnswerResponse,
  type Gender,
  type User,
} from '@candor/contracts';
import type { VaultContents } from '../../../lib/vault';
import { ApiError } from '../../../lib/api-client';
import { type OwnProfile, useLocalAnswers } from '../../../lib/local-answers';
import { takeSignupProfile } from '../../../lib/signup-profile';
import {
  endVisitorSession,
  liveVisitorSessions,
  VISITOR,
  visitorSessionOwner,
} from '../../../lib/visitor-session';
import {
  localDb,
  today,
  type CandorDb,
  type OutboxItem,
  type StoredProfile,
} from '../lib/local-db';
import {
  postAnswerWithCredential,
  postRatingWithCredential,
  withdrawWithCredential,
} from './answers';
import { createCredentials } from './credentials';

/** What a withdrawn survey says when answered again (the API's words). */
export const WITHDRAWN_MESSAGE =
  'You withdrew your answers to this survey: it takes no more of them from you.';

/** What a survey answered before credentials says when answered again. */
export const ANSWERED_BEFORE_MESSAGE =
  'You began this survey before answers became anonymous: to keep those answers apart from your account, it takes no more from you.';

/** Why a survey takes no more answers from the member, if it does not. */
export type ClosedToMember = 'withdrawn' | 'answered-before' | null;

/**
 * The outbox keeps every answer and rating in IndexedDB until the API acknowledges it, so an
 * answer given offline, before signing up, or just before the tab closes is sent later and
 * counted once (each answer carries its Idempotency-Key from the first attempt on).
 */

/**
 * A visitor's items belong to the browser session that gave them (issue 28: on a shared browser
 * they are not the next person's): their owner is `visitor:<session id>` (lib/visitor-session),
 * the id kept in this tab's sessionStorage. A login never takes them silently: the person is
 * asked (`claimVisitorAnswers` or `discardVisitorAnswers`). Items of a session whose tabs are
 * all gone are deleted at the next start, never offered. A bare `visitor` owner (before
 * sessions) is such an item too.
 */
const isVisitor = (owner: string) => owner === VISITOR || owner.startsWith(`${VISITOR}:`);

type Listener = (event: OutboxEvent) => void;
export type OutboxEvent =
  | { type: 'sent'; item: OutboxItem; response: AnswerResponse | null }
  | { type: 'dropped'; item: OutboxItem; error: ApiError }
  | { type: 'waiting'; pending: number }
  /**
   * The vault brought answers or ratings given on another device, or the account's answers of
   * before credentials were copied to this one.
   */
  | { type: 'restored'; answers: number };

interface State {
  db: CandorDb | null;
  /** The logged-in user's uuid, or null for a visitor (whose items wait for a session). */
  owner: string | null;
  online: () => boolean;
  chain: Promise<void>;
  /** The last owner change (claiming a visitor's items); reads wait for it. */
  ownerChange: Promise<void>;
  retryTimer: ReturnType<typeof setTimeout> | null;
  /** Responses of answers acknowledged in this page's life, by Idempotency-Key. */
  acknowledged: Map<string, AnswerResponse>;
  /**
   * When each answer was acknowledged in this page's life (ms), by survey and qid: such an
   * answer is not in results published before then. Memory only, never stored.
   */
  sentAt: Map<string, Map<string, number>>;
  listeners: Set<Listener>;
  /** The sessions a live tab holds, or null where the browser cannot tell (all count as ended). */
  liveSessions: () => Promise<Set<string> | null>;
  /** The start's sweep of ended sessions; every read and write waits for it. */
  swept: Promise<void> | null;
  /** The member's breakdown class, sent with each answer redeemed with a credential. */
  profile: AnswerProfile | null;
  /** The logged-in account's facts the class needs: its number and country. */
  account: Pick<User, 'phone_number' | 'country'> | null;
  /** Answers wait on this device: the account is under review (no credential yet). */
  held: boolean;
}

const state: State = {
  db: null,
  owner: null,
  online: () =>
    typeof navigator === 'undefined' || (navigator.onLine as boolean | undefined) !== false,
  chain: Promise.resolve(),
  ownerChange: Promise.resolve(),
  retryTimer: null,
  acknowledged: new Map(),
  sentAt: new Map(),
  listeners: new Set(),
  liveSessions: liveVisitorSessions,
  swept: null,
  profile: null,
  account: null,
  held: false,
};

function db(): CandorDb {
  state.db ??= localDb();
  return state.db;
}

/** The member's anonymous credentials on this device (decision 020). */
export const credentials = createCredentials({ db });

/** Tests use their own database, and say which visitor sessions other tabs hold. */
export function useOutboxDb(
  database: CandorDb,
  liveSessions: () => Promise<Set<string> | null> = liveVisitorSessions,
): void {
  state.db = database;
  // A retry scheduled for the last database's items has nothing of this one to retry.
  if (state.retryTimer) clearTimeout(state.retryTimer);
  state.retryTimer = null;
  state.acknowledged.clear();
  state.sentAt.clear();
  state.chain = Promise.resolve();
  state.liveSessions = liveSessions;
  state.swept = null;
  state.held = false;
}

/**
 * The logged-in account (null when logged out), whose answers carry the member's breakdown class
 * (gender, age band, country): made from the profile on this device, which their vault carries
 * between devices and which never sits beside the account (decision 020, slice 2). Without one
 * the class is undisclosed, in the account's country: answers never wait for it.
 */
export function setOutboxProfile(account: Pick<User, 'phone_number' | 'country'> | null): void {
  state.account = account;
  void refreshProfile();
}

async function refreshProfile(): Promise<void> {
  await state.ownerChange;
  await loadProfile();
}

/** Reads the class answers carry for the current owner (after an owner change, never during). */
async function loadProfile(): Promise<void> {
  const owner = state.owner;
  const account = state.account;
  if (!owner || !account) {
    state.profile = null;
    return;
  }
  let stored = await db().profiles.get(owner);
  // Given at sign-up in this tab, for this number: this device keeps it from now on.
  const signedUp = stored ? null : takeSignupProfile(account.phone_number);
  if (signedUp) {
    stored = { owner, ...signedUp, at: new Date().toISOString() };
    await db().profiles.put(stored);
    vaultChanged();
  }
  const was = state.profile;
  state.profile = stored
    ? {
        gender: stored.gender as Gender,
        age_band: ageBandOf(stored.yearOfBirth),
        country: stored.country,
      }
    : { gender: 'undisclosed', age_band: 'undisclosed', country: account.country };
  if (!was) void flushOutbox();
}

/** What the logged-in member told their devices about themselves (null without it). */
export async function deviceProfile(): Promise<OwnProfile | null> {
  await state.ownerChange;
  if (!state.owner) return null;
  const stored = await db().profiles.get(state.owner);
  return stored ? ownProfile(stored) : null;
}

const ownProfile = ({ gender, yearOfBirth, country }: StoredProfile): OwnProfile => ({
  gender: gender as Gender,
  yearOfBirth,
  country,
});

type ProfileFacts = Pick<StoredProfile, 'gender' | 'yearOfBirth' | 'country'>;
const sameProfile = (a: ProfileFacts, b: ProfileFacts) =>
  a.gender === b.gender && a.yearOfBirth === b.yearOfBirth && a.country === b.country;

/** Keeps the member's profile on this device; the vault takes it at its next sync. */
export async function saveDeviceProfile(profile: OwnProfile): Promise<void> {
  await state.ownerChange;
  const owner = state.owner;
  if (!owner) return;
  await db().profiles.put({ owner, ...profile, at: new Date().toISOString() });
  await loadProfile();
  vaultChanged();
  changed();
}

/** True while this member's answers wait on the device for their account's approval. */
export function answersHeld(): boolean {
  return state.held;
}

/** This tab's visitor owner, `visitor:<id>`. */
export const visitorOwner = visitorSessionOwner;

/** Starts a new visitor session in this tab (after a logout or "this is not my device"). */
function newVisitorSession() {
  endVisitorSession();
  visitorOwner();
}

/**
 * At start: deletes the items of visitor sessions that ended (no live tab holds them), so they
 * are never offered to whoever logs in next.
 */
function sweep(): Promise<void> {
  state.swept ??= (async () => {
    const mine = visitorOwner();
    const live = (await state.liveSessions().catch(() => null)) ?? new Set<string>();
    const ended = (owner: string) => isVisitor(owner) && owner !== mine && !live.has(owner);
    await db().transaction('rw', db().outbox, db().answeredQuestions, async () => {
      await db()
        .outbox.filter((i) => ended(i.owner))
        .delete();
      await db()
        .answeredQuestions.filter((a) => ended(a.owner))
        .delete();
    });
    await countVisitorAnswers();
  })().catch(() => undefined);
  return state.swept;
}

/** Tells the shell how many answers this tab's visitor session keeps. */
async function countVisitorAnswers(): Promise<number> {
  const owner = visitorOwner();
  const count = await db()
    .answeredQuestions.filter((a) => a.owner === owner)
    .count();
  useLocalAnswers.setState({ visitorAnswers: count });
  return count;
}

function changed(patch: { offered?: number } = {}) {
  useLocalAnswers.setState((s) => ({ ...patch, version: s.version + 1 }));
}

export function onOutbox(listener: Listener): () => void {
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

function emit(event: OutboxEvent) {
  for (const l of state.listeners) l(event);
}

/** Who is answering: items are only ever sent for their own owner (or claimed from a visitor). */
export function currentOwner(): string {
  return state.owner ?? visitorOwner();
}

/**
 * Sets the session's user (null when logged out). On login, answers this tab's visitor session
 * gave wait for the person's decision (`offered`); on logout this session's visitor answers and
 * the user's answered-questions record leave this browser, and the tab starts a new visitor
 * session.
 */
export function setOutboxOwner(uuid: string | null): Promise<void> {
  const previous = state.owner;
  if (previous === uuid) return state.ownerChange;
  state.owner = uuid;
  state.ownerChange = state.ownerChange
    .then(() => changeOwner(previous, uuid))
    .then(loadProfile)
    .catch(() => undefined);
  return state.ownerChange;
}

async function changeOwner(previous: string | null, uuid: string | null): Promise<void> {
  await sweep();
  if (uuid) {
    // Never claimed here: whoever logs in may not be who answered (a shared browser).
    const offered = await countVisitorAnswers();
    changed({ offered });
    // The batch of credentials for every open survey, then what waits goes out with them.
    void credentials
      .issueForOpenSurveys(uuid)
      .then(vaultChanged, () => undefined)
      .then(() => flushOutbox());
  } else if (previous) {
    // The member's unsent items stay for their own next login (never sent by anyone else);
    // the record of answers goes, and so do answers given here before the login, unclaimed.
    const visitor = visitorOwner();
    await db().transaction('rw', db().outbox, db().answeredQuestions, db().profiles, async () => {
      await db().outbox.where('owner').equals(visitor).delete();
      await db()
        .answeredQuestions.filter((a) => a.owner === previous || a.owner === visitor)
        .delete();
      await db().profiles.delete(previous);
    });
    newVisitorSession();
    await countVisitorAnswers();
    changed({ offered: 0 });
  }
}

/**
 * The logged-in person said the answers this tab gave as a visitor are theirs: they become the
 * member's and are sent. A question the member has answered already keeps their own answer.
 */
export async function claimVisitorAnswers(): Promise<void> {
  await state.ownerChange;
  const owner = state.owner;
  if (!owner) return;
  const visitor = visitorOwner();
  await db().transaction('rw', db().outbox, db().answeredQuestions, async () => {
    const own = new Set(
      (
        await db()
          .answeredQuestions.filter((a) => a.owner === owner)
          .toArray()
      ).map((a) => a.qid),
    );
    await db()
      .answeredQuestions.filter((a) => a.owner === visitor && own.has(a.qid))
      .delete();
    await db()
      .outbox.where('owner')
      .equals(visitor)
      .filter((i) => i.kind === 'answer' && own.has(i.qid))
      .delete();
    await db().outbox.where('owner').equals(visitor).modify({ owner });
    await db()
      .answeredQuestions.filter((a) => a.owner === visitor)
      .modify({ owner });
  });
  await countVisitorAnswers();
  changed({ offered: 0 });
  await flushOutbox();
}

/** The logged-in person said the answers this tab gave as a visitor are not theirs. */
export async function discardVisitorAnswers(): Promise<void> {
  await state.ownerChange;
  const visitor = visitorOwner();
  await db().transaction('rw', db().outbox, db().answeredQuestions, async () => {
    await db().outbox.where('owner').equals(visitor).delete();
    await db()
      .answeredQuestions.filter((a) => a.owner === visitor)
      .delete();
  });
  await countVisitorAnswers();
  changed({ offered: 0 });
}

/** "This is not my device": every answer and unsent item, whoever's; a new visitor session. */
export async function forgetDevice(): Promise<void> {
  await state.ownerChange;
  await db().transaction('rw', db().outbox, db().answeredQuestions, db().profiles, async () => {
    await db().outbox.clear();
    await db().answeredQuestions.clear();
    await db().profiles.clear();
  });
  state.acknowledged.clear();
  state.sentAt.clear();
  newVisitorSession();
  await countVisitorAnswers();
  changed({ offered: 0 });
}

/** An erased account: what this browser holds of it goes, unsent items included. */
export async function forgetAccount(uuid: string): Promise<void> {
  await state.ownerChange;
  await db().transaction('rw', db().outbox, db().answeredQuestions, db().profiles, async () => {
    await db().outbox.where('owner').equals(uuid).delete();
    await db()
      .answeredQuestions.filter((a) => a.owner === uuid)
      .delete();
    await db().profiles.delete(uuid);
  });
  changed();
}

/** The answers this browser holds for the current owner, by qid. */
export async function localAnswers(gid?: string) {
  await sweep();
  await state.ownerChange;
  const owner = currentOwner();
  const rows = await (gid
    ? db().answeredQuestions.where('gid').equals(gid).toArray()
    : db().answeredQuestions.toArray());
  return new Map(rows.filter((r) => r.owner === owner).map((r) => [r.qid, r]));
}

/** The device's records changed: the vault is written at its next turn (never now). */
function vaultChanged() {
  if (state.owner)
    void import('../../../lib/vault').then((v) => v.vaultChanged()).catch(() => undefined);
}

/** The member's records on this device, as their vault holds them (decision 020). */
export async function vaultContents(): Promise<VaultContents> {
  await state.ownerChange;
  const owner = state.owner;
  const now = new Date().toISOString();
  if (!owner)
    return { v: 1, answers: [], ratings: [], credentials: [], profile: null, updatedAt: now };
  const rows = await db()
    .answeredQuestions.filter((a) => a.owner === owner)
    .toArray();
  const held = await credentials.all(owner);
  const profile = await db().profiles.get(owner);
  return {
    v: 1,
    answers: rows.map(({ qid, gid, date, answer, isBlank }) => ({
      qid,
      gid,
      date,
      answer,
      isBlank,
    })),
    ratings: rows.flatMap((r) =>
      r.rating === undefined
        ? []
        : [{ qid: r.qid, score: r.rating, ...(r.ratedAt !== undefined && { at: r.ratedAt }) }],
    ),
    credentials: held.flatMap((c) =>
      (c.state === 'ready' || c.state === 'withdrawn') && c.token
        ? [
            {
              gid: c.gid,
              keyId: c.keyId ?? '',
              token: c.token,
              ...(c.state === 'withdrawn' && { withdrawn: true as const }),
            },
          ]
        : [],
    ),
    profile: profile ? { ...ownProfile(profile), at: profile.at } : null,
    updatedAt: now,
  };
}

/**
 * What the vault brought from the member's other devices: their answers (already sent from
 * there, so never queued here), ratings, and credentials (a survey this device could not get
 * one for, because another device holds it, can then be answered here).
 */
export async function applyVault(merged: VaultContents): Promise<void> {
  await state.ownerChange;
  const owner = state.owner;
  if (!owner) return;
  const ratings = new Map(merged.ratings.map((r) => [r.qid, r]));
  let restored = 0;
  await db().transaction('rw', db().answeredQuestions, async () => {
    const have = new Map(
      (
        await db()
          .answeredQuestions.filter((a) => a.owner === owner)
          .toArray()
      ).map((a) => [a.qid, a]),
    );
    for (const a of merged.answers) {
      const rating = ratings.get(a.qid);
      const rated = rating && {
        rating: rating.score,
        ...(rating.at !== undefined && { ratedAt: rating.at }),
      };
      const mine = have.get(a.qid);
      if (!mine) {
        await db().answeredQuestions.add({ ...a, owner, ...rated });
        restored++;
      } else if (rated && mine.rating !== rated.rating) {
        await db().answeredQuestions.update(mine.id, rated);
        restored++;
      }
    }
  });
  let adopted = 0;
  for (const c of merged.credentials) {
    if (await credentials.adopt(owner, c.gid, c.token, c.keyId, c.withdrawn)) adopted++;
    // Withdrawn on another device: this device's record of those answers goes too.
    if (c.withdrawn) await forgetSurvey(owner, c.gid);
  }
  // The profile set on another device (the newer one when both have one).
  const theirs = merged.profile;
  const mine = await db().profiles.get(owner);
  const at = theirs?.at ?? new Date(0).toISOString();
  if (theirs && (!mine || (at > mine.at && !sameProfile(mine, theirs)))) {
    const { gender, yearOfBirth, country } = theirs;
    await db().profiles.put({ owner, gender, yearOfBirth, country, at });
    await loadProfile();
    adopted++;
  }
  // Only a change is told: every sync applies the vault, and the screens read theirs again.
  if (restored + adopted > 0) changed();
  if (restored > 0) emit({ type: 'restored', answers: restored });
  void flushOutbox();
}

/** Deletes `owner`'s record of survey `gid` on this device: its answers and what waits. */
async function forgetSurvey(owner: string, gid: string): Promise<void> {
  await db().transaction('rw', db().outbox, db().answeredQuestions, async () => {
    await db()
      .outbox.where('owner')
      .equals(owner)
      .filter((i) => i.gid === gid)
      .delete();
    await db()
      .answeredQuestions.where('gid')
      .equals(gid)
      .filter((a) => a.owner === owner)
      .delete();
  });
}

/** Whether the member can withdraw survey `gid`'s answers from this device (its credential). */
export async function canWithdraw(gid: string): Promise<boolean> {
  await state.ownerChange;
  if (!state.owner) return false;
  return (await credentials.stateFor(state.owner, gid)).kind === 'ready';
}

/**
 * Whether survey `gid` takes no more answers from the member: they withdrew its answers (on
 * this device or, by the vault, another), or answered it before credentials (`answered-before`).
 */
export async function closedToMember(gid: string): Promise<ClosedToMember> {
  await state.ownerChange;
  if (!state.owner) return null;
  const { kind } = await credentials.stateFor(state.owner, gid);
  return kind === 'withdrawn' ? 'withdrawn' : kind === 'legacy' ? 'answered-before' : null;
}

/**
 * Withdraws the member's answers to survey `gid` with its credential (decision 020, slice 4):
 * what waits here is dropped first, then the API takes every answer and rating the credential
 * gave out of the results and the database; this device's record of them goes, and the vault's
 * at its next write (a withdrawal wins every merge). Throws ApiError; nothing changes here
 * unless the API said it was done.
 */
export async function withdrawSurvey(gid: string): Promise<void> {
  await state.ownerChange;
  const owner = state.owner;
  if (!owner) throw new ApiError(401, 'UNAUTHENTICATED', 'Log in to withdraw your answers.');
  const held = await credentials.stateFor(owner, gid);
  if (held.kind !== 'ready') {
    throw new ApiError(
      409,
      'INVALID_STATE',
      'This device holds no credential for this survey, so it cannot withdraw its answers.',
    );
  }
  // Nothing of the survey may go out after the withdrawal (it would be refused anyway).
  await db()
    .outbox.where('owner')
    .equals(owner)
    .filter((i) => i.gid === gid)
    .delete();
  await withdrawWithCredential(gid, held.token);
  await credentials.markWithdrawn(owner, gid);
  await forgetSurvey(owner, gid);
  changed();
  vaultChanged();
}

/**
 * The logged-in member's answers on this device, for their mirror (none for a visitor). Given
 * the member the session names, it waits until the outbox is theirs (a reloaded page may read
 * before the app has told it whose it is).
 */
export async function ownAnswers(member?: string) {
  if (member) await setOutboxOwner(member);
  await state.ownerChange;
  if (!state.owner) return [];
  const owner = state.owner;
  const rows = await db()
    .answeredQuestions.filter((a) => a.owner === owner)
    .toArray();
  return rows.map(({ qid, gid, date, answer, isBlank, rating }) => ({
    qid,
    gid,
    date,
    answer,
    isBlank,
    ...(rating !== undefined && { rating }),
  }));
}

/**
 * The answers of survey `gid` this page sent (a member's right away, a visitor's once they
 * signed up), with when (ms): results published before then do not hold them yet.
 */
export function answersSentThisPage(gid: string): Record<string, number> {
  return Object.fromEntries(state.sentAt.get(gid) ?? []);
}

/** Pending items of the current owner (a visitor's wait for a session). */
export async function pendingCount(): Promise<number> {
  await sweep();
  return db().outbox.where('owner').equals(currentOwner()).count();
}

/**
 * The questions of survey `gid` whose answer by the person on this device still waits here to
 * be sent. Absent is not "taken": the outbox also lets go of answers it dropped (a survey closed,
 * answered on another device), so only a `sent` event says the API took one.
 */
export async function waitingAnswers(gid: string): Promise<Set<string>> {
  await sweep();
  const rows = await db().outbox.where('owner').equals(currentOwner()).toArray();
  return new Set(rows.filter((r) => r.kind === 'answer' && r.gid === gid).map((r) => r.qid));
}

export interface RecordedAnswer {
  key: string;
  /** The API's response when it was acknowledged right away; null when it waits in the outbox. */
  response: AnswerResponse | null;
}

/**
 * Records an answer in the browser (the answered-questions table and the outbox, atomically)
 * and, with a session, sends it at once. Never loses the answer: whatever the network does, it
 * stays in the outbox until acknowledged.
 */
export async function recordAnswer(input: {
  qid: string;
  gid: string;
  body: AnswerRequest;
  answer: string;
  isBlank: boolean;
}): Promise<RecordedAnswer> {
  await sweep();
  const owner = currentOwner();
  const key = crypto.randomUUID();
  await db().transaction('rw', db().outbox, db().answeredQuestions, async () => {
    const existing = await db()
      .answeredQuestions.where('qid')
      .equals(input.qid)
      .filter((a) => a.owner === owner)
      .first();
    // An answer still waiting to be sent counts too (its record may be gone: a logout deletes
    // the records, not the unsent items). Sending a second one would, for a randomized-response
    // question, send a second draw of the same person's answer (decision 028).
    const waiting = await db()
      .outbox.where('qid')
      .equals(input.qid)
      .filter((item) => item.owner === owner && item.kind === 'answer')
      .first();
    if (existing || waiting) return;
    await db().answeredQuestions.add({
      qid: input.qid,
      gid: input.gid,
      date: today(),
      answer: input.answer,
      isBlank: input.isBlank,
      owner,
    });
    await db().outbox.add({
      key,
      kind: 'answer',
      qid: input.qid,
      gid: input.gid,
      body: input.body,
      owner,
      tries: 0,
    });
  });
  if (state.owner) {
    vaultChanged();
    await flushOutbox();
  } else await countVisitorAnswers();
  return { key, response: state.acknowledged.get(key) ?? null };
}

/** Queues an interest rating (0..10); a newer rating of the same question replaces a queued one. */
export async function recordRating(input: { qid: string; gid: string; score: number }) {
  await sweep();
  const owner = currentOwner();
  const key = `rating:${owner}:${input.qid}`;
  await db().transaction('rw', db().outbox, db().answeredQuestions, async () => {
    await db()
      .answeredQuestions.where('qid')
      .equals(input.qid)
      .filter((a) => a.owner === owner)
      .modify({ rating: input.score, ratedAt: new Date().toISOString() });
    await db().outbox.where('key').equals(key).delete();
    await db().outbox.add({
      key,
      kind: 'rating',
      qid: input.qid,
      gid: input.gid,
      body: { score: input.score },
      owner,
      tries: 0,
    });
  });
  if (state.owner) {
    vaultChanged();
    void flushOutbox();
  }
}

function retryable(err: unknown): boolean {
  if (!(err instanceof ApiError)) return true;
  return (
    err.code === 'NETWORK' ||
    err.status >= 500 ||
    err.code === 'RATE_LIMITED' ||
    err.code === 'UNAUTHENTICATED' ||
    err.code === 'TOKEN_INVALID'
  );
}

function scheduleRetry(tries: number) {
  if (state.retryTimer) return;
  const delay = Math.min(60_000, 1000 * 2 ** Math.min(tries, 6));
  state.retryTimer = setTimeout(() => {
    state.retryTimer = null;
    void flushOutbox();
  }, delay);
}

/** Answers wait: the account is under review (sent once approved, at a later start or login). */
class Held extends Error {}
/** Answers wait for the member's breakdown class (the user's details are still loading). */
class NoProfile extends Error {}

/** Sends one item the way every survey takes it: with its anonymous credential, no session. */
async function sendOne(item: OutboxItem, owner: string): Promise<AnswerResponse | null> {
  let held = await credentials.stateFor(owner, item.gid);
  if (held.kind === 'none' || held.kind === 'held') {
    // Not yet asked for (a survey opened since the last batch): the batch for every open survey.
    await credentials.issueForOpenSurveys(owner, [item.gid]);
    held = await credentials.stateFor(owner, item.gid);
  }
  switch (held.kind) {
    case 'ready': {
      if (item.kind === 'rating') {
        await postRatingWithCredential(
          item.qid,
          (item.body as { score: number }).score,
          held.token,
        );
        return null;
      }
      if (!state.profile) throw new NoProfile();
      const body = { ...(item.body as AnswerRequest), profile: state.profile };
      return postAnswerWithCredential(item.qid, body, item.key, held.token);
    }
    case 'legacy':
      // Answered as the member before credentials: the session takes no answers any more, and
      // a credential would let the same person answer the survey twice (decision 020, slice 5).
      throw new ApiError(409, 'CREDENTIAL_REQUIRED', ANSWERED_BEFORE_MESSAGE);
    case 'held':
      throw new Held();
    case 'withdrawn':
      throw new ApiError(409, 'ANSWERS_WITHDRAWN', WITHDRAWN_MESSAGE);
    case 'elsewhere':
      throw new ApiError(
        409,
        'CREDENTIAL_ISSUED',
        'You are answering this survey on another device: your answers there are the ones counted.',
      );
    case 'none':
      throw new ApiError(409, 'SURVEY_CLOSED', 'This survey has closed: it takes no more answers.');
  }
}

async function run(): Promise<void> {
  const owner = state.owner;
  if (!owner || !state.online()) return;
  // In order: an answer goes before the rating of the same question.
  for (;;) {
    const item = await db().outbox.where('owner').equals(owner).first();
    if (!item || state.owner !== owner) return;
    try {
      const response = await sendOne(item, owner);
      state.held = false;
      if (response) state.acknowledged.set(item.key, response);
      if (item.kind === 'answer') {
        const survey = state.sentAt.get(item.gid) ?? new Map<string, number>();
        state.sentAt.set(item.gid, survey.set(item.qid, Date.now()));
      }
      await db().outbox.delete(item.id);
      emit({ type: 'sent', item, response });
    } catch (err) {
      if (err instanceof Held || err instanceof NoProfile) {
        // Not a failure: they go at the next start, login or profile (no timer to poll with).
        if (err instanceof Held) state.held = true;
        emit({ type: 'waiting', pending: await pendingCount() });
        return;
      }
      if (retryable(err)) {
        await db().outbox.update(item.id, { tries: item.tries + 1 });
        emit({ type: 'waiting', pending: await pendingCount() });
        scheduleRetry(item.tries + 1);
        return;
      }
      // ALREADY_ANSWERED (answered on another device), SURVEY_CLOSED, NOT_FOUND, a field
      // error: sending again can never succeed.
      await db().outbox.delete(item.id);
      emit({ type: 'dropped', item, error: err as ApiError });
    }
  }
}

/** Sends what waits, one item at a time; calls queue behind each other so none is skipped. */
export function flushOutbox(): Promise<void> {
  state.chain = state.chain.then(run, run).catch(() => undefined);
  return state.chain;
}

let started = false;

/** Sends the outbox whenever the browser comes back online. */
export function startOutbox(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('online', () => void flushOutbox());
}
