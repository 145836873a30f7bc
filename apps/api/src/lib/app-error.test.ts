import { describe, expect, it } from 'vitest';
import { RateLimitedError, waitInWords } from './app-error.js';

describe('a rate limit says how long to wait', () => {
  it.each([
    [1, '1 second'],
    [59, '59 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [3599, '60 minutes'],
    [3600, '1 hour'],
    [3601, '2 hours'],
  ])('%i s: %s', (seconds, words) => {
    expect(waitInWords(seconds)).toBe(words);
  });

  it('in its message, with the same figure as Retry-After, rounded up', () => {
    const err = new RateLimitedError(14 * 60_000 + 1);
    expect(err.retryAfterSeconds).toBe(14 * 60 + 1);
    expect(err.message).toBe('Too many tries. Please try again in 15 minutes.');
    expect(new RateLimitedError(10, 'Custom.').message).toBe('Custom.');
  });
});
