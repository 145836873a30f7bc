// WCAG 2.x contrast, for the tests of the palette: relative luminance of sRGB colours and the
// ratio between two of them (https://www.w3.org/TR/WCAG22/#dfn-relative-luminance).

/** A colour as written in the tokens, #rgb or #rrggbb, as 0..255 channels. */
export function parseHex(color: string): [number, number, number] {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())?.[1];
  if (!hex) throw new Error(`Not a #rgb or #rrggbb colour: ${color}`);
  const full = hex.length === 3 ? hex.replace(/./g, '$&$&') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/** One sRGB channel (0..255) in linear light. */
function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance: 0 for black, 1 for white. */
export function luminance(color: string): number {
  const [r, g, b] = parseHex(color).map(linear) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio of two colours, 1 (none) to 21 (black on white), whichever is lighter. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The custom properties declared in a block of declarations (comments already removed). */
function declarations(block: string): Record<string, string> {
  const tokens: Record<string, string> = {};
  for (const m of block.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) tokens[m[1]!] = m[2]!.trim();
  return tokens;
}

/**
 * The palette of a style sheet in each scheme: the top-level `:root` block, and that block with
 * the `:root` inside `@media (prefers-color-scheme: dark)` laid over it.
 */
export function readPalette(css: string): {
  light: Record<string, string>;
  dark: Record<string, string>;
  darkOnly: Record<string, string>;
} {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const media = /@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}\s*\}/.exec(
    text,
  );
  const root = /(?:^|\})\s*:root\s*\{([^}]*)\}/.exec(text);
  if (!root) throw new Error('No top-level :root block');
  if (!media) throw new Error('No :root block inside @media (prefers-color-scheme: dark)');
  const light = declarations(root[1]!);
  const darkOnly = declarations(media[1]!);
  return { light, dark: { ...light, ...darkOnly }, darkOnly };
}
