import Dexie, { type EntityTable } from 'dexie';
import { LOCAL_DB_NAME } from '../../../lib/device-answers';

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
  /** The interest rating given after it (0..10), kept for the member's mirror. */
  rating?: number;
  /** When it was given (ISO time): the newer rating wins when two devices' vaults merge. */
  ratedAt?: string;
  /**
   * Whose answer: a user uuid, or a tab's `visitor:<id>` before signing up (the home page reads
   * this table by owner without Dexie: lib/device-answers.ts).
   */
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
  body: { choice?: string; text?: string; duration_ms?: number } | { score: number };
  owner: string;
  /** Attempts so far; a retry waits longer each time. */
  tries: number;
}

/**
 * A member's anonymous credential for one survey (decision 020), kept on this device (and in
 * the member's end-to-end encrypted vault). `blinded` waits for the server's signature (the same
 * blinded message is asked again after a lost reply); `ready` holds the credential answers are
 * sent with; `legacy` marks a survey answered before credentials (its answers keep the session);
 * `elsewhere` one whose credential another device of the member holds; `withdrawn` one whose
 * answers the member withdrew with it (it answers nothing more; kept so the vault says so).
 */
export interface DeviceCredential {
  id?: number;
  /** The member's uuid. */
  owner: string;
  gid: string;
  state: 'blinded' | 'ready' | 'legacy' | 'elsewhere' | 'withdrawn';
  /** The survey key's id and public key (SPKI, base64url) the message was blinded for. */
  keyId?: string;
  publicKey?: string;
  /** While `blinded`: the prepared message, the blinded message and the inverse (base64url). */
  prepared?: string;
  blinded?: string;
  inv?: string;
  /** When `ready`: the `Candor-Credential` value. */
  token?: string;
}

/**
 * What a member told this device about themselves (decision 020, slice 2): the class their
 * answers carry. Kept here and in their vault, never beside their account.
 */
export interface StoredProfile {
  /** The member's uuid. */
  owner: string;
  gender: string;
  yearOfBirth: number;
  country: string;
  /** When it was set (ISO time): the newer one wins when two devices' vaults merge. */
  at: string;
}

export type CandorDb = Dexie & {
  answeredQuestions: EntityTable<AnsweredQuestion, 'id'>;
  outbox: EntityTable<OutboxItem, 'id'>;
  credentials: EntityTable<DeviceCredential, 'id'>;
  profiles: EntityTable<StoredProfile, 'owner'>;
};

/** Opens the app's IndexedDB database: answered questions, the outbox, credentials, profiles. */
export function openLocalDb(name = LOCAL_DB_NAME): CandorDb {
  const db = new Dexie(name) as CandorDb;
  db.version(1).stores({
    // Indexed as in the spec: auto-increment id, qid, date, answer.
    answeredQuestions: '++id, qid, date, answer, gid',
    outbox: '++id, &key, owner, qid',
  });
  db.version(2).stores({ credentials: '++id, &[owner+gid], owner' });
  db.version(3).stores({ profiles: '&owner' });
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
