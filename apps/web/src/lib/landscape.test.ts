import { describe, expect, it } from 'vitest';
import { landscapeAdvice, landscapeAlertReason, shouldShowLandscapeAlert } from './landscape';

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

describe('landscapeAlertReason and landscapeAdvice', () => {
  it('tells a phone in portrait to turn, and never tells one already on its side to', () => {
    expect(landscapeAlertReason({ isTouch: true, width: 390, height: 844 })).toBe('portrait');
    expect(landscapeAlertReason({ isTouch: true, width: 844, height: 390 })).toBe('low');
    expect(landscapeAdvice('portrait', 'video')).toMatch(/^Turn your phone sideways/);
    for (const topic of ['video', 'graph'] as const) {
      expect(landscapeAdvice('low', topic)).not.toMatch(/turn|sideways|landscape/i);
    }
  });
});
