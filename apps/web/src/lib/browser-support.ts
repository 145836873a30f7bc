import Bowser from 'bowser';

// Loaded only for the user agents lib/outdated-browser.ts cannot judge alone.

/** Any Internet Explorer, Edge < 90, Chrome < 80, Firefox < 80 (spec section 2). */
export function isOutdatedBrowser(userAgent: string): boolean {
  const browser = Bowser.getParser(userAgent);
  return Boolean(
    browser.satisfies({
      'Internet Explorer': '>=0',
      'Microsoft Edge': '<90',
      chrome: '<80',
      firefox: '<80',
    }),
  );
}
