// What a question with no graph yet says (issue 31, point 4; decision 034): its way to a first
// graph, from public facts only. How many updates it has had and the threshold of the next one
// (`next_update_after`, a function of that number alone) are published already; a count of the
// answers so far is not, and is never shown, not even as "12 of about 20".
import type { MineState } from './own-answer';

const n = (x: number) => x.toLocaleString('en');

/** A closed survey takes no more answers: no update is coming to promise. */
export const CLOSED_WITHOUT_GRAPH =
  'Too few verified people answered this question to show its results safely.';

/** Under a graph's title, in place of the bars (`closed`: its survey takes no more answers). */
export function firstGraphText(updates: number, nextUpdateAfter: number, closed = false): string {
  if (closed) return CLOSED_WITHOUT_GRAPH;
  return updates === 0
    ? `No graph yet. The first one appears once about ${n(nextUpdateAfter)} verified people have answered, and every number is blurred a little so nobody’s answer can be worked out.`
    : `No graph yet: too few verified people so far to show one safely. The next update comes within about ${n(nextUpdateAfter)} more answers.`;
}

/**
 * The same in a line, beside one answer (the outro's standings, the list, the mirror). "The next
 * update" holds before the first one too (it comes once about 20 have answered), and after
 * updates too few to show.
 */
export const firstGraphShort = (nextUpdateAfter: number | null, closed = false) =>
  closed
    ? 'Too few answered to show'
    : nextUpdateAfter !== null && nextUpdateAfter > 0
      ? `No results yet: the next update comes within about ${n(nextUpdateAfter)} answers`
      : 'No results yet';

/**
 * Where the person's own answer stands while there is no graph. "Yours is in" only when this
 * device knows the API took it (`sent`): the device never asks the server about its answers. A
 * visitor's answer counts once they sign up, an account under review's once it is approved.
 */
export function yoursBeforeGraph(state: MineState, sent: boolean | null): string | null {
  switch (state) {
    case 'not-counted':
      return 'Yours counts once you sign up.';
    case 'under-review':
      return 'Yours counts once your account is approved.';
    default:
      if (sent === null) return null;
      return sent
        ? 'Yours is in.'
        : 'Yours is kept on this device and is sent as soon as it can be.';
  }
}
