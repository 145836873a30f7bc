import type { Gender } from '@candor/contracts';
import { create } from 'zustand';
import { forgetDeviceTokens } from './device-token';
import { tokenSubject } from './tokens';
import { clearSurveyPosition, PAIR_ARMS_KEY } from './survey-storage';

/**
 * What this browser keeps of answers given here, as the shell sees it (issue 28, shared
 * devices). The answers themselves live in the answering feature's IndexedDB outbox, loaded
 * lazily; the shell (navbar, login screen, the claim question) reads and acts through this
 * module, which `app/` wires to that outbox (`provideLocalAnswers`).
 */
export interface LocalAnswersStore {
  /**
   * Answers this browser session gave as a visitor that wait for the logged-in person's
   * decision: added to their account, or discarded. 0 when there is nothing to ask.
   */
  offered: number;
  /** Answers this browser session gave as a visitor (logged out), kept here. */
  visitorAnswers: number;
  /** Bumped whenever answers change hands or leave the browser: screens read theirs again. */
  version: number;
}

export const useLocalAnswers = create<LocalAnswersStore>()(() => ({
  offered: 0,
  visitorAnswers: 0,
  version: 0,
}));

/** What the outbox offers the shell. */
export interface LocalAnswersApi {
  /** Makes this session's visitor answers the logged-in person's, and sends them. */
  claimVisitorAnswers(): Promise<void>;
  /** Deletes this session's visitor answers from the browser. */
  discardVisitorAnswers(): Promise<void>;
  /** Deletes every answer and unsent item this browser holds, whoever gave them. */
  forgetDevice(): Promise<void>;
  /** Deletes what this browser holds of one account (its erasure). */
  forgetAccount(uuid: string): Promise<void>;
  /** The answers of `owner` (the logged-in member) this browser holds, and its vault brought. */
  ownAnswers(owner: string): Promise<OwnAnswer[]>;
  /** What the logged-in member told their devices about themselves, or null. */
  deviceProfile(): Promise<OwnProfile | null>;
  /** Keeps it on this device (and, at the next sync, in the vault). */
  saveDeviceProfile(profile: OwnProfile): Promise<void>;
  /** Whether this device holds survey `gid`'s credential, which can withdraw its answers. */
  canWithdraw(gid: string): Promise<boolean>;
  /** Withdraws the member's answers to survey `gid` with its credential (decision 020). */
  withdrawSurvey(gid: string): Promise<void>;
  /**
   * Whether survey `gid` takes no more answers from the member: withdrawn (here or on another
   * device), or answered before credentials.
   */
  closedToMember(gid: string): Promise<'withdrawn' | 'answered-before' | null>;
}

/**
 * The member's gender, year of birth and country as their devices keep them (decision 020,
 * slice 2): never beside their account; their answers carry the class made from them.
 */
export interface OwnProfile {
  gender: Gender;
  yearOfBirth: number;
  country: string;
}

/** One of the member's answers as this device keeps it. */
export interface OwnAnswer {
  qid: string;
  gid: string;
  /** `YYYY-MM-DD`. */
  date: string;
  answer: string;
  isBlank: boolean;
  /** Their interest rating, 0 to 10, if they gave one. */
  rating?: number;
}

let load: (() => Promise<LocalAnswersApi>) | null = null;

/** `app/` passes the outbox's loader (a dynamic import: nothing loads until it is needed). */
export function provideLocalAnswers(loader: () => Promise<LocalAnswersApi>): void {
  load = loader;
}

async function api(): Promise<LocalAnswersApi | null> {
  return load ? load() : null;
}

export async function claimVisitorAnswers(): Promise<void> {
  await (await api())?.claimVisitorAnswers();
}

/**
 * Discards this session's visitor answers. The survey place they were at goes too: it was the
 * visitor's, and a login would otherwise lead there.
 */
export async function discardVisitorAnswers(): Promise<void> {
  clearSurveyPosition();
  await (await api())?.discardVisitorAnswers();
}

/**
 * The logged-in member's own answers on this device (none for a visitor, or before the outbox
 * is wired). Read as the person the session names, even if the app has not told the outbox yet.
 */
export async function ownAnswersOnDevice(): Promise<OwnAnswer[]> {
  const owner = tokenSubject();
  if (!owner) return [];
  return (await (await api())?.ownAnswers(owner)) ?? [];
}

/** The member's profile on this device (null without one, or before the outbox is wired). */
export async function profileOnDevice(): Promise<OwnProfile | null> {
  return (await (await api())?.deviceProfile()) ?? null;
}

export async function saveProfileOnDevice(profile: OwnProfile): Promise<void> {
  await (await api())?.saveDeviceProfile(profile);
}

export async function canWithdrawOnDevice(gid: string): Promise<boolean> {
  return (await (await api())?.canWithdraw(gid)) ?? false;
}

export async function closedToMeOnDevice(
  gid: string,
): Promise<'withdrawn' | 'answered-before' | null> {
  return (await (await api())?.closedToMember(gid)) ?? null;
}

/** Throws ApiError when the API refuses or cannot be reached; nothing changes then. */
export async function withdrawOnDevice(gid: string): Promise<void> {
  const outbox = await api();
  if (!outbox) throw new Error('Answers are not available on this device yet.');
  await outbox.withdrawSurvey(gid);
}

/** Forgets what this browser keeps of an erased account. */
export async function forgetAccountOnDevice(uuid: string | null): Promise<void> {
  if (uuid) await (await api())?.forgetAccount(uuid);
}

// The browser storage a person leaves behind while answering: the survey place (spec keys), a
// timed question's deadline, the honesty-gap arms drawn. sessionStorage (the tab's place, a signup under way with its
// number, a panel link, the visitor session) is cleared whole.
const LOCAL_KEYS = ['candor.questionDeadline', PAIR_ARMS_KEY];

/**
 * "This is not my device": clears everything this browser keeps of answering, for anyone:
 * the answers and the outbox in IndexedDB, the survey place and a question's deadline in
 * localStorage, and this tab's sessionStorage. A session held here is not touched (the action
 * is offered to visitors only).
 */
export async function forgetThisDevice(): Promise<void> {
  clearSurveyPosition();
  forgetDeviceTokens();
  try {
    for (const key of LOCAL_KEYS) localStorage.removeItem(key);
    sessionStorage.clear();
  } catch {
    // Storage refused: there is nothing in it either.
  }
  await (await api())?.forgetDevice();
  // Every account's vault key too (decision 020): a key left here would open its vault again.
  await import('./vault').then((v) => v.forgetAllVaultKeys()).catch(() => undefined);
  useLocalAnswers.setState((s) => ({ offered: 0, visitorAnswers: 0, version: s.version + 1 }));
}
