import type { QuestionResults } from '@candor/contracts';
import { describe, expect, it } from 'vitest';
import { canMakeCard, cardModel } from './card-model';

const results = (over: Partial<QuestionResults> = {}): QuestionResults => ({
  qid: '0b4cf0d1-6a3e-4c55-9f5c-2d7f4ad3c2a1',
  type: 'Closed',
  rr_weight: null,
  honesty_gap: null,
  respondents: 1240,
  blank: 40,
  margin: 2.7,
  choices: [
    { choice: 'Yes', count: 700, percent: 56.5, margin: 2.7, is_blank: false, sent: null },
    { choice: 'No', count: 420, percent: 33.9, margin: 2.6, is_blank: false, sent: null },
    { choice: 'Never', count: null, percent: null, margin: null, is_blank: false, sent: null },
    { choice: 'Leave blank', count: 40, percent: 3.2, margin: 1, is_blank: true, sent: null },
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
  updates: 4,
  next_update_after: 320,
  snapshot_at: '2026-11-24T10:00:00.000Z',
  ...over,
});

const base = {
  survey: 'Money Talks',
  question: 'Would you keep a wallet you found?',
  site: 'candor.example',
};

describe('the result card', () => {
  it('by default shows everyone’s shares and nothing of the sharer, whatever they chose', () => {
    for (const mine of ['No', 'Yes', '', null]) {
      const card = cardModel({ ...base, results: results(), mine, showMine: false });
      expect(card.showsMine).toBe(false);
      expect(card.rows.every((r) => !r.mine)).toBe(true);
      expect(card.headline).toBe('Most people chose “Yes” (57%).');
      expect(card.alt).toContain('My answer is not on the card.');
      expect(card.alt).not.toContain('(my answer)');
      // The same card whoever makes it: nothing in it depends on the answer.
      expect(card).toEqual(cardModel({ ...base, results: results(), mine: null, showMine: false }));
    }
  });

  it('marks the sharer’s answer only when they choose to show it', () => {
    const card = cardModel({ ...base, results: results(), mine: 'No', showMine: true });
    expect(card.showsMine).toBe(true);
    expect(card.rows.filter((r) => r.mine).map((r) => r.label)).toEqual(['No']);
    expect(card.headline).toBe('I chose “No”, like 34% of people.');
    expect(card.alt).toContain('No: 34% (my answer)');
    expect(card.alt).toContain('My answer: No.');
  });

  it('cannot show a blank answer, and says hidden shares are hidden, never 0%', () => {
    const card = cardModel({ ...base, results: results(), mine: '', showMine: true });
    expect(card.showsMine).toBe(false);
    expect(card.alt).toContain('Never: hidden');
    // Left blank has its row (the card adds up to 100%), in plain words, not "n =".
    expect(card.rows.map((r) => r.label)).toEqual(['Yes', 'No', 'Never', 'Left blank']);
    expect(card.footnote).toBe(
      'about 1,240 verified people · each share ±3 points · blurred for privacy',
    );
  });

  it('gives the honesty gap’s line on a question asked both ways, and says nothing of it before', () => {
    const gap = {
      direct_qid: '0b4cf0d1-6a3e-4c55-9f5c-2d7f4ad3c2a1',
      randomized_qid: '0b4cf0d1-6a3e-4c55-9f5c-2d7f4ad3c2a2',
      direct_respondents: 600,
      randomized_respondents: 640,
      choices: [
        { choice: 'Yes', points: 8.2, margin: 5, low: 3.2, high: 13.2, clear: true },
        { choice: 'No', points: -8.2, margin: 5, low: -13.2, high: -3.2, clear: true },
      ],
    };
    const card = cardModel({
      ...base,
      results: results({ honesty_gap: gap }),
      mine: null,
      showMine: false,
    });
    expect(card.gap).toBe('When nobody can know, about 8 points more say “Yes” (3 to 13).');
    expect(card.alt).toContain(card.gap!);
    const unclear = { ...gap, choices: gap.choices.map((c) => ({ ...c, clear: false })) };
    expect(
      cardModel({
        ...base,
        results: results({ honesty_gap: unclear }),
        mine: null,
        showMine: false,
      }).gap,
    ).toBe('No clear gap: the two ways of asking agree within their margins.');
    const early = { ...gap, choices: gap.choices.map((c) => ({ ...c, points: null })) };
    expect(
      cardModel({ ...base, results: results({ honesty_gap: early }), mine: null, showMine: false })
        .gap,
    ).toBeNull();
    expect(cardModel({ ...base, results: results(), mine: null, showMine: false }).gap).toBeNull();
  });

  it('says a randomized-response question’s shares are estimates', () => {
    const card = cardModel({
      ...base,
      results: results({ rr_weight: 9 }),
      mine: 'No',
      showMine: true,
    });
    expect(card.footnote).toBe(
      'about 1,240 verified people · estimated from randomized answers · each share ±3 points · blurred for privacy',
    );
    expect(card.alt).toContain('estimated from randomized answers');
  });

  it('says a share inside its noise "under about", never an exact-looking number', () => {
    const few = results({
      choices: [
        { choice: 'Yes', count: 1200, percent: 96.8, margin: 2.7, is_blank: false, sent: null },
        { choice: 'No', count: 0, percent: 0, margin: 2.2, is_blank: false, sent: null },
        {
          choice: 'Leave blank',
          count: 40,
          percent: 3.2,
          margin: 1,
          is_blank: true,
          sent: null,
        },
      ],
    });
    const card = cardModel({ ...base, results: few, mine: 'No', showMine: true });
    expect(card.rows.map((r) => r.text)).toEqual(['97%', 'under about 3%', '3%']);
    expect(card.headline).toBe('I chose “No”, like very few people (under about 3%).');
    expect(card.alt).not.toMatch(/\b0%/);
    // A wide interval (few answers) is too soon to call "very few".
    const wide = {
      ...few,
      choices: few.choices.map((c) => (c.choice === 'No' ? { ...c, percent: 20, margin: 61 } : c)),
    };
    expect(cardModel({ ...base, results: wide, mine: 'No', showMine: true }).headline).toBe(
      'I chose “No”: too soon to tell how many did (under about 81%).',
    );
  });

  it('is offered only for a closed question whose split is published', () => {
    expect(canMakeCard(results())).toBe(true);
    expect(canMakeCard(results({ respondents: null, blank: null }))).toBe(false);
    expect(canMakeCard(results({ dominated: true }))).toBe(false);
    expect(canMakeCard(results({ type: 'Open', choices: [] }))).toBe(false);
    const allHidden = results().choices.map((c) => ({ ...c, percent: null }));
    expect(canMakeCard(results({ choices: allHidden }))).toBe(false);
  });
});
