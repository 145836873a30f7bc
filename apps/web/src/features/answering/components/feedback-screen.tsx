import type { Question, QuestionResults } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { answeringQueries, memberBreakdown } from '../api/answers';
import { mineStateOf } from '../lib/flow';
import type { Mine } from '../types';
import { LandscapeAlert } from '../../../components/landscape-alert';
import { InterestRating } from './interest-rating';
import { QuestionGraph } from '../../../components/results/question-graph';
import { ShareResult } from '../../../components/share/result-card';

interface Props {
  question: Question;
  number: number;
  total: number;
  mine: Mine | null;
  /** The blank was recorded because the question's time ran out. */
  timedOut: boolean;
  /** Results that came with the answer; fetched when missing (after a reload, or a visitor). */
  results: QuestionResults | null;
  /** When this person answered it in this page (ms), if they did. */
  answeredAt: number | null;
  /** v1_* surveys show everyone's answers right away; v2_* ones at the end. */
  withGraph: boolean;
  member: boolean;
  /** The answer waits in the outbox because the network is away. */
  offline: boolean;
  /** For a visitor: questions left before signing up. */
  visitorLeft: number | null;
  rating: number | null;
  onRate: (score: number) => void;
  onNext: () => void;
  /** The survey's name and public link, for the result card. */
  share?: { surveyName: string; url: string };
}

/** After an answer: the graph (v1) or a thank-you (v2), then the interest rating. */
export function FeedbackScreen(props: Props) {
  const { question, mine, withGraph, member, offline } = props;
  const headingId = useId();
  // A visitor reads the published results too (the API serves them without a session).
  const fetched = useQuery({
    ...answeringQueries.results(question.qid),
    enabled: withGraph && !offline && props.results === null,
  });
  const results = props.results ?? fetched.data ?? null;
  const graph = results ? (
    <>
      <LandscapeAlert topic="graph" />
      <QuestionGraph
        question={question}
        results={results}
        mine={mine?.answer ?? null}
        breakdownQuery={memberBreakdown(question.qid)}
        mineState={
          // An answer that came back with its results is never in them yet.
          props.results !== null ? 'next-update' : mineStateOf(member, props.answeredAt, results)
        }
      />
      {props.share ? (
        <ShareResult
          surveyName={props.share.surveyName}
          question={question.question}
          results={results}
          mine={mine?.answer ?? null}
          url={props.share.url}
        />
      ) : null}
    </>
  ) : fetched.isError ? (
    <p className="notice">
      The graph could not be loaded.{' '}
      {member ? 'You can see it at the end.' : 'Try again in a moment.'}
    </p>
  ) : (
    <div className="chart chart--loading" aria-busy="true" aria-label="Loading the graph" />
  );
  return (
    <section className="feedback" aria-labelledby={headingId}>
      <p className="question__progress">
        Question {props.number} of {props.total}
      </p>
      <h1 id={headingId} className="feedback__question">
        {question.question}
      </h1>
      <p className="feedback__mine">
        {mine === null ? null : mine.isBlank && props.timedOut ? (
          <>
            <strong>Time’s up.</strong> This one is recorded as left blank.
          </>
        ) : mine.isBlank ? (
          <>You left this one blank.</>
        ) : (
          <>
            Your answer: <strong>{mine.answer}</strong>
          </>
        )}
      </p>
      {!member ? (
        <>
          {withGraph ? graph : null}
          <p className="notice notice--local feedback__uncounted" role="status">
            <strong>
              {withGraph ? 'Your answer is not in this yet.' : 'Your answer is not counted yet.'}
            </strong>{' '}
            It is saved on this device and counts once you sign up, since Candor counts verified
            people only.{' '}
            {props.visitorLeft
              ? `You can answer ${props.visitorLeft} more first.`
              : 'Sign up next to count your answers.'}
          </p>
        </>
      ) : offline ? (
        <p className="notice notice--local" role="status">
          You seem to be offline. Your answer is saved on this device and will be sent as soon as
          you are back online.
        </p>
      ) : withGraph ? (
        graph
      ) : (
        <p className="feedback__later">Thank you. You see how everyone answered at the end.</p>
      )}
      <InterestRating value={props.rating} onChange={props.onRate} />
      <div className="feedback__actions">
        <button
          type="button"
          className="button button--primary button--large"
          onClick={props.onNext}
        >
          {props.rating === null ? 'Skip rating and go on' : 'Next'}
        </button>
      </div>
    </section>
  );
}
