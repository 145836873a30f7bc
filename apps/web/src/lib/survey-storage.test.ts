import { beforeEach, describe, expect, it } from 'vitest';
import { afterLoginPath, recordNavigation } from './survey-storage';

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
    localStorage.setItem('surveyId', 'abc');
    localStorage.setItem('activeQuestion', '3');
    expect(afterLoginPath()).toBe('/surveys/abc?backFromRegister=true');
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
