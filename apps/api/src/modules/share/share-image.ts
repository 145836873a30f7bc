import sharp from 'sharp';

/** The Open Graph image's size: what Facebook, LinkedIn, X and Slack show best. */
export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;

/** The web app's palette (apps/web/src/styles/global.css tokens); an image has no CSS. */
const INK = '#14131a';
const PAPER = '#faf8f5';
const VIOLET = '#5b3df5';
const VIOLET_SOFT = '#a99cf7';

/**
 * The font the text is drawn in and measured for. DejaVu Sans comes with most Linux systems
 * (and sharp's fontconfig finds it); the widths below are its own, and the fallbacks are
 * narrower, so a line measured here never overflows when another font draws it.
 */
const FONT_FAMILY = "'DejaVu Sans', Verdana, Arial, Helvetica, sans-serif";

// Advance widths of printable ASCII (space to ~) in hundredths of an em, DejaVu Sans Bold and
// Book, read from the fonts' hmtx tables.
const BOLD_WIDTHS =
  '35 46 52 84 70 100 87 31 46 46 52 84 38 42 38 37 70 70 70 70 70 70 70 70 70 70 40 40 84 84 84 58 100 77 76 73 83 68 68 82 84 37 37 77 64 100 84 85 73 85 77 72 68 81 77 110 77 72 73 46 37 46 84 50 50 67 72 59 72 68 44 72 71 34 34 67 34 104 71 69 72 72 49 60 48 71 65 92 65 65 58 71 37 71 84';
const BOOK_WIDTHS =
  '32 40 46 84 64 95 78 27 39 39 50 84 32 34 32 34 64 64 64 64 64 64 64 64 64 64 34 34 84 84 84 53 100 68 69 70 77 63 58 77 75 29 29 66 56 86 75 79 60 79 69 63 61 73 68 99 69 61 69 39 34 39 84 50 50 61 63 55 63 62 35 63 63 28 28 58 28 97 63 61 63 63 41 52 39 63 59 82 59 59 52 64 34 64 84';
const table = (s: string) => s.split(' ').map((w) => Number(w) / 100);
const WIDTHS = { bold: table(BOLD_WIDTHS), book: table(BOOK_WIDTHS) };

/** About how wide `text` is in em at this weight: exact for ASCII, generous for the rest. */
export function textWidthEm(text: string, weight: 'bold' | 'book'): number {
  let em = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const known = code >= 32 && code < 127 ? WIDTHS[weight][code - 32] : undefined;
    // CJK, Hangul and other wide scripts and emoji take a full em; other letters about a wide one.
    em += known ?? (code >= 0x2e80 ? 1 : 0.8);
  }
  return em;
}

/**
 * Text as SVG character data: markup-significant characters escaped, and the characters XML 1.0
 * forbids (C0 controls) dropped, so a survey name can neither break the image nor add markup.
 */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- exactly the characters XML cannot hold
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** What a reader sees as characters: an emoji or an accented letter is never cut in two. */
const graphemes = (text: string): string[] =>
  Array.from(new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text), (g) => g.segment);

/**
 * Breaks `text` into at most `maxLines` lines of at most `maxEm` em, at spaces (a word longer
 * than a line is cut); whatever does not fit ends the last line with an ellipsis.
 */
export function wrapText(
  text: string,
  maxEm: number,
  maxLines: number,
  weight: 'bold' | 'book',
): { lines: string[]; truncated: boolean } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  const fits = (s: string) => textWidthEm(s, weight) <= maxEm;
  for (let word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) {
      lines.push(line);
      line = '';
      if (lines.length === maxLines)
        return { lines: ellipsize(lines, maxEm, weight), truncated: true };
    }
    // A word wider than a whole line: cut it where it reaches the edge.
    while (!fits(word)) {
      const chars = graphemes(word);
      let cut = chars.length - 1;
      while (cut > 1 && !fits(chars.slice(0, cut).join(''))) cut--;
      lines.push(chars.slice(0, cut).join(''));
      word = chars.slice(cut).join('');
      if (lines.length === maxLines)
        return { lines: ellipsize(lines, maxEm, weight), truncated: true };
    }
    line = word;
  }
  if (line) lines.push(line);
  return { lines, truncated: false };
}

/** The last line shortened until it holds an ellipsis too. */
function ellipsize(lines: string[], maxEm: number, weight: 'bold' | 'book'): string[] {
  const chars = graphemes(lines.at(-1)!);
  while (chars.length && textWidthEm(`${chars.join('').trimEnd()}…`, weight) > maxEm) chars.pop();
  return [...lines.slice(0, -1), `${chars.join('').trimEnd()}…`];
}

/** What the image says: the survey's public face only, never an answer or a result. */
export interface ShareImageContent {
  name: string;
  headline: string;
  questions: number;
  closed: boolean;
  /** The cover is drawn underneath: the text then sits on a dark veil over it. */
  withCover: boolean;
}

const LEFT = 72;
// Text never reaches the circle drawn on the right when there is no cover (it starts at 856).
const TEXT_WIDTH = 760;

/** The title at the largest size (72 down to 52 px) at which it fits in 3 lines. */
function titleLayout(name: string) {
  for (const size of [72, 64, 58]) {
    const wrapped = wrapText(name, TEXT_WIDTH / size, 3, 'bold');
    if (!wrapped.truncated) return { size, lines: wrapped.lines };
  }
  return { size: 52, lines: wrapText(name, TEXT_WIDTH / 52, 3, 'bold').lines };
}

/** `<text>` with one `<tspan>` a line. */
function textBlock(
  lines: string[],
  {
    y,
    size,
    lineHeight,
    weight,
    fill,
    opacity = 1,
  }: {
    y: number;
    size: number;
    lineHeight: number;
    weight: 'bold' | 'book';
    fill: string;
    opacity?: number;
  },
): string {
  const spans = lines
    .map((l, i) => `<tspan x="${LEFT}" y="${y + i * lineHeight}">${escapeXml(l)}</tspan>`)
    .join('');
  return (
    `<text font-family="${FONT_FAMILY}" font-size="${size}" font-weight="${weight === 'bold' ? 700 : 400}" ` +
    `fill="${fill}"${opacity < 1 ? ` fill-opacity="${opacity}"` : ''}>${spans}</text>`
  );
}

/**
 * The share image as SVG (1200x630): the Candor mark and name, the survey's name and headline,
 * its question count, and an invitation. Over a cover it is drawn on a dark veil; without one,
 * on the brand's ink with the mark's half-lit circle, large, on the right.
 */
export function shareImageSvg(content: ShareImageContent): string {
  const W = SHARE_IMAGE_WIDTH;
  const H = SHARE_IMAGE_HEIGHT;
  const title = titleLayout(content.name);
  const titleLine = Math.round(title.size * 1.12);
  const headline = content.headline.trim()
    ? wrapText(content.headline, TEXT_WIDTH / 30, 2, 'book').lines
    : [];
  // The title and headline, centred in the band between the header and the footer.
  const blockHeight =
    title.lines.length * titleLine + (headline.length ? 20 + headline.length * 40 : 0);
  const top = 150 + Math.max(0, (360 - blockHeight) / 2);
  const titleY = Math.round(top + title.size * 0.9);
  const headlineY = titleY + (title.lines.length - 1) * titleLine + 20 + 40;

  const count = `${content.questions} ${content.questions === 1 ? 'question' : 'questions'}`;
  const pillWidth = Math.ceil(textWidthEm(count, 'bold') * 26) + 44;
  const invitation = content.closed
    ? 'Closed: see how people answered'
    : 'Answer anonymously, see where you stand';

  const background = content.withCover
    ? // A veil dark enough for white text at any point of any cover (about 12:1 at its lightest).
      `<defs><linearGradient id="veil" x1="0" y1="0" x2="1" y2="0.35">` +
      `<stop offset="0" stop-color="${INK}" stop-opacity="0.94"/>` +
      `<stop offset="0.62" stop-color="${INK}" stop-opacity="0.82"/>` +
      `<stop offset="1" stop-color="${INK}" stop-opacity="0.5"/></linearGradient></defs>` +
      `<rect width="${W}" height="${H}" fill="url(#veil)"/>`
    : `<rect width="${W}" height="${H}" fill="${INK}"/>` +
      `<circle cx="1090" cy="315" r="210" fill="none" stroke="${PAPER}" stroke-opacity="0.14" stroke-width="48"/>` +
      `<path d="M1090 105a210 210 0 0 1 0 420z" fill="${VIOLET}"/>`;

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    background +
    // The mark, as in the app's navbar, and the name.
    `<g transform="translate(${LEFT} 56)"><rect width="56" height="56" rx="12" fill="${PAPER}"/>` +
    `<circle cx="28" cy="28" r="15" fill="none" stroke="${INK}" stroke-width="5.25"/>` +
    `<path d="M28 13a15 15 0 0 1 0 30z" fill="${VIOLET}"/></g>` +
    `<text x="${LEFT + 76}" y="96" font-family="${FONT_FAMILY}" font-size="36" font-weight="700" fill="${PAPER}">Candor</text>` +
    textBlock(title.lines, {
      y: titleY,
      size: title.size,
      lineHeight: titleLine,
      weight: 'bold',
      fill: PAPER,
    }) +
    (headline.length
      ? textBlock(headline, {
          y: headlineY,
          size: 30,
          lineHeight: 40,
          weight: 'book',
          fill: PAPER,
          opacity: 0.82,
        })
      : '') +
    `<rect x="${LEFT}" y="524" width="${pillWidth}" height="52" rx="26" fill="${VIOLET}"/>` +
    `<text x="${LEFT + 22}" y="559" font-family="${FONT_FAMILY}" font-size="26" font-weight="700" fill="${PAPER}">${count}</text>` +
    `<text x="${LEFT + pillWidth + 24}" y="559" font-family="${FONT_FAMILY}" font-size="26" fill="${content.withCover ? PAPER : VIOLET_SOFT}">${escapeXml(invitation)}</text>` +
    `</svg>`
  );
}

/** Decoding a cover is refused past this (a small file can hold a huge image). */
const MAX_COVER_PIXELS = 40_000_000;

/**
 * The share image as PNG: the SVG rasterised by sharp (librsvg), over the cover when there is one
 * (scaled to fill, centred). A cover that cannot be read is left out rather than failing.
 */
export async function renderShareImage(
  content: Omit<ShareImageContent, 'withCover'>,
  cover: Buffer | null,
): Promise<Buffer> {
  const size = { width: SHARE_IMAGE_WIDTH, height: SHARE_IMAGE_HEIGHT };
  let base: Buffer | null = null;
  if (cover) {
    base = await sharp(cover, { limitInputPixels: MAX_COVER_PIXELS, failOn: 'error' })
      .resize({ ...size, fit: 'cover', position: 'centre' })
      .removeAlpha()
      .toBuffer()
      .catch(() => null);
  }
  const svg = Buffer.from(shareImageSvg({ ...content, withCover: base !== null }));
  const image = base
    ? sharp(base).composite([{ input: svg, top: 0, left: 0 }])
    : sharp(svg, { density: 72 });
  return image.png({ compressionLevel: 9, palette: false }).toBuffer();
}
