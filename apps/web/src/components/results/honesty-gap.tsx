import type { GapChoice, HonestyGapResult } from '@candor/contracts';

/**
 * The honesty gap in words (decision 029): a question asked directly and, of other people
 * drawn at random, with randomized response. A gap is said only where its 95% interval leaves
 * out 0; otherwise the two ways of asking agree within their margins.
 */

export const NO_CLEAR_GAP = 'No clear gap: the two ways of asking agree within their margins.';

const points = (n: number) => {
  const whole = Math.round(Math.abs(n));
  return whole === 0 ? 'under 1 point' : `about ${whole} ${whole === 1 ? 'point' : 'points'}`;
};

/** "When nobody can know, about 8 points more say “Yes” (3 to 13)." */
function clearLine(c: GapChoice): string {
  const more = c.points! > 0;
  const [low, high] = more ? [c.low!, c.high!] : [-c.high!, -c.low!];
  return `When nobody can know, ${points(c.points!)} ${more ? 'more' : 'fewer'} say “${c.choice}” (${Math.round(low)} to ${Math.round(high)}).`;
}

/**
 * Each answer's clear gap, largest first, or the single "no clear gap" line; null while either
 * question's shares are not published yet.
 */
export function gapLines(gap: HonestyGapResult): string[] | null {
  if (gap.choices.length === 0 || gap.choices.some((c) => c.points === null)) return null;
  // With two answers one gap is the other's mirror ("8 more say Yes" is "8 fewer say No"): the
  // answer more people give when nobody can know is said, once.
  const clear = gap.choices
    .filter((c) => c.clear && (gap.choices.length !== 2 || c.points! > 0))
    .sort((a, b) => Math.abs(b.points!) - Math.abs(a.points!));
  return clear.length ? clear.map(clearLine) : [NO_CLEAR_GAP];
}

/** Who each way of asking counts, in the words the graphs use. */
export function gapBase(gap: HonestyGapResult): string {
  const about = (n: number | null) =>
    n === null ? 'too few yet' : `about ${n.toLocaleString('en')}`;
  return `Asked directly of ${about(gap.direct_respondents)} verified people; with randomized response, of ${about(gap.randomized_respondents)}. Each person was asked one way, drawn at random on their phone.`;
}

/** The gap under a graph of either question of the pair. */
export function HonestyGap({ gap }: { gap: HonestyGapResult }) {
  const lines = gapLines(gap);
  return (
    <section className="honesty-gap" aria-label="The honesty gap">
      <p className="honesty-gap__title">The honesty gap</p>
      {lines ? (
        lines.map((line) => (
          <p key={line} className="honesty-gap__line">
            {line}
          </p>
        ))
      ) : (
        <p className="honesty-gap__line">
          Shown once both ways of asking have enough answers to compare.
        </p>
      )}
      <p className="honesty-gap__base">{gapBase(gap)}</p>
    </section>
  );
}
