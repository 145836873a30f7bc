import { LEAVE_BLANK_CHOICE, type QuestionResults } from '@candor/contracts';
import { describe, expect, it } from 'vitest';
import {
  DIRECT_GRAPHS_UP_TO,
  compactReport,
  ownAnswerText,
  pageMarks,
  rowSummary,
  waitingNotes,
} from './report';

const results = (over: Partial<QuestionResults> = {}): QuestionResults => ({
  qid: 'q',
  type: 'Closed',
  rr_weight: null,
  honesty_gap: null,
  respondents: 300,
  blank: 30,
  margin: 4,
  choices: [
    { choice: 'Yes', count: 150, percent: 50, margin: 4, is_blank: false, sent: null },
    { choice: 'No', count: 120, percent: 40, margin: 4, is_blank: false, sent: null },
    {
      choice: LEAVE_BLANK_CHOICE,
      count: 30,
      percent: 10,
      margin: 3,
      is_blank: true,
      sent: null,
    },
  ],
  dominated: false,
  breakdown: null,
  breakdown_unlocks: {
    gender: { group_minimum: 28, unlocks_at: 56 },
    age: { group_minimum: 28, unlocks_at: 56 },
    country: { group_minimum: 56, unlocks_at: 84 },
  },
  words: [],
  samples: [],
  updates: 2,
  next_update_after: 50,
  snapshot_at: '2026-01-01T00:00:00Z',
  ...over,
});

describe('the end results as a report', () => {
  it('lists surveys longer than the threshold, shows shorter ones whole', () => {
    expect(compactReport(DIRECT_GRAPHS_UP_TO)).toBe(false);
    expect(compactReport(DIRECT_GRAPHS_UP_TO + 1)).toBe(true);
  });

  it('says the person’s own answer, a blank, or none', () => {
    expect(ownAnswerText({ answer: 'Yes', isBlank: false })).toBe('Yes');
    expect(ownAnswerText({ answer: '', isBlank: true })).toBe('Left blank');
    expect(ownAnswerText(null)).toBe('Not answered');
  });

  it('sums a row up in the graph’s own headline, ranked only as far as the margins allow', () => {
    const closed = { type: 'Closed' as const };
    expect(rowSummary(closed, results(), 'Yes', 'counted')).toBe(
      'You’re with 50%, the largest group.',
    );
    expect(rowSummary(closed, results(), 'No', 'next-update')).toBe(
      'A minority chose this: 40%, like you.',
    );
    expect(rowSummary(closed, results(), null, 'counted')).toBe('“Yes” leads with 50%.');
    // No graph yet: the way to the first one, from the published threshold (never a count).
    expect(rowSummary(closed, results({ respondents: null }), 'Yes', 'counted')).toBe(
      'No results yet: the next update comes within about 50 answers',
    );
    expect(rowSummary(closed, results({ respondents: null }), 'Yes', 'counted', true)).toBe(
      'Too few answered to show',
    );
    expect(rowSummary(closed, results({ dominated: true }), 'Yes', 'counted')).toBe(
      'Nearly everyone (95% or more) gave the same answer',
    );
    expect(rowSummary({ type: 'Open' }, results({ type: 'Open' }), 'Hm', 'counted')).toBe(
      'About 270 people wrote an answer',
    );
  });

  it('explains each mark the page’s graphs draw, and no other', () => {
    expect(pageMarks([results()])).toEqual({ under: false, hidden: false });
    const under = results({
      choices: [
        { choice: 'Yes', count: 290, percent: 97, margin: 4, is_blank: false, sent: null },
        { choice: 'No', count: 3, percent: 1, margin: 4, is_blank: false, sent: null },
        {
          choice: 'Maybe',
          count: null,
          percent: null,
          margin: null,
          is_blank: false,
          sent: null,
        },
      ],
    });
    expect(pageMarks([results(), under])).toEqual({ under: true, hidden: true });
    // A graph that draws no bars (too few answers) draws no marks either.
    expect(pageMarks([{ ...under, respondents: null }])).toEqual({ under: false, hidden: false });
  });

  it('says once how the person’s answers wait, naming the largest next update', () => {
    expect(waitingNotes([{ state: 'counted', nextUpdateAfter: 50 }])).toEqual([]);
    expect(waitingNotes([{ state: 'not-counted', nextUpdateAfter: 50 }])).toEqual([]);
    const notes = waitingNotes([
      { state: 'next-update', nextUpdateAfter: 40 },
      { state: 'counted', nextUpdateAfter: 10 },
      { state: 'next-update', nextUpdateAfter: 90 },
    ]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^Results move in steps.*your answers join.*within about 90 more/);
  });
});
