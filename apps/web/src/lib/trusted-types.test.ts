import { describe, expect, it } from 'vitest';
import { allowedHtml, allowedScriptUrl } from './trusted-types';

const origin = 'https://candor.example';

describe('the default Trusted Types policy', () => {
  it("lets the players' templates through, never markup that runs script", () => {
    const template =
      '<style>:host { display: block }</style><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?enablejsapi=1" allow="autoplay; fullscreen"></iframe>';
    expect(allowedHtml(template)).toBe(template);
    for (const attack of [
      '<script>alert(1)</script>',
      '< SCRIPT src="https://evil.example/x.js"></script>',
      '<img src=x onerror=alert(1)>',
      '<svg><a href="javascript:alert(1)">x</a></svg>',
      '<iframe src="JavaScript :alert(1)"></iframe>',
    ]) {
      expect(allowedHtml(attack), attack).toBeNull();
    }
  });

  it("loads scripts from this site, its own workers' blobs and YouTube's player API only", () => {
    for (const ok of [
      '/assets/index-abc.js',
      `${origin}/assets/chart.js`,
      `blob:${origin}/6b0e5f0c-6d2b-4b8e-9d7f-1f3f1a1b2c3d`,
      'https://www.youtube.com/iframe_api',
      'https://www.youtube.com/s/player/abc123/www-widgetapi.vflset/www-widgetapi.js',
    ]) {
      expect(allowedScriptUrl(ok, origin), ok).toBe(ok);
    }
    for (const bad of [
      'https://evil.example/x.js',
      'https://www.youtube.com/redirect?q=https://evil.example/x.js',
      'https://www.youtube.com.evil.example/iframe_api',
      'https://www.youtube.com/iframe_api/../evil.js',
      'https://www.youtube.com/iframe_apiX',
      'blob:https://evil.example/6b0e5f0c',
      'data:text/javascript,alert(1)',
      'javascript:alert(1)',
    ]) {
      expect(allowedScriptUrl(bad, origin), bad).toBeNull();
    }
  });
});
