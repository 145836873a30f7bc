// Whether a person's own answer is in the published numbers yet, and when it will be, in the
// same words on the graph, the outro and the mirror (issue 29: after a reload the survey said
// "You're with 26%" while the mirror said "joins at the next update").

/**
 * `counted`: in the numbers (or nothing says otherwise). `next-update`: given after the last
 * update, it joins at the next one. `under-review`: the account waits for a person's approval,
 * and its answers count only once approved. `not-counted`: a visitor's answer, kept in the
 * browser until they sign up.
 */
export type MineState = 'counted' | 'next-update' | 'under-review' | 'not-counted';

/**
 * Whether a member's answer is in published numbers taken at `snapshotAt` (they hold every
 * answer given before). When the page that sent the answer knows its time (`answeredAt`), that
 * decides. Else only its day is known (all the API keeps): numbers taken after that day hold it;
 * numbers taken before or during it are said not to, since an answer seen soon after it was
 * given most likely came after the last update. Neither known: nothing is claimed.
 */
export function memberState(
  snapshotAt: string | null,
  answeredAt: number | null,
  day: string | null,
): MineState {
  const taken = snapshotAt === null ? null : Date.parse(snapshotAt);
  if (answeredAt !== null) return taken === null || taken < answeredAt ? 'next-update' : 'counted';
  const dayEnd = day === null ? NaN : Date.parse(`${day}T00:00:00Z`) + 86_400_000;
  if (Number.isNaN(dayEnd)) return 'counted';
  return taken === null || taken < dayEnd ? 'next-update' : 'counted';
}

/** The state of the person's own answer, for every screen that shows it. */
export function ownState({
  member,
  underReview = false,
  snapshotAt,
  answeredAt,
  day,
}: {
  member: boolean;
  /** The account is under review: nothing of it counts before a person approves it. */
  underReview?: boolean;
  snapshotAt: string | null;
  answeredAt: number | null;
  day: string | null;
}): MineState {
  if (!member) return 'not-counted';
  if (underReview) return 'under-review';
  return memberState(snapshotAt, answeredAt, day);
}

/**
 * When the answer counts, in a few words beside it; null when it is counted. `nextUpdateAfter`
 * is the published threshold of the open period (`next_update_after`): the next update comes
 * once about that many answers arrived since the last one, the person's own among them, so
 * "within about N more" is honest without knowing how many came (that count is private).
 */
export function stateNote(state: MineState, nextUpdateAfter: number | null): string | null {
  switch (state) {
    case 'counted':
      return null;
    case 'next-update':
      return nextUpdateAfter !== null && nextUpdateAfter > 0
        ? `counts within about ${nextUpdateAfter.toLocaleString('en')} more answers`
        : 'counts at the next update';
    case 'under-review':
      return 'counts once your account is approved';
    case 'not-counted':
      return 'counts once you sign up';
  }
}

/** The longer sentence under a graph or list saying the same, with why (null when counted). */
export function stateExplained(
  state: MineState,
  nextUpdateAfter: number | null,
  plural = false,
): string | null {
  switch (state) {
    case 'counted':
      return null;
    case 'next-update':
      return `Results move in steps, so that no single answer can be picked out: ${
        plural ? 'your answers join' : 'yours joins'
      } at the next update, ${
        nextUpdateAfter !== null && nextUpdateAfter > 0
          ? `which comes within about ${nextUpdateAfter.toLocaleString('en')} more answers.`
          : 'when enough new answers have come in.'
      }`;
    case 'under-review':
      return 'Your account is waiting for a quick check by a person. Your answers count once it is approved.';
    case 'not-counted':
      return 'Your answers are not in these numbers yet: they count once you sign up, since only verified people are counted.';
  }
}
