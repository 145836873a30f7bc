import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memberState } from './own-answer';
import {
  type Standing,
  groupBySurvey,
  isRanked,
  mostUnusual,
  standingNote,
  standingOf,
  standingText,
} from './standing';

const standing = (over: Partial<Standing>): Standing => ({
  qid: 'q',
  question: 'Would you look?',
  gid: 'g',
  survey: 'Time Travel',
  answer: 'Yes',
  isBlank: false,
  closed: true,
  percent: 50,
  margin: 3,
  respondents: 400,
  state: 'counted',
  nextUpdateAfter: 320,
  ...over,
});

/** Standings of every kind: shown shares, hidden ones, blanks, open questions, ties. */
const standings = fc
  .array(
    fc.record({
      percent: fc.option(fc.integer({ min: 0, max: 1000 }).map((n) => n / 10)),
      isBlank: fc.boolean(),
      closed: fc.boolean(),
      // Few surveys, so that groups hold several answers.
      gid: fc.constantFrom('a', 'b', 'c'),
    }),
    { maxLength: 40 },
  )
  .map((rows) =>
    rows.map((r, i) =>
      standing({ ...r, qid: `q${i}`, survey: `Survey ${r.gid}`, question: `Question ${i}` }),
    ),
  );

describe('mostUnusual', () => {
  it('picks the smallest shown shares, at most n, none hidden, blank or open', () => {
    fc.assert(
      fc.property(standings, fc.integer({ min: 0, max: 6 }), (all, n) => {
        const top = mostUnusual(all, n);
        const eligible = all.filter(isRanked);
        expect(top).toHaveLength(Math.min(n, eligible.length));
        for (const s of top) {
          expect(s.percent).not.toBeNull();
          expect(s.closed && !s.isBlank).toBe(true);
          expect(all).toContain(s);
        }
        expect(new Set(top.map((s) => s.qid)).size).toBe(top.length);
        // Smallest first, and nothing left out is smaller than the largest picked.
        for (let i = 1; i < top.length; i++) {
          expect(top[i - 1]!.percent).toBeLessThanOrEqual(top[i]!.percent);
        }
        const largest = top.at(-1)?.percent;
        if (largest !== undefined) {
          for (const s of eligible.filter((e) => !top.includes(e))) {
            expect(s.percent).toBeGreaterThanOrEqual(largest);
          }
        }
      }),
    );
  });

  it('keeps equal shares in the order they came, and does not depend on the rest', () => {
    fc.assert(
      fc.property(standings, (all) => {
        const top = mostUnusual(all, 3);
        for (let i = 1; i < top.length; i++) {
          if (top[i - 1]!.percent === top[i]!.percent) {
            expect(all.indexOf(top[i - 1]!)).toBeLessThan(all.indexOf(top[i]!));
          }
        }
        // Answers that cannot be ranked change nothing, wherever they are.
        const unranked = all.filter((s) => !isRanked(s));
        const ranked = all.filter(isRanked);
        expect(mostUnusual([...unranked, ...ranked], 3)).toEqual(top);
      }),
    );
  });

  it('ranks 0% as the most unusual and never a hidden share as 0', () => {
    const all = [
      standing({ qid: 'a', percent: 30 }),
      standing({ qid: 'b', percent: null }),
      standing({ qid: 'c', percent: 0 }),
      standing({ qid: 'd', percent: 12.5, isBlank: true }),
      standing({ qid: 'e', percent: 5, closed: false }),
      standing({ qid: 'f', percent: 70 }),
      standing({ qid: 'g', percent: 30 }),
    ];
    expect(mostUnusual(all).map((s) => s.qid)).toEqual(['c', 'a', 'g']);
  });
});

describe('groupBySurvey', () => {
  it('keeps every item once, in order, under the survey of its first item', () => {
    fc.assert(
      fc.property(standings, (all) => {
        const groups = groupBySurvey(all);
        expect(groups.flatMap((g) => g.items)).toHaveLength(all.length);
        for (const g of groups) {
          expect(g.items.every((s) => s.gid === g.gid)).toBe(true);
          const positions = g.items.map((s) => all.indexOf(s));
          expect(positions).toEqual([...positions].sort((a, b) => a - b));
        }
        const firsts = groups.map((g) => all.indexOf(g.items[0]!));
        expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
      }),
    );
  });
});

describe('standings', () => {
  const question = { qid: 'q', question: 'Would you look?', type: 'Closed' as const };
  const survey = { gid: 'g', name: 'Time Travel' };
  const results = {
    respondents: 400,
    next_update_after: 320,
    choices: [
      { choice: 'Yes', count: 48, percent: 12, margin: 2.6, is_blank: false, sent: null },
      { choice: 'No', count: 352, percent: 88, margin: 2.6, is_blank: false, sent: null },
      { choice: '', count: 0, percent: 0, margin: 1, is_blank: true, sent: null },
    ],
  };

  it('takes the published share of the choice given, never of a blank', () => {
    const s = standingOf({
      question,
      survey,
      answer: 'Yes',
      isBlank: false,
      results,
      state: 'counted',
    });
    expect(s).toMatchObject({ percent: 12, margin: 2.6, respondents: 400, survey: 'Time Travel' });
    expect(standingText(s)).toBe('About 12% (±3) answered the same');
    expect(standingText({ ...s, state: 'not-counted' })).toBe(
      'About 12% (±3) of verified people chose this',
    );
    const blank = standingOf({
      question,
      survey,
      answer: '',
      isBlank: true,
      results,
      state: 'counted',
    });
    expect(blank.percent).toBeNull();
    expect(standingText(blank)).toBeNull();
  });

  it('says a share inside its noise as "under about", never an exact-looking number', () => {
    const s = standingOf({
      question,
      survey,
      answer: 'Yes',
      isBlank: false,
      results: {
        ...results,
        choices: [
          { choice: 'Yes', count: 0, percent: 0, margin: 3.2, is_blank: false, sent: null },
          { choice: 'No', count: 400, percent: 100, margin: 3.2, is_blank: false, sent: null },
        ],
      },
      state: 'counted',
    });
    expect(standingText(s)).toBe('Under about 4% answered the same');
    expect(standingText({ ...s, percent: 2.4, margin: 3.2 })).toBe(
      'Under about 6% answered the same',
    );
  });

  it('says when an answer not in the numbers yet counts, from the published threshold', () => {
    const s = standing({ state: 'next-update', nextUpdateAfter: 160 });
    expect(standingNote(s)).toBe('counts within about 160 more answers');
    expect(standingNote({ ...s, state: 'under-review' })).toBe(
      'counts once your account is approved',
    );
    expect(standingNote({ ...s, state: 'not-counted' })).toBe('counts once you sign up');
    expect(standingNote({ ...s, state: 'counted' })).toBeNull();
  });

  it('says hidden and too few in words, and never a share it does not have', () => {
    const hidden = standingOf({
      question,
      survey,
      answer: 'Yes',
      isBlank: false,
      results: {
        ...results,
        respondents: 30,
        choices: results.choices.map((c) => ({ ...c, percent: null })),
      },
      state: 'counted',
    });
    expect(standingText(hidden)).toBe('Share hidden to protect privacy');
    const none = standingOf({
      question,
      survey,
      answer: 'Yes',
      isBlank: false,
      results: null,
      state: 'counted',
    });
    expect(standingText(none)).toBe('No results yet');
  });

  it("tells whether a member's answer is in the numbers from when they were taken", () => {
    const day = '2026-11-23';
    // Given in this page: the exact time decides.
    expect(memberState('2026-11-23T10:00:00Z', Date.parse('2026-11-23T11:00:00Z'), day)).toBe(
      'next-update',
    );
    expect(memberState('2026-11-23T12:00:00Z', Date.parse('2026-11-23T11:00:00Z'), day)).toBe(
      'counted',
    );
    // Only the day known: numbers taken after that day hold it; before or during it, said not.
    expect(memberState('2026-11-22T23:59:00Z', null, day)).toBe('next-update');
    expect(memberState('2026-11-23T08:00:00Z', null, day)).toBe('next-update');
    expect(memberState('2026-11-24T00:00:00Z', null, day)).toBe('counted');
    expect(memberState(null, null, day)).toBe('next-update');
    expect(memberState(null, null, null)).toBe('counted');
  });
});
