import { describe, expect, it } from 'vitest';
import { timeAgo, timeUntil } from './relative-time.js';

const now = new Date('2026-06-01T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('timeAgo', () => {
  it.each([
    [0, 'just now'],
    [59, 'just now'],
    [60, '1 minute ago'],
    [119, '1 minute ago'],
    [120, '2 minutes ago'],
    [3_600, '1 hour ago'],
    [5 * 3_600, '5 hours ago'],
    [86_400, '1 day ago'],
    [6 * 86_400, '6 days ago'],
    [7 * 86_400, '1 week ago'],
    [29 * 86_400, '4 weeks ago'],
    [30 * 86_400, '1 month ago'],
    [364 * 86_400, '12 months ago'],
    [365 * 86_400, '1 year ago'],
    [3 * 365 * 86_400, '3 years ago'],
  ])('%i seconds ago reads "%s"', (seconds, text) => {
    expect(timeAgo(ago(seconds), now)).toBe(text);
  });

  it('accepts ISO strings and treats the future as just now', () => {
    expect(timeAgo(ago(7_200).toISOString(), now)).toBe('2 hours ago');
    expect(timeAgo(new Date(now.getTime() + 60_000), now)).toBe('just now');
  });
});

describe('timeUntil', () => {
  const ahead = (seconds: number) => new Date(now.getTime() + seconds * 1000);
  it.each([
    [-30, 'in under a minute'],
    [0, 'in under a minute'],
    [59, 'in under a minute'],
    [60, 'in 1 minute'],
    [2 * 3_600 + 5, 'in 2 hours'],
    [3 * 86_400, 'in 3 days'],
    [14 * 86_400, 'in 2 weeks'],
  ])('%i seconds ahead reads "%s"', (seconds, text) => {
    expect(timeUntil(ahead(seconds).toISOString(), now)).toBe(text);
  });
});
