import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  paceOf,
  qualityBand,
  readingFloorMs,
  STRAIGHT_RUN,
  takeYourTime,
  type PacedAnswer,
} from './answer-pace.js';

const closed = (question: string, choices: string[]) => ({
  type: 'Closed' as const,
  question,
  choices,
  video_link_1: null,
});

/** A closed answer of 4 choices at `position`, taking `ms` against a 3 s floor. */
const answer = (over: Partial<PacedAnswer> = {}): PacedAnswer => ({
  ms: 5000,
  floorMs: 3000,
  position: 0,
  choices: 4,
  blank: false,
  timedOut: false,
  ...over,
});

const anyAnswer = fc.record({
  ms: fc.option(fc.nat({ max: 60_000 }), { nil: undefined }),
  floorMs: fc.option(fc.nat({ max: 20_000 }), { nil: null }),
  position: fc.option(fc.nat({ max: 5 }), { nil: null }),
  choices: fc.nat({ max: 6 }),
  blank: fc.boolean(),
  timedOut: fc.boolean(),
});

describe('the pace of a survey’s answers (issue 29, point 5)', () => {
  it('reads a closed question and its choices at 300 ms a word, never a leave-blank, a written answer or a video', () => {
    const q = closed('Have you ever lied to a doctor?', ['Yes', 'No, never', 'Leave blank']);
    // 7 words of question, 1 + 2 of choices.
    expect(readingFloorMs(q)).toBe(10 * 300);
    expect(readingFloorMs({ ...q, type: 'Open', choices: [] })).toBeNull();
    expect(readingFloorMs({ ...q, video_link_1: 'https://v.example/1.mp4' })).toBeNull();
  });

  it('calls careful whoever reads at least as long as the words take, in any order of positions', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 2 }), { maxLength: 40 }), (steps) => {
        // Each position moves on from the one before by 1 to 3 of 4: no two neighbours alike,
        // so no run; every answer slower than its floor.
        let position = 0;
        const slow = steps.map((step) => {
          position = (position + 1 + step) % 4;
          return answer({ position });
        });
        const pace = paceOf(slow);
        expect(pace.sped).toBe(0);
        expect(qualityBand(pace)).toBe('careful');
        expect(takeYourTime(pace)).toBe(false);
      }),
    );
  });

  it('tells a rusher once two answers, and a third of them, came faster than anyone reads', () => {
    const one = [answer({ ms: 400 }), answer({ position: 1 }), answer({ position: 2 })];
    expect(takeYourTime(paceOf(one))).toBe(false);
    const two = [...one, answer({ ms: 900, position: 3 })];
    expect(paceOf(two).sped).toBe(2);
    expect(takeYourTime(paceOf(two))).toBe(true);
    expect(qualityBand(paceOf(two))).toBe('inattentive');
    // Two quick answers among 9 careful ones are a person who knew their mind.
    const spread = [...two, ...[0, 1, 2, 3, 0, 1, 2].map((position) => answer({ position }))];
    expect(qualityBand(paceOf(spread))).toBe('careful');
  });

  it('never counts a quick leave-blank, a run-out or an unknown time as speeding', () => {
    const pace = paceOf([
      answer({ ms: 100, blank: true, position: 3 }),
      answer({ ms: 100, blank: true, timedOut: true, position: null }),
      answer({ ms: undefined }),
      answer({ ms: 100, floorMs: null }),
    ]);
    expect(pace.sped).toBe(0);
  });

  it(`finds ${STRAIGHT_RUN} answers in a row at one position, broken by a blank, a written answer or a two-choice question`, () => {
    const run = Array.from({ length: STRAIGHT_RUN }, () => answer({ position: 2 }));
    expect(paceOf(run).longestRun).toBe(STRAIGHT_RUN);
    expect(takeYourTime(paceOf(run))).toBe(true);
    for (const breaker of [
      answer({ blank: true, position: 2 }),
      answer({ position: null, choices: 0 }),
      answer({ position: 2, choices: 2 }),
    ]) {
      const broken = [...run.slice(0, 2), breaker, ...run.slice(2)];
      expect(paceOf(broken).longestRun).toBe(STRAIGHT_RUN - 2);
      expect(qualityBand(paceOf(broken))).toBe('careful');
    }
  });

  it('bands run-out timers inattentive without telling the person to hurry less', () => {
    const pace = paceOf([
      answer({ blank: true, timedOut: true, position: null }),
      answer({ position: 1 }),
      answer({ blank: true, timedOut: true, position: null }),
      answer({ position: 3 }),
    ]);
    expect(qualityBand(pace)).toBe('inattentive');
    expect(takeYourTime(pace)).toBe(false);
  });

  it('is monotone: adding a sped answer or lengthening a run never makes a sheet more careful', () => {
    fc.assert(
      fc.property(fc.array(anyAnswer, { maxLength: 30 }), (answers) => {
        const pace = paceOf(answers);
        expect(pace.answered).toBe(answers.length);
        expect(pace.sped).toBeLessThanOrEqual(answers.length);
        expect(pace.longestRun).toBeLessThanOrEqual(answers.length);
        // Sped answers only ever add: the band of the whole is at least that of the same sheet
        // with every sped answer slowed down.
        const slowed = answers.map((a) =>
          a.floorMs !== null && a.ms !== undefined && a.ms < a.floorMs
            ? { ...a, ms: a.floorMs }
            : a,
        );
        if (qualityBand(paceOf(slowed)) === 'inattentive') {
          expect(qualityBand(pace)).toBe('inattentive');
        }
        if (takeYourTime(paceOf(slowed))) expect(takeYourTime(pace)).toBe(true);
      }),
    );
  });
});
