import type { AnswerRequest, AnswerResponse } from '@candor/contracts';
import { ApiError } from '../../../lib/api-client';
import { localDb, today, type CandorDb, type OutboxItem } from '../lib/local-db';
import { postAnswer, postRating } from './answers';

/**
 * The outbox keeps every answer and rating in IndexedDB until the API acknowledges it, so an
 * answer given offline, before signing up, or just before the tab closes is sent later and
 * counted once (each answer carries its Idempotency-Key from the first attempt on).
 */

export const VISITOR = 'visitor';

type Listener = (event: OutboxEvent) => void;
export type OutboxEvent =
  | { type: 'sent'; item: OutboxItem; response: AnswerResponse | null }
  | { type: 'dropped'; item: OutboxItem; error: ApiError }
  | { type: 'waiting'; pending: number };

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
};

function db(): CandorDb {
  state.db ??= localDb();
  return state.db;
}

/** Tests use their own database. */
export function useOutboxDb(database: CandorDb): void {
  state.db = database;
  state.acknowledged.clear();
  state.sentAt.clear();
  state.chain = Promise.resolve();
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
  return state.owner ?? VISITOR;
}

/**
 * Sets the session's user (null when logged out). On login the visitor's items become the
 * user's and are sent; on logout the user's answered-questions record leaves this browser.
 */
export function setOutboxOwner(uuid: string | null): Promise<void> {
  const previous = state.owner;
  if (previous === uuid) return state.ownerChange;
  state.owner = uuid;
  state.ownerChange = state.ownerChange
    .then(() => changeOwner(previous, uuid))
    .catch(() => undefined);
  return state.ownerChange;
}

async function changeOwner(previous: string | null, uuid: string | null): Promise<void> {
  if (uuid) {
    await db().transaction('rw', db().outbox, db().answeredQuestions, async () => {
      await db().outbox.where('owner').equals(VISITOR).modify({ owner: uuid });
      await db()
        .answeredQuestions.filter((a) => a.owner === VISITOR)
        .modify({ owner: uuid });
    });
    void flushOutbox();
  } else if (previous) {
    // Unsent items stay for the next login of the same person; the record of answers goes.
    await db()
      .answeredQuestions.filter((a) => a.owner === previous)
      .delete();
  }
}

/** The answers this browser holds for the current owner, by qid. */
export async function localAnswers(gid?: string) {
  await state.ownerChange;
  const owner = currentOwner();
  const rows = await (gid
    ? db().answeredQuestions.where('gid').equals(gid).toArray()
    : db().answeredQuestions.toArray());
  return new Map(rows.filter((r) => r.owner === owner).map((r) => [r.qid, r]));
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
  return db().outbox.where('owner').equals(currentOwner()).count();
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
  const owner = currentOwner();
  const key = crypto.randomUUID();
  await db().transaction('rw', db().outbox, db().answeredQuestions, async () => {
    const existing = await db()
      .answeredQuestions.where('qid')
      .equals(input.qid)
      .filter((a) => a.owner === owner)
      .first();
    if (existing) return;
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
  if (state.owner) await flushOutbox();
  return { key, response: state.acknowledged.get(key) ?? null };
}

/** Queues an interest rating (0..10); a newer rating of the same question replaces a queued one. */
export async function recordRating(input: { qid: string; gid: string; score: number }) {
  const owner = currentOwner();
  const key = `rating:${owner}:${input.qid}`;
  await db().transaction('rw', db().outbox, async () => {
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
  if (state.owner) void flushOutbox();
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

async function sendOne(item: OutboxItem): Promise<AnswerResponse | null> {
  if (item.kind === 'answer') {
    return postAnswer(item.qid, item.body as AnswerRequest, item.key);
  }
  await postRating(item.qid, (item.body as { score: number }).score);
  return null;
}

async function run(): Promise<void> {
  const owner = state.owner;
  if (!owner || !state.online()) return;
  // In order: an answer goes before the rating of the same question.
  for (;;) {
    const item = await db().outbox.where('owner').equals(owner).first();
    if (!item || state.owner !== owner) return;
    try {
      const response = await sendOne(item);
      if (response) state.acknowledged.set(item.key, response);
      if (item.kind === 'answer') {
        const survey = state.sentAt.get(item.gid) ?? new Map<string, number>();
        state.sentAt.set(item.gid, survey.set(item.qid, Date.now()));
      }
      await db().outbox.delete(item.id);
      emit({ type: 'sent', item, response });
    } catch (err) {
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
