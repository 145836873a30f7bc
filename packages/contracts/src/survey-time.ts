// How long a survey takes, as the home page's bricks say it ("About 4 min"). One rule for the
// server's drawing of the home page and the web app (decision 007, 2026-11-27). No zod here:
// the web app imports it on its first visit.

/** What the estimate reads of a question (a survey list's or a survey's). */
export interface TimedQuestion {
  type: 'Closed' | 'Open';
  /** `H:MM:SS`; `0:00:00` means no timer. */
  timer_length: string;
  video_link_1: string | null;
  video_link_2: string | null;
}

/**
 * Seconds per step, chosen from the sample surveys tried at 390x844 and kept round: reading a
 * closed question and choosing (with a glance at the rating), writing a short answer, a glance
 * at the graph after each answer (instant-feedback surveys) or at all of them at the end, and a
 * video whose length the list does not know (most of Candor's clips are under a minute).
 */
export const SURVEY_TIME = {
  closed: 12,
  open: 45,
  graph: 6,
  video: 45,
} as const;

/** Seconds of an `H:MM:SS` timer; 0 for none or a malformed one. */
export function timerSeconds(timer: string): number {
  const m = /^(\d+):([0-5]\d):([0-5]\d)$/.exec(timer);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : 0;
}

/**
 * About how many seconds answering `questions` takes: per question, its videos, then reading and
 * answering (never more than its timer, which starts once the videos have played), then a
 * glance at its graph (shown after it, or at the end: the same glance either way).
 */
export function surveySeconds(questions: readonly TimedQuestion[]): number {
  let total = 0;
  for (const q of questions) {
    const videos = (q.video_link_1 ? 1 : 0) + (q.video_link_2 ? 1 : 0);
    const answering = q.type === 'Open' ? SURVEY_TIME.open : SURVEY_TIME.closed;
    const timer = timerSeconds(q.timer_length);
    total +=
      videos * SURVEY_TIME.video +
      (timer > 0 ? Math.min(timer, answering) : answering) +
      SURVEY_TIME.graph;
  }
  return total;
}

/** Whole minutes, at least 1 (a survey with questions never takes "0 min"); 0 for none. */
export function surveyMinutes(questions: readonly TimedQuestion[]): number {
  if (questions.length === 0) return 0;
  return Math.max(1, Math.round(surveySeconds(questions) / 60));
}
