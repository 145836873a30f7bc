import { describe, expect, it } from 'vitest';
import { shouldShowLandscapeAlert } from './landscape';

describe('shouldShowLandscapeAlert', () => {
  it.each([
    [{ isTouch: true, width: 390, height: 844 }, true, 'touch, portrait'],
    [{ isTouch: true, width: 844, height: 390 }, true, 'touch, landscape, lower than 560'],
    [{ isTouch: true, width: 1180, height: 820 }, false, 'touch, landscape, tall enough'],
    [{ isTouch: true, width: 900, height: 560 }, false, 'touch, landscape, exactly 560'],
    [{ isTouch: false, width: 390, height: 844 }, false, 'no touch, portrait'],
    [{ isTouch: false, width: 1280, height: 500 }, false, 'no touch, low window'],
  ])('%o -> %s (%s)', (view, expected) => {
    expect(shouldShowLandscapeAlert(view)).toBe(expected);
  });
});
