import type { Question, SurveyDetail } from '@candor/contracts';
import { useQueries, useQuery } from '@tanstack/react-query';
import { ownState, stateExplained } from '../../../components/results/own-answer';
import { type Standing, standingOf, standingOfMirror } from '../../../components/results/standing';
import {
  StandingShare,
  UNUSUAL_COUNT,
  UnusualAnswers,
  hasShare,
} from '../../../components/results/unusual-answers';
import { mirrorQuery } from '../../../lib/mirror-query';
import { answeringQueries } from '../api/answers';
import type { Mine } from '../types';

interface Input {
  survey: SurveyDetail;
  questions: Question[];
  mine: Map<string, Mine>;
  member: boolean;
  /** The member's account waits for approval: none of their answers counts yet. */
  underReview?: boolean;
  /** When each answer of this page was given (ms), by qid: later than a snapshot, not in it. */
  answeredAt: Record<string, number>;
}

/**
 * The person's answers of this survey against everyone's, by qid. A member's come from the
 * mirror: one request for all of them, whatever the survey's length, the shares computed by the
 * API from the same published results. A visitor's answers are in this browser only: their
 * shares come from the published results of the questions they answered (at most the free
 * questions, already fetched for their graphs), and are never theirs ("not in this yet").
 */
export function useStandings({
  survey,
  questions,
  mine,
  member,
  underReview = false,
  answeredAt,
}: Input) {
  const answered = questions.filter((q) => mine.has(q.qid));
  const mirror = useQuery({ ...mirrorQuery(), enabled: member, refetchOnMount: 'always' });
  const published = useQueries({
    queries: answered.map((q) => ({
      ...answeringQueries.results(q.qid, undefined, survey.gid),
      enabled: !member,
      // The graphs of this survey fetched them a moment ago.
      refetchOnMount: false,
    })),
  });
  const out = new Map<string, Standing>();
  if (member) {
    for (const item of mirror.data?.results ?? []) {
      if (item.gid !== survey.gid) continue;
      const state = ownState({
        member: true,
        underReview,
        snapshotAt: item.snapshot_at,
        answeredAt: answeredAt[item.qid] ?? null,
        day: item.date,
      });
      out.set(item.qid, standingOfMirror(item, state));
    }
  } else {
    answered.forEach((q, i) => {
      const a = mine.get(q.qid);
      const results = published[i]?.data;
      if (!a || !results) return;
      out.set(
        q.qid,
        standingOf({
          question: q,
          survey: { gid: survey.gid, name: survey.name },
          answer: a.answer,
          isBlank: a.isBlank,
          results,
          // A visitor is never counted: their answer waits in this browser.
          state: 'not-counted',
        }),
      );
    });
  }
  return out;
}

/**
 * The summary at the top of the outro: "Your 3 most unusual answers", once the survey holds
 * more answers than it names (with 3 or fewer, the list below says it all).
 */
export function OutroSummary({
  questions,
  standings,
}: {
  questions: Question[];
  standings: Map<string, Standing>;
}) {
  const ordered = questions.flatMap((q) => standings.get(q.qid) ?? []);
  if (ordered.length <= UNUSUAL_COUNT) return null;
  return <UnusualAnswers standings={ordered} />;
}

/**
 * Every question of the survey: the person's answer and, where shown, everyone's share of it.
 * When all the shares shown wait for the same thing, the list says it once, not on every row.
 */
export function OutroAnswers({
  questions,
  mine,
  standings,
}: {
  questions: Question[];
  mine: Map<string, Mine>;
  standings: Map<string, Standing>;
}) {
  const shown = [...standings.values()].filter(hasShare);
  const states = new Set(shown.map((s) => s.state));
  const [only] = states;
  const once = states.size === 1 && only !== undefined && only !== 'counted' ? only : null;
  // Said once for the list: the next update is one moment for every question of a survey only
  // when they wait for the same number of answers, so the largest is named ("within about").
  const after = Math.max(0, ...shown.map((s) => s.nextUpdateAfter ?? 0));
  return (
    <>
      {once ? (
        <p className="standing-list-note">{stateExplained(once, after || null, true)}</p>
      ) : null}
      <ol className="outro__answers">
        {questions.map((q) => {
          const a = mine.get(q.qid);
          const standing = standings.get(q.qid);
          return (
            <li key={q.qid}>
              <span className="outro__question">{q.question}</span>
              <span className="outro__answer">
                {!a ? 'Not answered' : a.isBlank ? 'Left blank' : a.answer}
              </span>
              {a && standing ? <StandingShare standing={standing} withNote={!once} /> : null}
            </li>
          );
        })}
      </ol>
    </>
  );
}
