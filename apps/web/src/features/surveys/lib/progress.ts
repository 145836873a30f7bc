import { type TimedQuestion, surveyMinutes } from '@candor/contracts';

/**
 * Where the person on this device stands with a survey: untouched (`new`), part answered
 * (`continue`, with how many of how many), or every question answered (`done`). Null until the
 * device's records are read: the brick then says nothing rather than guess.
 */
export type SurveyProgress =
  { kind: 'new' } | { kind: 'continue'; answered: number; total: number } | { kind: 'done' };

/** A survey's progress from the qids answered on this device (only its current questions count). */
export function progressOf(
  questions: ReadonlyArray<{ qid: string }>,
  answered: ReadonlySet<string> | undefined,
): SurveyProgress {
  const total = questions.length;
  const count = answered ? questions.filter((q) => answered.has(q.qid)).length : 0;
  if (count === 0) return { kind: 'new' };
  if (count >= total) return { kind: 'done' };
  return { kind: 'continue', answered: count, total };
}

/** What the brick's badge says, and what a screen reader hears for it. */
export function progressLabel(
  progress: SurveyProgress,
  closed: boolean,
): { text: string; spoken: string } | null {
  switch (progress.kind) {
    case 'new':
      // A closed survey takes no answers: "New" would invite what it cannot take.
      return closed ? null : { text: 'New', spoken: 'New to you' };
    case 'done':
      return { text: 'Done', spoken: 'Done: you answered every question' };
    case 'continue': {
      const { answered, total } = progress;
      return closed
        ? {
            text: `${answered}/${total} answered`,
            spoken: `You answered ${answered} of ${total}`,
          }
        : {
            text: `Continue ${answered}/${total}`,
            spoken: `Continue: ${answered} of ${total} answered`,
          };
    }
  }
}

/**
 * "about 8 min" for a survey not started (or before the device is read), "about 5 min left" for
 * the questions still to answer; null for a closed survey (results only) or a finished one.
 */
export function timeLabel(
  questions: ReadonlyArray<TimedQuestion & { qid: string }>,
  answered: ReadonlySet<string> | undefined,
  closed: boolean,
): string | null {
  if (closed || questions.length === 0) return null;
  const left = answered ? questions.filter((q) => !answered.has(q.qid)) : questions;
  if (left.length === 0) return null;
  const minutes = surveyMinutes(left);
  return left.length < questions.length ? `about ${minutes} min left` : `about ${minutes} min`;
}

/** "About 1,240 people answered" from the published number; null while there is none. */
export function peopleLabel(respondents: number | null): string | null {
  if (respondents === null || respondents <= 0) return null;
  return `About ${respondents.toLocaleString('en-US')} ${respondents === 1 ? 'person' : 'people'} answered`;
}
