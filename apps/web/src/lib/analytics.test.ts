import { describe, expect, it } from 'vitest';
import { referrerHost, routePattern } from './analytics';

describe('routePattern', () => {
  it('replaces parameter values by their names, never sending ids', () => {
    expect(routePattern('/surveys/3f2c', { surveyId: '3f2c' })).toBe('/surveys/:surveyId');
    expect(routePattern('/Night_Owls/abc', { surveyName: 'Night_Owls', gid: 'abc' })).toBe(
      '/:surveyName/:gid',
    );
    expect(routePattern('/', {})).toBe('/');
  });
});

describe('referrerHost', () => {
  it('keeps other sites only', () => {
    expect(referrerHost('https://news.example/a?b', 'candor.test')).toBe('news.example');
    expect(referrerHost('https://candor.test/x', 'candor.test')).toBeNull();
    expect(referrerHost('', 'candor.test')).toBeNull();
  });
});
