import { RATING_MAX, type Question, type QuestionResults } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { answeringQueries, memberBreakdown } from '../api/answers';
import { useAuthStore } from '../../../lib/auth-store';
import { mineStateOf } from '../lib/flow';
import { ADVANCE_MS, useEnterToGoOn, useScreenKeys } from '../lib/keys';
import type { Mine } from '../types';
import { LandscapeAlert } from '../../../components/landscape-alert';
import { InterestRating, type RatingPick } from './interest-rating';
import { EnterHint } from './key-hint';
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
  /** This page saw the API take the answer (its reply, or the outbox's since). */
  sent: boolean;
  /** For a visitor: questions left before signing up. */
  visitorLeft: number | null;
  /** Whether this screen asks for the interest rating (one question in RATE_EVERY does). */
  askRating: boolean;
  rating: number | null;
  onRate: (score: number) => void;
  /** Goes on, with the rating given (null: skipped). Called once. */
  onNext: (score: number | null) => void;
  /** The survey's name and public link, for the result card. */
  share?: { surveyName: string; url: string };
}

/** After a `1`, a `0` within this long makes 10 (ms). */
const TEN_MS = 700;

/**
 * After an answer: the graph (v1) or a thank-you (v2), then, after one question in RATE_EVERY,
 * the interest rating. A score picked (a tap, or its digit key) stays marked a moment, then the
 * screen goes on; Enter goes on too. The way on stays in view (sticky) however tall the graph.
 */
export function FeedbackScreen(props: Props) {
  const { question, mine, withGraph, member, offline } = props;
  const underReview = useAuthStore((s) => s.user?.status === 'under_review');
  const headingId = useId();
  const screenRef = useRef<HTMLElement>(null);
  // Goes on once, whichever comes first: the pause after a pick, Enter, or the button.
  const wentOn = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastKey = useRef<{ key: string; at: number } | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const goOn = (score: number | null) => {
    if (timer.current) clearTimeout(timer.current);
    if (wentOn.current) return;
    wentOn.current = true;
    props.onNext(score);
  };
  const rate = (score: number, how: RatingPick, delay = ADVANCE_MS) => {
    if (wentOn.current) return;
    props.onRate(score);
    if (timer.current) clearTimeout(timer.current);
    timer.current = how === 'pick' ? setTimeout(() => goOn(score), delay) : null;
  };
  useScreenKeys(screenRef, (event) => {
    if (!props.askRating || !/^[0-9]$/.test(event.key)) return;
    event.preventDefault();
    const digit = Number(event.key);
    const last = lastKey.current;
    lastKey.current = { key: event.key, at: Date.now() };
    // The scale is 0 to 10 (RATING_MAX): "1" then "0" is ten, so a 1 waits a little longer.
    if (digit === 0 && last?.key === '1' && Date.now() - last.at < TEN_MS) rate(RATING_MAX, 'pick');
    else rate(digit, 'pick', digit === 1 ? TEN_MS : ADVANCE_MS);
  });
  useEnterToGoOn(screenRef, () => goOn(props.askRating ? props.rating : null));
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
        foldOnPhone
        // Taken by the API as this page saw; held here when it went to the outbox; else unknown.
        mineSent={props.sent ? true : props.offline ? false : null}
        mineState={
          // An answer that came back with its results is never in them yet.
          member && underReview
            ? 'under-review'
            : props.results !== null
              ? 'next-update'
              : mineStateOf(member, props.answeredAt, results, mine?.day ?? null)
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
  ) : fetched.fetchStatus === 'paused' ? (
    // Offline, the query waits for the network instead of failing (React Query's default).
    <p className="notice notice--local" role="status">
      You seem to be offline. The graph shows as soon as you are back online.
    </p>
  ) : (
    <div className="chart chart--loading" aria-busy="true" aria-label="Loading the graph" />
  );
  return (
    <section ref={screenRef} className="feedback" aria-labelledby={headingId}>
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
      {props.askRating ? <InterestRating value={props.rating} onChange={rate} /> : null}
      <div className="feedback__actions">
        <button
          type="button"
          className="button button--primary button--large"
          onClick={() => goOn(props.askRating ? props.rating : null)}
        >
          {props.askRating && props.rating === null ? 'Skip rating and go on' : 'Next'}{' '}
          <EnterHint />
        </button>
      </div>
    </section>
  );
}
