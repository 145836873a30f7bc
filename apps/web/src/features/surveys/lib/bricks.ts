import type { SurveyVariant } from '@candor/contracts';

export type BrickSize = 'large' | 'medium' | 'small';

const sizes: BrickSize[] = ['large', 'medium', 'small'];

/** Brick size of a survey from its variant (size index: 0 large, 1 medium, 2 small). */
export function brickSizeOf(variant: SurveyVariant): BrickSize {
  const name = variant.split('_')[1];
  return sizes.find((s) => s === name) ?? 'medium';
}

/** v1_* surveys show each question's graph right after the answer; v2_* show all at the end. */
export const givesInstantFeedback = (variant: SurveyVariant) => variant.startsWith('v1_');

/**
 * CSS background-position of a brick's cover (spec section 9): large is centred; medium and small
 * get a random horizontal offset of 10%..100% in steps of 10; other sizes 20%..40%; always 50% down.
 */
export function backgroundPosition(size: string, random: () => number = Math.random): string {
  if (size === 'large') return 'center';
  const steps = (from: number, to: number) => {
    const count = (to - from) / 10 + 1;
    return from + Math.min(count - 1, Math.floor(random() * count)) * 10;
  };
  const x = size === 'medium' || size === 'small' ? steps(10, 100) : steps(20, 40);
  return `${x}% 50%`;
}

/** One of four colourways for a survey without a cover image, the same for a survey every time. */
export function toneOf(gid: string): number {
  let sum = 0;
  for (const c of gid) sum += c.charCodeAt(0);
  return sum % 4;
}
