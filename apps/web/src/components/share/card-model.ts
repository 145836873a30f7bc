import type { QuestionResults } from '@candor/contracts';
import { headlineOf } from '../results/question-graph';
import { gapLines } from '../results/honesty-gap';
import { clearlyFew, shareText, withinNoise } from '../results/shares';

/** One bar of the card: a choice and its published share (null when hidden for privacy). */
export interface CardRow {
  label: string;
  percent: number | null;
  /** The share as every screen says it: "57%", "under about 4%" inside its noise, "hidden". */
  text: string;
  /** The sharer's own answer, marked only when they chose to show it. */
  mine: boolean;
}

/** Everything a result card shows, and nothing else: drawn as is, and described in its alt. */
export interface CardModel {
  survey: string;
  question: string;
  headline: string | null;
  rows: CardRow[];
  /**
   * The honesty gap's line on either question of a pair (decision 029): "When nobody can know,
   * about 8 points more say “Yes” (3 to 13)." or "No clear gap…"; null for most questions.
   */
  gap: string | null;
  /** "about 1,240 verified people · each share ±3 points · blurred for privacy" */
  footnote: string;
  /** Where people can answer too: the site's address, not the survey's full link. */
  site: string;
  /** Whether the card shows the sharer's answer (only when they ticked the box). */
  showsMine: boolean;
  /** The card in words: its image's alt text. */
  alt: string;
}

/**
 * Whether a question's published results make a card: a closed question whose split is shown
 * (enough people, not one answer by nearly everyone) with at least one share not hidden.
 */
export function canMakeCard(results: QuestionResults): boolean {
  return (
    results.type === 'Closed' &&
    results.respondents !== null &&
    !results.dominated &&
    results.choices.some((c) => !c.is_blank && c.percent !== null)
  );
}

/**
 * What the card of one question says, from its published (noisy) numbers only. By default it
 * says nothing of the sharer: their answer is not marked, and the headline speaks of everyone.
 * With `showMine` (the person's own choice, in the page only), their row is marked and the
 * headline says what they chose. Nothing of this leaves the browser unless they share the image.
 */
export function cardModel({
  survey,
  question,
  results,
  mine,
  showMine,
  site,
}: {
  survey: string;
  question: string;
  results: QuestionResults;
  /** The person's own answer ('' when left blank), or null. */
  mine: string | null;
  showMine: boolean;
  site: string;
}): CardModel {
  const answered = results.choices.filter((c) => !c.is_blank);
  const shown = showMine && mine !== null && answered.some((c) => c.choice === mine);
  // Left blank is a row like the others (never the sharer's), so the card adds up to 100%.
  const rows: CardRow[] = [...answered, ...results.choices.filter((c) => c.is_blank)].map((c) => ({
    label: c.is_blank ? 'Left blank' : c.choice,
    percent: c.percent,
    text: shareText(c.percent, c.margin),
    mine: shown && !c.is_blank && c.choice === mine,
  }));
  const margins = results.choices.flatMap((c) => (c.margin === null ? [] : [c.margin]));
  const margin = margins.length ? Math.max(1, Math.round(Math.max(...margins))) : null;
  const n = results.respondents ?? 0;
  // A randomized-response question's shares are estimates: the card says so (decision 028).
  const estimated = results.rr_weight !== null;
  const footnote =
    `about ${n.toLocaleString('en')} verified people` +
    (estimated ? ' · estimated from randomized answers' : '') +
    (margin !== null
      ? ` · each share ±${margin} points · blurred for privacy`
      : ' · blurred for privacy');
  const own = rows.find((r) => r.mine);
  const ownMargin = own ? (answered.find((c) => c.choice === own.label)?.margin ?? null) : null;
  const headline = own
    ? own.percent !== null
      ? clearlyFew(own.percent, ownMargin)
        ? `I chose “${own.label}”, like very few people (${own.text}).`
        : withinNoise(own.percent, ownMargin)
          ? `I chose “${own.label}”: too soon to tell how many did (${own.text}).`
          : `I chose “${own.label}”, like ${own.text} of people.`
      : `I chose “${own.label}”.`
    : // Everyone's headline: the sharer's answer plays no part in it.
      headlineOf(
        answered.map((c) => ({
          label: c.choice,
          percent: c.percent,
          margin: c.margin,
          mine: false,
        })),
      );
  const gap = results.honesty_gap ? (gapLines(results.honesty_gap)?.[0] ?? null) : null;
  const described = rows
    .map((r) => `${r.label}: ${r.text}${r.mine ? ' (my answer)' : ''}`)
    .join('; ');
  const alt =
    `Result card from Candor. ${question} ${described}.${gap ? ` ${gap}` : ''} ${footnote}.` +
    (own ? ` My answer: ${own.label}.` : ' My answer is not on the card.');
  return { survey, question, headline, rows, gap, footnote, site, showsMine: shown, alt };
}
