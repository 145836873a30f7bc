// Every foreground/background pair the app draws meets WCAG AA in the light and the dark scheme:
// 4.5:1 for text, 3:1 for the parts of controls and graphs a person must see (WCAG 1.4.11).
// The pairs are read from global.css itself, so a token changed in either scheme is checked.
/// <reference types="node" />
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contrast, readPalette } from '../test/contrast';

// Read from disk: the test runner hands style sheets to tests empty, even with `?raw`.
const src = `${import.meta.dirname}/..`;
const read = (file: string) => readFileSync(`${src}/${file}`, 'utf8');
const globalCss = read('styles/global.css');

const TEXT = 4.5;
const UI = 3;

interface Pair {
  fg: string;
  bg: string;
  min: number;
  where: string;
}

/** One foreground on several backgrounds, for the same reason. */
const on = (fg: string, bgs: string[], min: number, where: string): Pair[] =>
  bgs.map((bg) => ({ fg, bg, min, where }));

const surfaces = ['paper', 'card', 'sunken', 'subtle', 'hover'];

const pairs: Pair[] = [
  // Text.
  ...on(
    'ink',
    [...surfaces, 'raised', 'violet-wash', 'violet-tint', 'success-wash', 'warning-wash'],
    TEXT,
    'body text, headings, answers, picked segments, a locked choice',
  ),
  ...on(
    'ink-soft',
    [...surfaces, 'raised', 'violet-wash'],
    TEXT,
    'secondary text, leads, segment labels',
  ),
  ...on(
    'ink-muted',
    [...surfaces, 'violet-wash'],
    TEXT,
    'muted text: captions, table heads, hints',
  ),
  ...on(
    'violet-dark',
    ['paper', 'card', 'violet-tint', 'violet-wash'],
    TEXT,
    'links, eyebrows, your answer in a graph, role badges',
  ),
  ...on(
    'violet-deep',
    ['violet-wash', 'violet-tint'],
    TEXT,
    'privacy notes, common words, the count card',
  ),
  ...on('teal-ink', ['paper', 'card'], TEXT, 'the outro eyebrow'),
  ...on(
    'on-dark',
    [
      'violet',
      'violet-hover',
      'danger',
      'danger-hover',
      'ink-violet',
      'cover',
      'cover-deep',
      'cover-red',
      'cover-green',
    ],
    TEXT,
    'buttons, the preview bar, text on covers',
  ),
  ...on(
    'on-ink',
    ['ink', 'ink-raised'],
    TEXT,
    'picked chips, the skip link, the navbar sign-up, a closed survey badge',
  ),
  ...on('on-alert', ['alert'], TEXT, 'the landscape alert'),
  ...on('on-amber', ['amber'], TEXT, 'the New badge'),
  ...on('danger-ink', ['paper', 'card', 'danger-bg'], TEXT, 'field errors, danger buttons'),
  ...on(
    'danger-ink-strong',
    ['danger-bg', 'danger-bg-strong'],
    TEXT,
    'error notices, the minority badge',
  ),
  ...on(
    'success-ink',
    ['success-bg', 'success-wash', 'card'],
    TEXT,
    'open badges, password rules, locked choices',
  ),
  ...on(
    'warning-ink',
    ['warning-bg', 'warning-wash', 'card', 'paper'],
    TEXT,
    'closed notices, timer warnings, unsaved changes',
  ),
  ...on('info-ink', ['info-bg'], TEXT, 'review notices, scheduled badges'),
  ...on('offline-ink', ['offline-bg'], TEXT, 'saved-on-this-device notices'),
  // Controls and graphs.
  ...on('focus', ['paper', 'card', 'sunken', 'violet-wash'], UI, 'the focus ring'),
  ...on('line-strong', ['card', 'paper'], UI, 'borders of inputs, chips and option cards'),
  ...on('danger', ['card'], UI, 'the border of a field with an error'),
  ...on('ink', ['card'], UI, 'a picked chip or genre'),
  ...on('violet', ['card'], UI, 'a picked rating, a picked answer'),
  ...on('violet-soft', ['track'], UI, "others' bars in a graph"),
  ...on(
    'violet-dark',
    ['track', 'line'],
    UI,
    'your bar in a graph, the mirror meter, question progress',
  ),
  ...on('violet-light', ['card'], UI, 'the analytics chart bars'),
  ...on('teal', ['line'], UI, 'the countdown bar'),
  ...on('coral', ['line'], UI, 'the countdown bar near its end'),
];

const palette = readPalette(globalCss);

describe.each([
  ['light', palette.light],
  ['dark', palette.dark],
] as const)('the %s palette', (_scheme, tokens) => {
  it.each(pairs.map((p) => [`${p.fg} on ${p.bg}`, p] as const))(
    '%s meets AA',
    (_name, { fg, bg, min, where }) => {
      const ratio = contrast(tokens[`--${fg}`]!, tokens[`--${bg}`]!);
      expect(
        Math.floor(ratio * 100) / 100,
        `${fg} on ${bg} (${where}): ${ratio.toFixed(2)}:1, needs ${min}:1`,
      ).toBeGreaterThanOrEqual(min);
    },
  );
});

describe('the palette', () => {
  it('names a colour for every token a pair uses, in both schemes', () => {
    for (const { fg, bg } of pairs) {
      for (const name of [fg, bg]) expect(palette.light[`--${name}`], name).toMatch(/^#/);
    }
  });

  it('changes nothing in the dark that the light palette lacks', () => {
    const missing = Object.keys(palette.darkOnly).filter((t) => !(t in palette.light));
    expect(missing).toEqual([]);
  });

  it('is dark in the dark: ink is light, the page and the cards are dark', () => {
    expect(contrast(palette.dark['--paper']!, '#000000')).toBeLessThan(1.3);
    expect(contrast(palette.dark['--card']!, '#000000')).toBeLessThan(1.5);
    expect(contrast(palette.dark['--ink']!, '#ffffff')).toBeLessThan(1.2);
  });

  it('lets the browser draw its own controls and scrollbars in either scheme', () => {
    expect(globalCss).toMatch(/:root\s*\{[^}]*color-scheme:\s*light dark;/);
  });
});

// The style sheets and components use the palette by name: a raw colour would stay the same in
// the dark (light on light, or dark on dark), and an unknown name draws nothing.
const files = Object.fromEntries(
  readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(css|tsx)$/.test(f) && !f.endsWith('.test.tsx'))
    .map((f) => [f, read(f)]),
);

describe('colours in the style sheets and components', () => {
  it('are tokens: no raw colour outside the palette blocks of global.css', () => {
    const raw: string[] = [];
    const literal = /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?)\(/gi;
    for (const [file, text] of Object.entries(files)) {
      const code = text
        .replace(/\/\*[\s\S]*?\*\//g, '')
        // The palette blocks themselves are where colours are written.
        .replace(/(?:^|\})\s*:root\s*\{[^}]*\}/, '}')
        .replace(/@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{[^}]*\}\s*\}/, '');
      for (const m of code.matchAll(literal)) raw.push(`${file}: ${m[0]}`);
    }
    expect(raw).toEqual([]);
  });

  it('name only tokens the palette defines', () => {
    const unknown: string[] = [];
    for (const [file, text] of Object.entries(files)) {
      for (const [, name = ''] of text.matchAll(/var\((--[\w-]+)/g)) {
        if (!(name in palette.light)) unknown.push(`${file}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
