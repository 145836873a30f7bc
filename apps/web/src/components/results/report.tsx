// The end results of a survey read as one report (issue 30, point 4): what its numbers mean is
// said once for the page, and a long survey is a list of rows, each opening its graph in place.
import type { Question, QuestionResults } from '@candor/contracts';
import { firstGraphShort } from './first-graph';
import { type MineState, stateExplained } from './own-answer';
import {
  APPROXIMATE,
  HIDDEN_SHARE,
  NEARLY_EVERYONE,
  UNDER_NOISE,
  headlineOf,
} from './question-graph';
import { withinNoise } from './shares';

/**
 * Up to this many questions the end results show every graph at once; more make a list of rows
 * whose graphs open in place (decision 007, 2026-11-27). Four graphs fill about two phone
 * screens; the seeded surveys of 5 or more questions took 4,000 to 27,000 px with every graph.
 */
export const DIRECT_GRAPHS_UP_TO = 4;

/** Whether a survey of `count` questions gets the compact list. */
export const compactReport = (count: number) => count > DIRECT_GRAPHS_UP_TO;

/** The person's own answer, as the row says it. */
export function ownAnswerText(mine: { answer: string; isBlank: boolean } | null): string {
  if (!mine) return 'Not answered';
  return mine.isBlank ? 'Left blank' : mine.answer;
}

/**
 * The row's one line about everyone: the graph's headline for a closed question (where the
 * person stands, or which answer leads, ranked only as far as the margins allow), how many
 * wrote for an open one, or why there is nothing to show yet.
 */
export function rowSummary(
  question: Pick<Question, 'type'>,
  results: QuestionResults,
  mine: string | null,
  state: MineState,
  /** The survey is closed: no update is coming. */
  closed = false,
): string {
  if (results.respondents === null) return firstGraphShort(results.next_update_after, closed);
  if (question.type !== 'Closed') {
    const wrote = results.blank === null ? null : results.respondents - results.blank;
    const n = wrote ?? results.respondents;
    return `About ${n.toLocaleString('en')} ${n === 1 ? 'person' : 'people'} ${wrote === null ? 'answered' : 'wrote an answer'}`;
  }
  if (results.dominated) return NEARLY_EVERYONE.split('. ')[0]!.replace(/\.$/, '');
  const headline = headlineOf(
    results.choices
      .filter((c) => !c.is_blank)
      .map((c) => ({
        label: c.choice,
        percent: c.percent,
        margin: c.margin,
        mine: c.choice === mine,
      })),
    state,
  );
  return headline ?? 'Every share is hidden to protect privacy';
}

/** Which marks the graphs of the page draw, so the page explains each one it uses. */
export function pageMarks(all: QuestionResults[]): { under: boolean; hidden: boolean } {
  const rows = all
    .filter((r) => r.type === 'Closed' && r.respondents !== null && !r.dominated)
    .flatMap((r) => r.choices);
  return {
    under: rows.some((c) => c.percent !== null && withinNoise(c.percent, c.margin)),
    hidden: rows.some((c) => c.percent === null),
  };
}

/**
 * "Results move in steps…", once for the page: one sentence per way the person's answers wait
 * (the largest next update named, "within about", as the outro's list does). A visitor's wait
 * is said by the page's lead, and counted answers need no sentence.
 */
export function waitingNotes(
  states: Array<{ state: MineState; nextUpdateAfter: number | null }>,
): string[] {
  const after = new Map<MineState, number>();
  for (const s of states) {
    if (s.state === 'counted' || s.state === 'not-counted') continue;
    after.set(s.state, Math.max(after.get(s.state) ?? 0, s.nextUpdateAfter ?? 0));
  }
  return [...after].flatMap(([state, n]) => stateExplained(state, n || null, true) ?? []);
}

/** What the numbers of every graph on the page mean, said once above them. */
export function ReportNotes({
  under,
  hidden,
  waiting,
}: {
  under: boolean;
  hidden: boolean;
  waiting: string[];
}) {
  return (
    <ul className="graph__notes report-notes" aria-label="About these numbers">
      <li className="graph__note">
        <span className="graph__mark" aria-hidden="true">
          ≈
        </span>
        <span>
          {APPROXIMATE} Each graph says how close its own shares are (“±N points”, 95 times in 100),
          drawn as the shaded band on each bar.
        </span>
      </li>
      {under ? (
        <li className="graph__note">
          <span className="graph__mark" aria-hidden="true">
            &lt;
          </span>
          <span>{UNDER_NOISE}</span>
        </li>
      ) : null}
      {hidden ? (
        <li className="graph__note">
          <span className="graph__mark graph__mark--hidden" aria-hidden="true" />
          <span>{HIDDEN_SHARE}</span>
        </li>
      ) : null}
      {waiting.map((w) => (
        <li key={w} className="graph__note report-notes__waiting">
          <span className="graph__mark" aria-hidden="true">
            ↻
          </span>
          <span>{w}</span>
        </li>
      ))}
    </ul>
  );
}
