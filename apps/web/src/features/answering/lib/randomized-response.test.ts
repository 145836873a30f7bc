import { LEAVE_BLANK_CHOICE, rrProbabilities } from '@candor/contracts';
import { describe, expect, it, vi } from 'vitest';
import { choiceToSend, secureRandomInt } from './randomized-response';

const question = (rr_weight: number | null) => ({
  choices: ['Never', 'Once', 'A few times', 'Often', LEAVE_BLANK_CHOICE],
  rr_weight,
});

describe('the device’s draw (decision 028)', () => {
  it('sends an ordinary question’s choice, and a blank, as they are, drawing nothing', () => {
    const draw = vi.fn(() => 0);
    expect(choiceToSend(question(null), 'Often', draw)).toBe('Often');
    expect(choiceToSend(question(9), LEAVE_BLANK_CHOICE, draw)).toBe(LEAVE_BLANK_CHOICE);
    expect(draw).not.toHaveBeenCalled();
    // A choice the question does not have is refused, never sent undrawn.
    expect(() => choiceToSend(question(9), 'Sometimes', draw)).toThrow(RangeError);
  });

  it('draws once among m + k - 1 outcomes: m keep the choice, one goes to each other choice', () => {
    const q = question(9);
    const sent = Array.from({ length: 12 }, (_, r) => choiceToSend(q, 'Once', () => r));
    // 0..8 keep "Once"; 9, 10, 11 are the other three choices in order.
    expect(sent.slice(0, 9)).toEqual(Array(9).fill('Once'));
    expect(sent.slice(9)).toEqual(['Never', 'A few times', 'Often']);
    const draw = vi.fn(() => 0);
    choiceToSend(q, 'Often', draw);
    expect(draw).toHaveBeenCalledExactlyOnceWith(12);
  });

  it('sends, from the secure source, the true choice at the designed rate', () => {
    const q = question(3);
    const n = 30_000;
    let kept = 0;
    const others = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const sent = choiceToSend(q, 'A few times');
      if (sent === 'A few times') kept++;
      else others.set(sent, (others.get(sent) ?? 0) + 1);
      expect(sent).not.toBe(LEAVE_BLANK_CHOICE);
    }
    const { keep, other } = rrProbabilities({ choices: 4, weight: 3 });
    // Six standard deviations: a correct sampler fails this about once in 10^9 runs.
    const within = (count: number, p: number) =>
      Math.abs(count - n * p) < 6 * Math.sqrt(n * p * (1 - p));
    expect(within(kept, keep)).toBe(true);
    expect([...others.keys()].sort()).toEqual(
      ['A few times', 'Never', 'Often', 'Once'].filter((c) => c !== 'A few times').sort(),
    );
    for (const count of others.values()) expect(within(count, other)).toBe(true);
  });

  it('draws uniform whole numbers, rejecting the partial block rather than favouring low values', () => {
    const max = 3 * 2 ** 30; // 2^32 mod max is 2^30: a plain modulo would favour [0, 2^30)
    const n = 20_000;
    let low = 0;
    for (let i = 0; i < n; i++) {
      const r = secureRandomInt(max);
      expect(Number.isInteger(r) && r >= 0 && r < max).toBe(true);
      if (r < 2 ** 30) low++;
    }
    // Uniform: a third land below 2^30; a plain modulo would put half there.
    expect(Math.abs(low / n - 1 / 3)).toBeLessThan(6 * Math.sqrt(((1 / 3) * (2 / 3)) / n));
    expect(() => secureRandomInt(0)).toThrow(RangeError);
    expect(() => secureRandomInt(1.5)).toThrow(RangeError);
  });
});
