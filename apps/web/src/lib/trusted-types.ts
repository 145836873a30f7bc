// Trusted Types: the API's Content-Security-Policy has `require-trusted-types-for 'script'`, so
// the browser refuses a plain string at every sink that can run script (innerHTML, a script's
// src, a worker's URL). Candor's own code and React use none. The video players' custom elements
// do: their shadow DOM template (innerHTML), YouTube's iframe API script, hls.js's worker. This
// default policy, the only one Candor creates, lets exactly those kinds of values through.

/** Scripts from elsewhere that may be loaded: YouTube's iframe API and the widget it loads. */
const YOUTUBE_API = 'https://www.youtube.com/iframe_api';
const YOUTUBE_PLAYER = 'https://www.youtube.com/s/player/';

// Markup that would run script: a script element, an inline event handler, a javascript: URL.
const SCRIPTED_MARKUP = /<\s*script|\son[a-z]+\s*=|javascript\s*:/i;

/** The HTML a sink may take: the players' templates (style and iframe), never script. */
export function allowedHtml(html: string): string | null {
  return SCRIPTED_MARKUP.test(html) ? null : html;
}

/** The script URLs a sink may take: this site's, a worker's blob, or YouTube's player API. */
export function allowedScriptUrl(url: string, origin: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch {
    return null;
  }
  // A blob: URL's origin is the page's that made it.
  if (parsed.origin === origin) return url;
  return parsed.href === YOUTUBE_API || parsed.href.startsWith(YOUTUBE_PLAYER) ? url : null;
}

interface TrustedTypePolicyFactory {
  defaultPolicy: unknown;
  createPolicy(
    name: string,
    rules: {
      createHTML?: (input: string) => string | null;
      createScriptURL?: (input: string) => string | null;
      createScript?: (input: string) => string | null;
    },
  ): unknown;
}

/**
 * Creates the default policy where the browser has Trusted Types (Chromium); elsewhere nothing
 * is enforced and nothing is needed.
 */
export function installTrustedTypesPolicy(): void {
  const factory = (globalThis as { trustedTypes?: TrustedTypePolicyFactory }).trustedTypes;
  if (!factory || factory.defaultPolicy) return;
  const origin = globalThis.location.origin;
  factory.createPolicy('default', {
    createHTML: allowedHtml,
    createScriptURL: (url) => allowedScriptUrl(url, origin),
    // No string ever becomes script (eval, new Function: the CSP refuses them too). Throwing,
    // rather than returning null, lets a library's feature test (zod's `new Function('')`)
    // catch the refusal quietly instead of logging a violation.
    createScript: () => {
      throw new TypeError('Candor runs no script from strings.');
    },
  });
}
