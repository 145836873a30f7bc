import { describe, expect, it } from 'vitest';
import { privacyEnhancedSrc } from './question-video';

describe('privacyEnhancedSrc', () => {
  it('plays every form of YouTube link in the no-cookie player, keeping the start time', () => {
    const embed = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ';
    for (const link of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ',
      'https://youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ/',
      'https://www.youtube.com/live/dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    ]) {
      expect(privacyEnhancedSrc(link), link).toBe(embed);
    }
    expect(privacyEnhancedSrc('https://youtu.be/dQw4w9WgXcQ?t=42')).toBe(`${embed}?t=42`);
    expect(privacyEnhancedSrc('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m5s')).toBe(
      `${embed}?t=1m5s`,
    );
  });

  it('leaves other links alone', () => {
    for (const link of [
      '/sample/video/time-travel-1.mp4',
      'https://vimeo.com/76979871',
      'https://cdn.example/clip.mp4',
      'https://www.youtube.com/watch?v=short',
    ]) {
      expect(privacyEnhancedSrc(link)).toBe(link);
    }
  });
});
