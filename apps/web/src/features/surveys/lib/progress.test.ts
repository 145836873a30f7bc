import { onePerPair, type TimedQuestion } from '@candor/contracts';
import { describe, expect, it } from 'vitest';
import { peopleLabel, progressLabel, progressOf, timeLabel } from './progress';

const q = (qid: string, over: Partial<TimedQuestion> = {}) => ({
  qid,
  type: 'Closed' as const,
  timer_length: '0:00:00',
  video_link_1: null,
  video_link_2: null,
  ...over,
});
/** 25 closed questions: about 8 min in all (18 s each). */
const survey = Array.from({ length: 25 }, (_, i) => q(`q${i}`));
const answered = (n: number) => new Set(survey.slice(0, n).map((x) => x.qid));

describe('where the person on this device stands with a survey', () => {
  it('is new when nothing is answered, continue with n of N, done when all are', () => {
    expect(progressOf(survey, undefined)).toEqual({ kind: 'new' });
    expect(progressOf(survey, new Set())).toEqual({ kind: 'new' });
    expect(progressOf(survey, answered(5))).toEqual({ kind: 'continue', answered: 5, total: 25 });
    expect(progressOf(survey, answered(25))).toEqual({ kind: 'done' });
  });

  it('counts one question of each honesty-gap pair: done once either is answered', () => {
    const pair = [
      { ...q('d'), twin_qid: 'r', rr_weight: null },
      { ...q('o'), twin_qid: null, rr_weight: null },
      { ...q('r'), twin_qid: 'd', rr_weight: 3 },
    ];
    const asked = (answered: string[]) => onePerPair(pair, undefined, new Set(answered));
    expect(progressOf(asked(['o']), new Set(['o']))).toEqual({
      kind: 'continue',
      answered: 1,
      total: 2,
    });
    expect(progressOf(asked(['o', 'r']), new Set(['o', 'r']))).toEqual({ kind: 'done' });
    expect(timeLabel(asked(['o', 'r']), new Set(['o', 'r']), false)).toBeNull();
  });

  it('counts only the survey’s own questions (an answer to one since removed does not count)', () => {
    expect(progressOf(survey.slice(0, 2), new Set(['q0', 'gone']))).toEqual({
      kind: 'continue',
      answered: 1,
      total: 2,
    });
    expect(progressOf(survey.slice(0, 1), new Set(['q0', 'gone']))).toEqual({ kind: 'done' });
  });

  it('labels the badge, and says it in words to a screen reader', () => {
    expect(progressLabel({ kind: 'new' }, false)).toEqual({ text: 'New', spoken: 'New to you' });
    expect(progressLabel({ kind: 'continue', answered: 5, total: 25 }, false)).toEqual({
      text: 'Continue 5/25',
      spoken: 'Continue: 5 of 25 answered',
    });
    expect(progressLabel({ kind: 'done' }, false)?.text).toBe('Done');
  });

  it('never invites to a closed survey: no "New", no "Continue"', () => {
    expect(progressLabel({ kind: 'new' }, true)).toBeNull();
    expect(progressLabel({ kind: 'continue', answered: 5, total: 25 }, true)?.text).toBe(
      '5/25 answered',
    );
    expect(progressLabel({ kind: 'done' }, true)?.text).toBe('Done');
  });
});

describe('the time a brick says', () => {
  it('is the whole survey before any answer, and what is left after some', () => {
    expect(timeLabel(survey, undefined, false)).toBe('about 8 min');
    expect(timeLabel(survey, new Set(), false)).toBe('about 8 min');
    // 20 of 25 answered: 5 x 18 s = 90 s.
    expect(timeLabel(survey, answered(20), false)).toBe('about 2 min left');
    // One left: never "0 min".
    expect(timeLabel(survey, answered(24), false)).toBe('about 1 min left');
  });

  it('is nothing for a finished survey, a closed one, or one without questions', () => {
    expect(timeLabel(survey, answered(25), false)).toBeNull();
    expect(timeLabel(survey, undefined, true)).toBeNull();
    expect(timeLabel([], undefined, false)).toBeNull();
  });
});

describe('how many people answered', () => {
  it('says the published number, and nothing (never 0) without one', () => {
    expect(peopleLabel(1240)).toBe('About 1,240 people answered');
    expect(peopleLabel(1)).toBe('About 1 person answered');
    expect(peopleLabel(null)).toBeNull();
    expect(peopleLabel(0)).toBeNull();
  });
});
