import Dexie, { type EntityTable } from 'dexie';

/** The browser's own record of an answered question (the spec's local table). */
export interface AnsweredQuestion {
  id?: number;
  qid: string;
  /** Survey gid. */
  gid: string;
  /** `YYYY-MM-DD`: the day only, as on the server. */
  date: string;
  /** The choice label, the open text, or '' when left blank. */
  answer: string;
  isBlank: boolean;
  /** Whose answer: a user uuid, or 'visitor' before signing up. */
  owner: string;
}

/** A call not yet acknowledged by the API: sent in order when there is a session and a network. */
export interface OutboxItem {
  id?: number;
  /** The Idempotency-Key of an answer; also de-duplicates ratings of one question. */
  key: string;
  kind: 'answer' | 'rating';
  qid: string;
  gid: string;
  body: { choice?: string; text?: string } | { score: number };
  owner: string;
  /** Attempts so far; a retry waits longer each time. */
  tries: number;
}

export type CandorDb = Dexie & {
  answeredQuestions: EntityTable<AnsweredQuestion, 'id'>;
  outbox: EntityTable<OutboxItem, 'id'>;
};

/** Opens the app's IndexedDB database: version 1, answered questions and the outbox. */
export function openLocalDb(name = 'candor'): CandorDb {
  const db = new Dexie(name) as CandorDb;
  db.version(1).stores({
    // Indexed as in the spec: auto-increment id, qid, date, answer.
    answeredQuestions: '++id, qid, date, answer, gid',
    outbox: '++id, &key, owner, qid',
  });
  return db;
}

let shared: CandorDb | null = null;

/** The one database of the app, opened on first use. */
export function localDb(): CandorDb {
  shared ??= openLocalDb();
  return shared;
}

/** Today in UTC as `YYYY-MM-DD`, the date the API stores next to an answer. */
export function today(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
