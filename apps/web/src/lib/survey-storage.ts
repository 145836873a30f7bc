// Browser storage keys of the spec: surveyId, activeQuestion, currentShuffle (localStorage);
// currentPath and prevPath (sessionStorage).
export const SURVEY_KEYS = ['surveyId', 'activeQuestion', 'currentShuffle'] as const;

/** Where a login goes: back into the survey being answered, else home (spec section 4). */
export function afterLoginPath(): string {
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
