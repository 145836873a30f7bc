import { beforeEach, describe, expect, it } from 'vitest';
import {
  afterLoginPath,
  clearSurveyPosition,
  forgetPairArms,
  readPairArms,
  savePairArms,
  readSurveyPosition,
  recordNavigation,
  saveSurveyPosition,
} from './survey-storage';
import { storeTokens } from './tokens';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('afterLoginPath', () => {
  it('goes home without a saved survey and question', () => {
    expect(afterLoginPath()).toBe('/');
    localStorage.setItem('surveyId', 'abc');
    expect(afterLoginPath()).toBe('/');
  });
  it('goes back into the survey when both are saved', () => {
    saveSurveyPosition({ surveyId: 'abc', activeQuestion: '3' });
    expect(afterLoginPath()).toBe('/surveys/abc?backFromRegister=true');
    // The visitor who saved it logs in, in the same tab: still their place.
    storeTokens({ access: `x.${btoa(JSON.stringify({ sub: 'u-1' }))}.y`, refresh: 'r' });
    expect(afterLoginPath()).toBe('/surveys/abc?backFromRegister=true');
  });
  it("never leads to the place another tab's visitor left on this browser", () => {
    saveSurveyPosition({ surveyId: 'abc', activeQuestion: '3', currentShuffle: [] });
    // That tab is closed; the next person opens another (a new sessionStorage) and logs in.
    sessionStorage.clear();
    storeTokens({ access: `x.${btoa(JSON.stringify({ sub: 'u-2' }))}.y`, refresh: 'r' });
    expect(afterLoginPath()).toBe('/');
    expect(readSurveyPosition()).toEqual({
      surveyId: null,
      activeQuestion: null,
      currentShuffle: null,
    });
  });
});

describe('recordNavigation', () => {
  it('keeps currentPath and prevPath in sessionStorage', () => {
    recordNavigation('/');
    recordNavigation('/surveys/x');
    expect(sessionStorage.getItem('currentPath')).toBe('/surveys/x');
    expect(sessionStorage.getItem('prevPath')).toBe('/');
  });
  it('clears the saved survey position when the path repeats', () => {
    localStorage.setItem('surveyId', 'abc');
    localStorage.setItem('activeQuestion', '3');
    localStorage.setItem('currentShuffle', '[]');
    recordNavigation('/surveys/abc');
    expect(localStorage.getItem('surveyId')).toBe('abc');
    recordNavigation('/surveys/abc');
    expect(localStorage.getItem('surveyId')).toBeNull();
    expect(localStorage.getItem('activeQuestion')).toBeNull();
    expect(localStorage.getItem('currentShuffle')).toBeNull();
  });
});

describe('the honesty-gap arms drawn on this device (decision 029)', () => {
  it('outlive the saved place, and belong to the person who drew them', () => {
    savePairArms({ d1: 'randomized' });
    saveSurveyPosition({ surveyId: 'other', activeQuestion: 'q9', currentShuffle: [] });
    clearSurveyPosition();
    recordNavigation('/a');
    recordNavigation('/a');
    savePairArms({ d2: 'direct' });
    expect(readPairArms()).toEqual({ d1: 'randomized', d2: 'direct' });
    // Another person on this browser (a member logging in) reads none of them.
    storeTokens({ access: `x.${btoa(JSON.stringify({ sub: 'u-2' }))}.y`, refresh: 'r' });
    expect(readPairArms()).toEqual({});
  });

  it('are forgotten for the person leaving (logout), and kept for anyone else', () => {
    savePairArms({ d1: 'direct' });
    storeTokens({ access: `x.${btoa(JSON.stringify({ sub: 'u-3' }))}.y`, refresh: 'r' });
    savePairArms({ d2: 'randomized' });
    forgetPairArms();
    expect(readPairArms()).toEqual({});
    expect(localStorage.getItem('candor.pairArms')).not.toContain('u-3');
    expect(localStorage.getItem('candor.pairArms')).toContain('d1');
  });

  it('reads a damaged record as none', () => {
    localStorage.setItem('candor.pairArms', '{not json');
    expect(readPairArms()).toEqual({});
  });
});
