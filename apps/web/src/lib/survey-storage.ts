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
