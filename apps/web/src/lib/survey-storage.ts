import { tokenSubject } from './tokens';
import { visitorSessionOwner } from './visitor-session';

// Browser storage keys of the spec: surveyId, activeQuestion, currentShuffle (localStorage);
// currentPath and prevPath (sessionStorage). Beside them, whose place it is (issue 28).
export const SURVEY_KEYS = [
  'surveyId',
  'activeQuestion',
  'currentShuffle',
  'candor.placeOwner',
] as const;
const OWNER_KEY = 'candor.placeOwner';

/** Who keeps a place now: the logged-in member, else this tab's visitor session. */
const placeOwner = () => tokenSubject() ?? visitorSessionOwner();

/**
 * Whether the saved place is this person's: saved by the logged-in member, or by this tab's
 * visitor session (the visitor who signs up or logs in at the gate comes back to it). A place
 * another visitor left in a closed tab of a shared browser is not: it would tell the next
 * person which survey and question they were at.
 */
function placeIsMine(): boolean {
  const owner = localStorage.getItem(OWNER_KEY);
  return owner !== null && (owner === tokenSubject() || owner === visitorSessionOwner());
}

/** Where a login goes: back into the survey being answered, else home (spec section 4). */
export function afterLoginPath(): string {
  if (!placeIsMine()) return '/';
  const surveyId = localStorage.getItem('surveyId');
  const activeQuestion = localStorage.getItem('activeQuestion');
  return surveyId && activeQuestion
    ? `/surveys/${encodeURIComponent(surveyId)}?backFromRegister=true`
    : '/';
}

/**
 * Records a completed navigation; when the new path equals the previous one, the saved survey
 * position is cleared (spec section 4).
 */
export function recordNavigation(path: string): void {
  const previous = sessionStorage.getItem('currentPath');
  if (previous !== null) sessionStorage.setItem('prevPath', previous);
  sessionStorage.setItem('currentPath', path);
  if (previous === path) for (const key of SURVEY_KEYS) localStorage.removeItem(key);
}

/** The saved survey position: which survey and question, and the saved choice order (JSON). */
export function readSurveyPosition(): {
  surveyId: string | null;
  activeQuestion: string | null;
  currentShuffle: unknown;
} {
  if (!placeIsMine()) return { surveyId: null, activeQuestion: null, currentShuffle: null };
  let currentShuffle: unknown = null;
  try {
    currentShuffle = JSON.parse(localStorage.getItem('currentShuffle') ?? 'null');
  } catch {
    // A damaged value is as good as none: a fresh shuffle replaces it.
  }
  return {
    surveyId: localStorage.getItem('surveyId'),
    activeQuestion: localStorage.getItem('activeQuestion'),
    currentShuffle,
  };
}

export function saveSurveyPosition(position: {
  surveyId: string;
  activeQuestion?: string | null;
  currentShuffle?: unknown;
}): void {
  localStorage.setItem(OWNER_KEY, placeOwner());
  localStorage.setItem('surveyId', position.surveyId);
  if (position.activeQuestion) localStorage.setItem('activeQuestion', position.activeQuestion);
  else if (position.activeQuestion === null) localStorage.removeItem('activeQuestion');
  if (position.currentShuffle !== undefined) {
    localStorage.setItem('currentShuffle', JSON.stringify(position.currentShuffle));
  }
}

export function clearSurveyPosition(): void {
  for (const key of SURVEY_KEYS) localStorage.removeItem(key);
}

/**
 * The honesty-gap arms drawn on this device (decision 029), per person (the logged-in member,
 * else this tab's visitor session) and the pair's direct question: kept apart from the saved
 * place, which answering another survey replaces, so a person who leaves a pair unanswered is
 * asked the same question of it when they come back, and cannot redraw it by leaving. Another
 * person on a shared browser reads none of them.
 */
export const PAIR_ARMS_KEY = 'candor.pairArms';
type Arms = Record<string, 'direct' | 'randomized'>;

function allArms(): Record<string, Arms> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(PAIR_ARMS_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, Arms>) : {};
  } catch {
    return {};
  }
}

/** This person's drawn arms, by the pair's direct question. */
export function readPairArms(): Arms {
  const mine = allArms()[placeOwner()];
  return mine && typeof mine === 'object' ? mine : {};
}

/** Keeps this person's drawn arms beside those kept before. */
export function savePairArms(arms: Arms): void {
  if (Object.keys(arms).length === 0) return;
  const all = allArms();
  const owner = placeOwner();
  all[owner] = { ...all[owner], ...arms };
  localStorage.setItem(PAIR_ARMS_KEY, JSON.stringify(all));
}

/**
 * Forgets this person's drawn arms (logout, an erased account): like the device's record of
 * their answers, which logout deletes, nothing of which surveys they opened stays behind. Their
 * answers, back from the vault at the next login, settle the pairs they answered.
 */
export function forgetPairArms(): void {
  try {
    const owner = placeOwner();
    const all = allArms();
    if (!(owner in all)) return;
    const rest = Object.fromEntries(Object.entries(all).filter(([who]) => who !== owner));
    localStorage.setItem(PAIR_ARMS_KEY, JSON.stringify(rest));
  } catch {
    // Storage refused: it holds nothing to forget, and a logout goes on.
  }
}
