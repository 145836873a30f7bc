import type { CardModel } from './card-model';

/** The card's width in pixels: what story and feed formats take at full size. */
export const CARD_WIDTH = 1080;
const PAD = 80;
const INNER = CARD_WIDTH - 2 * PAD;

type Paint = (ctx: CanvasRenderingContext2D) => void;

/** The app's tokens as the page has them now (so the card follows the theme). */
function tokens() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim();
  return {
    paper: v('--paper'),
    card: v('--card'),
    ink: v('--ink'),
    soft: v('--ink-soft'),
    muted: v('--ink-muted'),
    violet: v('--violet'),
    violetDark: v('--violet-dark'),
    violetSoft: v('--violet-soft'),
    track: v('--track'),
    line: v('--line'),
    hatch: v('--hatch'),
    onDark: v('--on-dark'),
    font: v('--font') || 'sans-serif',
  };
}

/** Lines of at most `width` px at the context's font, at most `max` of them (then an ellipsis). */
function wrap(ctx: CanvasRenderingContext2D, text: string, width: number, max: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  const fits = (s: string) => ctx.measureText(s).width <= width;
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (fits(next) || !line) {
      line = next;
      continue;
    }
    lines.push(line);
    line = word;
  }
  if (line) lines.push(line);
  // A single word wider than the line is squeezed by fillText's maxWidth when drawn.
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  let last = kept[max - 1]!;
  while (last && !fits(`${last}…`)) last = last.slice(0, -1).trimEnd();
  kept[max - 1] = `${last}…`;
  return kept;
}

/**
 * Draws the result card on a canvas and returns it as a PNG. Everything drawn comes from the
 * model: the published shares of one question, and the sharer's answer only when the model
 * carries it (they ticked the box).
 */
export async function drawCard(model: CardModel): Promise<Blob> {
  const t = tokens();
  const canvas = document.createElement('canvas');
  canvas.width = CARD_WIDTH;
  canvas.height = 10;
  const measure = canvas.getContext('2d');
  if (!measure) throw new Error('No 2D canvas in this browser');
  const font = (weight: number, px: number) => `${weight} ${px}px ${t.font}`;
  const paints: Paint[] = [];
  let y = PAD;
  /** Up to three wrapped lines of text from `top`, in one weight, size and colour; its bottom. */
  const paragraph = (
    text: string,
    weight: number,
    px: number,
    line: number,
    color: string,
    top: number,
  ) => {
    measure.font = font(weight, px);
    const lines = wrap(measure, text, INNER, 3);
    paints.push((ctx) => {
      ctx.fillStyle = color;
      ctx.font = font(weight, px);
      lines.forEach((l, i) => ctx.fillText(l, PAD, top + px + i * line, INNER));
    });
    return top + lines.length * line;
  };

  // The mark and the name, as in the navbar.
  paints.push((ctx) => {
    ctx.fillStyle = t.ink;
    ctx.beginPath();
    ctx.roundRect(PAD, PAD, 64, 64, 14);
    ctx.fill();
    ctx.strokeStyle = t.paper;
    ctx.lineWidth = 6;
    ctx.beginPath();
    ctx.arc(PAD + 32, PAD + 32, 17, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fillStyle = t.violet;
    ctx.beginPath();
    ctx.arc(PAD + 32, PAD + 32, 17, -Math.PI / 2, Math.PI / 2);
    ctx.fill();
    ctx.fillStyle = t.ink;
    ctx.font = font(750, 40);
    ctx.textBaseline = 'middle';
    ctx.fillText('Candor', PAD + 84, PAD + 34);
    ctx.textBaseline = 'alphabetic';
  });
  y += 64 + 56;

  // The survey's name, small, then the question, as large as fits in five lines.
  measure.font = font(650, 28);
  const [surveyLine = ''] = wrap(measure, model.survey, INNER, 1);
  const surveyY = y + 28;
  paints.push((ctx) => {
    ctx.fillStyle = t.muted;
    ctx.font = font(650, 28);
    ctx.fillText(surveyLine, PAD, surveyY);
  });
  y += 28 + 24;

  let size = 60;
  let question: string[] = [];
  for (; size >= 40; size -= 4) {
    measure.font = font(750, size);
    question = wrap(measure, model.question, INNER, 99);
    if (question.length <= 5) break;
  }
  measure.font = font(750, size);
  question = wrap(measure, model.question, INNER, 6);
  const questionSize = size;
  const questionLine = Math.round(size * 1.18);
  const questionY = y + size;
  paints.push((ctx) => {
    ctx.fillStyle = t.ink;
    ctx.font = font(750, questionSize);
    question.forEach((l, i) => ctx.fillText(l, PAD, questionY + i * questionLine, INNER));
  });
  y += question.length * questionLine + 16;

  if (model.headline) y = paragraph(model.headline, 500, 36, 46, t.soft, y) + 12;
  y += 40;

  // A bar per choice: its name and share above, the bar below; the sharer's own (when shown)
  // in full violet with "my answer", the others lighter.
  for (const row of model.rows) {
    const value = row.text;
    measure.font = font(750, 36);
    const valueWidth = measure.measureText(value).width;
    measure.font = font(row.mine ? 750 : 600, 32);
    const label = wrap(
      measure,
      row.mine ? `${row.label} · my answer` : row.label,
      INNER - valueWidth - 32,
      2,
    );
    const top = y;
    paints.push((ctx) => {
      ctx.font = font(row.mine ? 750 : 600, 32);
      ctx.fillStyle = row.mine ? t.violetDark : t.ink;
      label.forEach((l, i) => ctx.fillText(l, PAD, top + 32 + i * 40, INNER - valueWidth - 32));
      ctx.font = font(750, 36);
      ctx.fillStyle = row.percent === null ? t.muted : t.ink;
      ctx.textAlign = 'right';
      ctx.fillText(value, PAD + INNER, top + 34);
      ctx.textAlign = 'left';
      const barY = top + label.length * 40 + 14;
      ctx.fillStyle = t.track;
      ctx.beginPath();
      ctx.roundRect(PAD, barY, INNER, 28, 14);
      ctx.fill();
      if (row.percent === null) {
        // Hidden: a dashed outline, never an empty bar that would read as 0%.
        ctx.strokeStyle = t.hatch;
        ctx.lineWidth = 2;
        ctx.setLineDash([10, 8]);
        ctx.beginPath();
        ctx.roundRect(PAD + 1, barY + 1, INNER - 2, 26, 13);
        ctx.stroke();
        ctx.setLineDash([]);
      } else if (row.percent > 0) {
        const muted = model.showsMine && !row.mine;
        ctx.fillStyle = muted ? t.violetSoft : t.violet;
        ctx.beginPath();
        ctx.roundRect(PAD, barY, Math.max(28, (INNER * row.percent) / 100), 28, 14);
        ctx.fill();
      }
    });
    y += label.length * 40 + 14 + 28 + 34;
  }

  // The honesty gap (decision 029): the two ways of asking compared, in violet.
  if (model.gap) y = paragraph(model.gap, 650, 30, 40, t.violetDark, y) + 24;

  // What the numbers are, and where to answer.
  y += 14;
  measure.font = font(500, 26);
  const footnote = wrap(measure, model.footnote, INNER, 2);
  const footY = y + 26;
  paints.push((ctx) => {
    ctx.strokeStyle = t.line;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(PAD, footY - 50);
    ctx.lineTo(PAD + INNER, footY - 50);
    ctx.stroke();
    ctx.fillStyle = t.muted;
    ctx.font = font(500, 26);
    footnote.forEach((l, i) => ctx.fillText(l, PAD, footY + i * 34, INNER));
  });
  y += footnote.length * 34 + 20;
  const callY = y + 32;
  paints.push((ctx) => {
    ctx.fillStyle = t.violetDark;
    ctx.font = font(750, 32);
    ctx.fillText(`Where do you stand? Answer at ${model.site}`, PAD, callY, INNER);
  });
  y += 32 + PAD;

  canvas.height = Math.max(CARD_WIDTH, Math.ceil(y));
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = t.paper;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = t.violet;
  ctx.fillRect(0, 0, canvas.width, 14);
  // A short card sits in the middle of the square.
  ctx.translate(0, Math.floor((canvas.height - y) / 2));
  for (const paint of paints) paint(ctx);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The card could not be drawn'))),
      'image/png',
    ),
  );
}
