import { LEAVE_BLANK_CHOICE, type Question } from '@candor/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  askedQuestions,
  inPersonsOrder,
  asksRating,
  makeShuffle,
  RATE_EVERY,
  mineStateOf,
  nextStep,
  resumeStep,
  revisit,
  shuffleFits,
  timerSeconds,
  withArms,
  withOrder,
  type FlowContext,
} from './flow';

const question = (n: number, over: Partial<Question> = {}): Question => ({
  qid: `00000000-0000-4000-8000-00000000000${n}`,
  question: `Q${n}`,
  type: 'Closed',
  timer_length: '0:00:00',
  video_link_1: null,
  video_link_2: null,
  video_captions_1: null,
  video_captions_2: null,
  submitted: '2026-01-01T00:00:00Z',
  choices: ['Yes', 'No', 'Maybe', LEAVE_BLANK_CHOICE],
  randomise_answers: true,
  max_length: null,
  rr_weight: null,
  twin_qid: null,
  ...over,
});
const qs = [1, 2, 3, 4, 5].map((n) => question(n));
const ctx = (answered: number[], over: Partial<FlowContext> = {}): FlowContext => ({
  questions: qs,
  variant: 'v1_medium',
  answered: new Set(answered.map((i) => qs[i]!.qid)),
  visitorLimit: null,
  ...over,
});

describe('nextStep', () => {
  it('goes intro -> question -> feedback -> next question -> outro (v1)', () => {
    expect(nextStep({ kind: 'intro' }, ctx([]))).toEqual({ kind: 'question', index: 0 });
    expect(nextStep({ kind: 'question', index: 0 }, ctx([]))).toEqual({
      kind: 'feedback',
      index: 0,
    });
    expect(nextStep({ kind: 'feedback', index: 0 }, ctx([0]))).toEqual({
      kind: 'question',
      index: 1,
    });
    expect(nextStep({ kind: 'feedback', index: 4 }, ctx([0, 1, 2, 3, 4]))).toEqual({
      kind: 'outro',
    });
  });
  it('ends v2 surveys on all the graphs before the outro', () => {
    const v2 = ctx([0, 1, 2, 3, 4], { variant: 'v2_small' });
    expect(nextStep({ kind: 'feedback', index: 4 }, v2)).toEqual({ kind: 'results' });
    expect(nextStep({ kind: 'results' }, v2)).toEqual({ kind: 'outro' });
  });
  it('skips questions answered elsewhere and comes back to earlier gaps', () => {
    expect(nextStep({ kind: 'intro' }, ctx([0, 1]))).toEqual({ kind: 'question', index: 2 });
    expect(nextStep({ kind: 'feedback', index: 4 }, ctx([0, 2, 3, 4]))).toEqual({
      kind: 'question',
      index: 1,
    });
  });
  it('stops a visitor at the limit with the sign-up gate on the next question', () => {
    const visitor = ctx([0, 1, 2], { visitorLimit: 3 });
    expect(nextStep({ kind: 'feedback', index: 2 }, visitor)).toEqual({ kind: 'gate', index: 3 });
    expect(nextStep({ kind: 'feedback', index: 1 }, ctx([0, 1], { visitorLimit: 3 }))).toEqual({
      kind: 'question',
      index: 2,
    });
  });
});

describe('revisit', () => {
  it('shows a feedback entry only for a question answered; otherwise asks it (an entry made under another order)', () => {
    expect(revisit({ kind: 'feedback', index: 1 }, ctx([1]))).toEqual({
      kind: 'feedback',
      index: 1,
    });
    expect(revisit({ kind: 'feedback', index: 1 }, ctx([0]))).toEqual({
      kind: 'question',
      index: 1,
    });
    expect(revisit({ kind: 'feedback', index: 9 }, ctx([0]))).toEqual({ kind: 'intro' });
    expect(revisit({ kind: 'question', index: 2 }, ctx([2]))).toEqual({
      kind: 'feedback',
      index: 2,
    });
  });
});

describe('resumeStep', () => {
  it('lands on the saved question, or its feedback when it was answered', () => {
    expect(resumeStep(ctx([0]), qs[1]!.qid)).toEqual({ kind: 'question', index: 1 });
    expect(resumeStep(ctx([0, 1]), qs[1]!.qid)).toEqual({ kind: 'feedback', index: 1 });
    expect(resumeStep(ctx([]), 'not-a-question')).toEqual({ kind: 'intro' });
    expect(resumeStep(ctx([]), null)).toEqual({ kind: 'intro' });
  });
});

describe('shuffle', () => {
  it('keeps leave-blank last and the same choices', () => {
    for (let seed = 0; seed < 20; seed++) {
      const s = makeShuffle('g', qs);
      for (const q of qs) {
        expect(s.choices[q.qid]!.at(-1)).toBe(LEAVE_BLANK_CHOICE);
        expect([...s.choices[q.qid]!].sort()).toEqual([...q.choices].sort());
      }
    }
  });
  it('leaves the order alone when the question is not randomised', () => {
    const fixed = question(7, { randomise_answers: false });
    expect(makeShuffle('g', [fixed], () => 0).choices[fixed.qid]).toEqual(fixed.choices);
  });
  it('fits only the same survey with the same choices', () => {
    const s = makeShuffle('g', qs);
    expect(shuffleFits(s, 'g', qs)).toBe(true);
    expect(shuffleFits(s, 'other', qs)).toBe(false);
    const edited = [question(1, { choices: ['Yes', 'No', LEAVE_BLANK_CHOICE] }), ...qs.slice(1)];
    expect(shuffleFits(s, 'g', edited)).toBe(false);
    expect(shuffleFits(null, 'g', qs)).toBe(false);
  });
});

describe("each person's order of the questions (randomise_questions)", () => {
  const ids = (list: ReadonlyArray<Pick<Question, 'qid'>>) => list.map((q) => q.qid);
  it('draws a permutation of every question, and every order is possible', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const order = makeShuffle('g', qs.slice(0, 3)).order!;
      expect([...order].sort()).toEqual(ids(qs.slice(0, 3)).sort());
      seen.add(order.join());
    }
    // 3! orders; each has a chance of 1/6 per draw, so 2,000 draws miss one with ~1e-158.
    expect(seen.size).toBe(6);
  });
  it('asks in the saved order, and questions added since after it in their own order', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(ids(qs), { minLength: 0, maxLength: qs.length }), (order) => {
        const asked = inPersonsOrder(qs, order);
        expect([...ids(asked)].sort()).toEqual(ids(qs).sort());
        expect(ids(asked).slice(0, order.length)).toEqual(order);
        const rest = ids(qs).filter((qid) => !order.includes(qid));
        expect(ids(asked).slice(order.length)).toEqual(rest);
      }),
    );
  });
  it('ignores qids of questions no longer asked (the other of an honesty-gap pair)', () => {
    const order = ids(qs).reverse();
    expect(ids(inPersonsOrder(qs.slice(1, 3), order))).toEqual([qs[2]!.qid, qs[1]!.qid]);
  });
  it('keeps a saved order and draws one for a save made before orders were kept', () => {
    const saved = makeShuffle('g', qs);
    expect(withOrder(saved, qs)).toBe(saved);
    const { order: _dropped, ...older } = saved;
    const drawn = withOrder(older, qs).order!;
    expect([...drawn].sort()).toEqual(ids(qs).sort());
  });
});

describe('timerSeconds', () => {
  it('reads H:MM:SS', () => {
    expect(timerSeconds('0:00:00')).toBe(0);
    expect(timerSeconds('0:00:20')).toBe(20);
    expect(timerSeconds('1:02:03')).toBe(3723);
  });
});

describe('mineStateOf', () => {
  const at = Date.parse('2026-11-23T10:00:00Z');
  it("never counts a visitor's answer", () => {
    expect(mineStateOf(false, at, { snapshot_at: '2026-11-23T11:00:00Z' })).toBe('not-counted');
    expect(mineStateOf(false, null, { snapshot_at: null })).toBe('not-counted');
  });
  it('says a member answer joins at the next update while the snapshot is older', () => {
    expect(mineStateOf(true, at, { snapshot_at: '2026-11-23T09:59:59Z' })).toBe('next-update');
    expect(mineStateOf(true, at, { snapshot_at: null })).toBe('next-update');
    expect(mineStateOf(true, at, { snapshot_at: '2026-11-23T10:00:01Z' })).toBe('counted');
    // Answered before this page: nothing known, nothing claimed.
    expect(mineStateOf(true, null, { snapshot_at: null })).toBe('counted');
  });
  it('after a reload judges by the day the API kept, as the mirror does (issue 29)', () => {
    const day = '2026-11-23';
    // The numbers were taken on the day of the answer: the mirror says it joins at the next
    // update, and so does the survey's graph (it said "counted" before).
    expect(mineStateOf(true, null, { snapshot_at: '2026-11-23T11:00:00Z' }, day)).toBe(
      'next-update',
    );
    expect(mineStateOf(true, null, { snapshot_at: '2026-11-24T01:00:00Z' }, day)).toBe('counted');
  });
  it('tells an account under review its answer counts once approved', () => {
    expect(mineStateOf(true, at, { snapshot_at: '2026-11-23T11:00:00Z' }, null, true)).toBe(
      'under-review',
    );
    // A visitor is a visitor, whatever else.
    expect(mineStateOf(false, at, { snapshot_at: null }, null, true)).toBe('not-counted');
  });
});

describe('asksRating', () => {
  it('asks after one question in RATE_EVERY, each question for about one person in RATE_EVERY', () => {
    const asked = new Map<number, number>();
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const people = 4000;
    for (let p = 0; p < people; p++) {
      const s = makeShuffle('g', [], random);
      const mine = Array.from({ length: 12 }, (_, i) => i).filter((i) => asksRating(s, i));
      // Every person rates 12 / RATE_EVERY questions, never two in a row.
      expect(mine).toHaveLength(12 / RATE_EVERY);
      for (const i of mine) asked.set(i, (asked.get(i) ?? 0) + 1);
    }
    for (let i = 0; i < 12; i++) {
      expect(Math.abs(asked.get(i)! / people - 1 / RATE_EVERY)).toBeLessThan(0.03);
    }
  });

  it('reads a shuffle saved before ratings were spread as asking from the first question', () => {
    expect(asksRating({}, 0)).toBe(true);
    expect(asksRating({}, 1)).toBe(false);
    expect(asksRating({ rateAt: -3 }, 0)).toBe(true);
    expect(asksRating({ rateAt: 1 }, RATE_EVERY - 1)).toBe(true);
  });
});

describe('honesty-gap pairs (decision 029)', () => {
  // Q1 asked directly, Q3 the same with randomized response; Q2 is ordinary.
  const paired = [
    question(1, { twin_qid: question(3).qid }),
    question(2),
    question(3, { rr_weight: 3, twin_qid: question(1).qid }),
  ];
  const [direct, plain, randomized] = paired.map((q) => q.qid) as [string, string, string];

  it('draws one arm per pair, keeps a drawn one, and asks one question of each pair', () => {
    const drawn = withArms(makeShuffle('g', paired), paired, () => 1);
    expect(drawn.arms).toEqual({ [direct]: 'randomized' });
    // Kept as drawn: a reload asks the same.
    expect(withArms(drawn, paired, () => 0).arms).toEqual({ [direct]: 'randomized' });
    const asked = (arms: typeof drawn.arms, answered: string[] = []) =>
      askedQuestions(paired, arms, new Set(answered)).map((q) => q.qid);
    expect(asked(drawn.arms)).toEqual([plain, randomized]);
    expect(asked({ [direct]: 'direct' })).toEqual([direct, plain]);
    // An answer given (here or on another device) settles the pair whatever the draw.
    expect(asked({ [direct]: 'randomized' }, [direct])).toEqual([direct, plain]);
    expect(asked({ [direct]: 'direct' }, [randomized])).toEqual([plain, randomized]);
    // An old save without arms asks the direct one until drawn.
    expect(asked(undefined)).toEqual([direct, plain]);
  });

  it('assigns each arm about half the time from the secure source', () => {
    let randomizedArms = 0;
    for (let i = 0; i < 2000; i++) {
      if (withArms(makeShuffle('g', paired), paired).arms![direct] === 'randomized') {
        randomizedArms++;
      }
    }
    // Binomial(2000, 1/2): sd 22.4; 5 sd either side.
    expect(Math.abs(randomizedArms - 1000)).toBeLessThan(112);
  });
});
