import { describe, expect, it } from 'vitest';
import { isOutdatedBrowser } from './browser-support';
import { certainlyCurrent } from './outdated-browser';

const android = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko)';
const windows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)';
const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)';

// Browsers people use now, which the first visit must judge without bowser.
const current: Array<[string, string]> = [
  ['Chrome 131 (Windows)', `${windows} Chrome/131.0.0.0 Safari/537.36`],
  ['Chrome 80 (Windows)', `${windows} Chrome/80.0.3987.87 Safari/537.36`],
  ['Chrome 124 (Android)', `${android} Chrome/124.0.0.0 Mobile Safari/537.36`],
  [
    "Lighthouse's Moto G Power",
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
  ],
  ['Edge 120', `${windows} Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91`],
  ['Edge 90', `${windows} Chrome/90.0.4430.85 Safari/537.36 Edg/90.0.818.46`],
  ['Edge on Android', `${android} Chrome/124.0.0.0 Mobile Safari/537.36 EdgA/124.0.2478.64`],
  [
    'Firefox 128',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
  ],
  ['Firefox 80', 'Mozilla/5.0 (X11; Linux x86_64; rv:80.0) Gecko/20100101 Firefox/80.0'],
  ['Firefox on Android', 'Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0'],
  ['Safari 17 (iPhone)', `${iphone} Version/17.5 Mobile/15E148 Safari/604.1`],
  [
    'Safari 12 (Mac)',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_14) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.0 Safari/605.1.15',
  ],
  ['Chrome on iPhone', `${iphone} CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1`],
  ['Firefox on iPhone', `${iphone} FxiOS/127.0 Mobile/15E148 Safari/605.1.15`],
  ['Edge on iPhone', `${iphone} EdgiOS/125.2535.87 Version/17.0 Mobile/15E148 Safari/604.1`],
  ['Samsung Internet 25', `${android} SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36`],
  ['Opera 110', `${windows} Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0`],
];

// Old or unusual agents: this check cannot tell, bowser decides.
const unsure: Array<[string, string]> = [
  ['Chrome 79', `${windows} Chrome/79.0.3945.130 Safari/537.36`],
  ['Chrome 64', `${windows} Chrome/64.0.3282.140 Safari/537.36`],
  ['Edge 89', `${windows} Chrome/89.0.4389.114 Safari/537.36 Edg/89.0.774.45`],
  ['Edge 79 (Chromium 79)', `${windows} Chrome/79.0.3945.74 Safari/537.36 Edg/79.0.309.43`],
  ['Edge 18 (EdgeHTML)', `${windows} Chrome/70.0.3538.102 Safari/537.36 Edge/18.19045`],
  [
    'Edge 18 with a newer Chrome token',
    `${windows} Chrome/91.0.4472.124 Safari/537.36 Edge/18.19045`,
  ],
  ['Edge on Android 46', `${android} Chrome/124.0.0.0 Mobile Safari/537.36 EdgA/46.3.4`],
  ['Firefox 79', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:79.0) Gecko/20100101 Firefox/79.0'],
  ['Firefox 67', 'Mozilla/5.0 (X11; Linux x86_64; rv:67.0) Gecko/20100101 Firefox/67.0'],
  ['Firefox on iPhone 20', `${iphone} FxiOS/20.0 Mobile/15E148 Safari/605.1.15`],
  ['Chrome on iPhone 79', `${iphone} CriOS/79.0.3945.73 Mobile/15E148 Safari/604.1`],
  ['IE 11', 'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko'],
  ['IE 9', 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)'],
  ['Samsung Internet 9', `${android} SamsungBrowser/9.2 Chrome/67.0.3396.87 Mobile Safari/537.36`],
  ['A Chrome token without a version', `${windows} Chrome Safari/537.36`],
  ['Two Chrome tokens, one old', `${windows} Chrome/120.0.0.0 Chrome/70.0.0.0 Safari/537.36`],
  ['Firefox and Chrome tokens, Firefox old', `${windows} Chrome/120.0.0.0 Firefox/60.0`],
  ['A made-up agent naming Internet Explorer', 'Internet Explorer/5.0 (Windows)'],
];

describe('certainlyCurrent', () => {
  it.each(current)('%s: current, without bowser (and bowser agrees)', (_name, ua) => {
    expect(certainlyCurrent(ua)).toBe(false);
    expect(isOutdatedBrowser(ua)).toBe(false);
  });

  it.each(unsure)('%s: asks bowser', (_name, ua) => {
    expect(certainlyCurrent(ua)).toBeNull();
  });

  it('never calls current a browser that bowser calls outdated', () => {
    // Every agent above, and each with its version tokens lowered one by one.
    const agents = [...current, ...unsure].flatMap(([, ua]) => [
      ua,
      ua.replace(/\/(\d+)\./, (_m, v: string) => `/${Math.max(0, Number(v) - 50)}.`),
    ]);
    for (const ua of agents) {
      if (certainlyCurrent(ua) === false) expect(isOutdatedBrowser(ua), ua).toBe(false);
    }
  });
});
