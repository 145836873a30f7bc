import { describe, expect, it } from 'vitest';
import { contrast, luminance, parseHex, readPalette } from './contrast';

describe('WCAG contrast math', () => {
  it('gives the known luminances of white, black and mid grey', () => {
    expect(luminance('#ffffff')).toBe(1);
    expect(luminance('#000')).toBe(0);
    // #808080: channel 128/255 in linear light is 0.2158605.
    expect(luminance('#808080')).toBeCloseTo(0.21586, 5);
  });

  it('gives the known ratios: 21 for black on white, 1 for a colour on itself, the #767676 line', () => {
    expect(contrast('#000000', '#ffffff')).toBe(21);
    expect(contrast('#ffffff', '#000000')).toBe(21);
    expect(contrast('#5b3df5', '#5b3df5')).toBe(1);
    // The lightest grey that passes AA on white is #767676 (4.54:1); #777777 fails (4.48:1).
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    // Pure red on white: 3.998, just under the 4:1 people often quote.
    expect(contrast('#ff0000', '#ffffff')).toBeCloseTo(4.0, 2);
  });

  it('reads #rgb and #rrggbb, and refuses anything else', () => {
    expect(parseHex('#fa0')).toEqual([255, 170, 0]);
    expect(parseHex('#14131A')).toEqual([20, 19, 26]);
    expect(() => parseHex('rgb(1 2 3)')).toThrow(/Not a #rgb/);
  });

  it('reads the light palette and the dark one laid over it', () => {
    const css = `/* a: #000 */
      :root { --ink: #111; --paper: #fff; --radius: 4px; }
      .x { color: var(--ink); }
      @media (prefers-color-scheme: dark) { :root { --ink: #eee; --paper: #000; } }`;
    const { light, dark, darkOnly } = readPalette(css);
    expect(light).toEqual({ '--ink': '#111', '--paper': '#fff', '--radius': '4px' });
    expect(dark).toEqual({ '--ink': '#eee', '--paper': '#000', '--radius': '4px' });
    expect(Object.keys(darkOnly)).toEqual(['--ink', '--paper']);
  });
});
