import { describe, expect, it } from 'vitest';
import { backgroundPosition, brickSizeOf, givesInstantFeedback } from './bricks';

describe('brickSizeOf', () => {
  it('reads the size from the variant', () => {
    expect(brickSizeOf('v1_large')).toBe('large');
    expect(brickSizeOf('v2_medium')).toBe('medium');
    expect(brickSizeOf('v1_small')).toBe('small');
  });
  it('v1 gives instant feedback, v2 does not', () => {
    expect(givesInstantFeedback('v1_small')).toBe(true);
    expect(givesInstantFeedback('v2_large')).toBe(false);
  });
});

describe('backgroundPosition', () => {
  const xs = (size: string) => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) seen.add(backgroundPosition(size, () => i / 200));
    return [...seen];
  };

  it('centres large bricks', () => {
    expect(backgroundPosition('large', () => 0.7)).toBe('center');
  });

  it.each(['medium', 'small'])('%s: 10%%..100%% in steps of 10, always 50%% down', (size) => {
    expect(xs(size).sort()).toEqual(
      [10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((x) => `${x}% 50%`).sort(),
    );
  });

  it('other sizes: 20%..40%', () => {
    expect(xs('tiny').sort()).toEqual(['20% 50%', '30% 50%', '40% 50%']);
  });

  it('stays in range when the random source returns its extremes', () => {
    expect(backgroundPosition('small', () => 0)).toBe('10% 50%');
    expect(backgroundPosition('small', () => 0.999999)).toBe('100% 50%');
  });
});
