import type { Question } from '@candor/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { uniqueByQid, useSurveyStore } from './survey-store';

const q = (qid: string) => ({ qid, question: qid }) as Question;

beforeEach(() => useSurveyStore.getState().reset());

describe('survey store', () => {
  it('moves a given first question to the front', () => {
    useSurveyStore.getState().loadQuestions('g', [q('a'), q('b'), q('c')], 'c');
    const s = useSurveyStore.getState();
    expect(s.openVideoSurveyQuestions.map((x) => x.qid)).toEqual(['c', 'a', 'b']);
    expect(s.firstQuestion?.qid).toBe('c');
    expect(s.firstSurveyGID).toBe('g');
  });
  it('reports a first question that is not in the survey', () => {
    useSurveyStore.getState().loadQuestions('g', [q('a')], 'zzz');
    expect(useSurveyStore.getState().firstQuestionError).toMatch(/not part/);
    expect(useSurveyStore.getState().openVideoSurveyQuestions.map((x) => x.qid)).toEqual(['a']);
  });
  it('appends answered questions, de-duplicates attempted ones by qid, and resets', () => {
    const store = useSurveyStore.getState();
    store.appendAnswered({
      qid: 'a',
      gid: 'g',
      date: '',
      answer: 'Yes',
      isBlank: false,
      owner: '',
    });
    store.appendAnswered({ qid: 'b', gid: 'g', date: '', answer: '', isBlank: true, owner: '' });
    const attempted = { gid: 'g', answer: 'x', is_blank: false, date: '2026-01-01' };
    store.setAttempted([
      { qid: 'a', ...attempted },
      { qid: 'a', ...attempted },
      { qid: 'b', ...attempted },
    ]);
    expect(useSurveyStore.getState().answeredQuestions.map((a) => a.qid)).toEqual(['a', 'b']);
    expect(useSurveyStore.getState().myAttemptedQuestions.map((a) => a.qid)).toEqual(['a', 'b']);
    store.reset();
    expect(useSurveyStore.getState().answeredQuestions).toEqual([]);
  });
  it('uniqueByQid keeps the first of each', () => {
    expect(
      uniqueByQid([
        { qid: '1', n: 1 },
        { qid: '1', n: 2 },
      ]),
    ).toEqual([{ qid: '1', n: 1 }]);
  });
});
