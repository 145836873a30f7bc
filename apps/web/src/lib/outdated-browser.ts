// The outdated-browser rule (spec section 2) without its parser: the message, and a verdict from
// the user agent alone for the browsers nearly everyone uses. bowser (lib/browser-support.ts,
// 10 KB gzip) is loaded only when this cannot tell, so a first visit does not download it.

export const OUTDATED_BROWSER_MESSAGE =
  'You are using an outdated browser. It can be updated via your browser settings.';

/** Thresholds of the rule: below these versions a browser is outdated (any IE is). */
const RULES: Array<{ names: RegExp; versions: RegExp; minimum: number }> = [
  // Each family as bowser recognises it (its name tests) and every version token it might read.
  { names: /\sedg\/|edg([ea]|ios)\//i, versions: /edg(?:[ea]|ios)?\/(\d+)/gi, minimum: 90 },
  {
    names: /firefox|iceweasel|fxios/i,
    versions: /(?:firefox|iceweasel|fxios)[\s/](\d+)/gi,
    minimum: 80,
  },
  { names: /chrome|crios|crmo/i, versions: /(?:chrome|crios|crmo)\/(\d+)/gi, minimum: 80 },
];

/**
 * `false` when the browser is certainly not outdated, whichever browser bowser would take it
 * for: no Internet Explorer marks, and for every rule family the user agent names, every
 * version token of that family at or above its minimum (a Safari passes, and so does Chrome
 * 120 that also says Edge 120; Chrome 79, Edge 89 or an odd agent do not). `null` means "ask
 * bowser": this never says "outdated" by itself.
 */
export function certainlyCurrent(userAgent: string): false | null {
  if (/msie|trident|internet explorer|microsoft edge/i.test(userAgent)) return null;
  for (const rule of RULES) {
    if (!rule.names.test(userAgent)) continue;
    // exec in a loop, not matchAll: this runs in the old browsers it has to catch (Chrome 64).
    rule.versions.lastIndex = 0;
    let seen = 0;
    for (let m = rule.versions.exec(userAgent); m; m = rule.versions.exec(userAgent)) {
      seen++;
      if (!(Number(m[1]) >= rule.minimum)) return null;
    }
    if (!seen) return null;
  }
  return false;
}
