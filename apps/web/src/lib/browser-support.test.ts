import { describe, expect, it } from 'vitest';
import { isOutdatedBrowser } from './browser-support';

const chrome = (v: string) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v} Safari/537.36`;
const edge = (v: string) => `${chrome('120.0.0.0')} Edg/${v}`;
const firefox = (v: string) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${v}) Gecko/20100101 Firefox/${v}`;

describe('isOutdatedBrowser', () => {
  it.each([
    ['Chrome 79', chrome('79.0.3945.130'), true],
    ['Chrome 80', chrome('80.0.3987.87'), false],
    ['Chrome 131', chrome('131.0.0.0'), false],
    ['Firefox 79', firefox('79.0'), true],
    ['Firefox 80', firefox('80.0'), false],
    ['Edge 89', edge('89.0.774.45'), true],
    ['Edge 90', edge('90.0.818.39'), false],
    ['IE 11', 'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko', true],
    ['IE 9', 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)', true],
    [
      'Safari 17',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
      false,
    ],
  ])('%s -> outdated: %s', (_name, ua, outdated) => {
    expect(isOutdatedBrowser(ua)).toBe(outdated);
  });
});
