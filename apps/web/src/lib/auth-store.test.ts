import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from './auth-store';
import { readSurveyPosition, saveSurveyPosition } from './survey-storage';

afterEach(() => localStorage.clear());

describe('the auth store', () => {
  it.each([
    ['logging out', () => useAuthStore.getState().logout()],
    [
      'ending the session (an erased account)',
      () => Promise.resolve(useAuthStore.getState().endSession()),
    ],
  ])('forgets where the person was in a survey on %s', async (_, end) => {
    // The next person on the device would otherwise land on this one's question.
    saveSurveyPosition({ surveyId: 'g-1', activeQuestion: 'q-4', currentShuffle: { a: 1 } });
    await end();
    expect(readSurveyPosition()).toEqual({
      surveyId: null,
      activeQuestion: null,
      currentShuffle: null,
    });
    expect(useAuthStore.getState().auth).toBe(false);
  });
});
