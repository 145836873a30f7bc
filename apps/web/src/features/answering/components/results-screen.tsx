import type { Question, QuestionResults, SurveyDetail } from '@candor/contracts';
import { type UseQueryResult, useQueries, useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { answeringQueries, memberBreakdown } from '../api/answers';
import { waitingAnswers } from '../api/outbox';
import { LandscapeAlert } from '../../../components/landscape-alert';
import { QuestionGraph } from '../../../components/results/question-graph';
import { ShareButton } from '../../../components/share/share-button';
import {
  ReportNotes,
  compactReport,
  ownAnswerText,
  pageMarks,
  rowSummary,
  waitingNotes,
} from '../../../components/results/report';
import { ShareResult } from '../../../components/share/result-card';
import { useAuthStore } from '../../../lib/auth-store';
import { mineStateOf } from '../lib/flow';
import { useEnterToGoOn } from '../lib/keys';
import { EnterHint } from './key-hint';
import type { Mine } from '../types';

interface ItemProps {
  survey: SurveyDetail;
  question: Question;
  mine: Mine | null;
  /** The published results, once fetched (null while loading or when hidden). */
  query: UseQueryResult<QuestionResults> | null;
  member: boolean;
  answeredAt: number | null;
  underReview: boolean;
  /** Whether the API took the answer, as this device knows it (null: not known). */
  sent: boolean | null;
}

const stateOf = (p: ItemProps, results: QuestionResults) =>
  p.mine
    ? mineStateOf(p.member, p.answeredAt, results, p.mine.day ?? null, p.underReview)
    : 'counted';

/** One question's graph and its share control (the notes are said once, on the page). */
function GraphAndShare(p: ItemProps & { labelledBy?: string }) {
  const results = p.query?.data;
  if (!results) {
    return p.query?.isError ? (
      <p className="graph__empty">This graph could not be loaded. Try again in a moment.</p>
    ) : (
      <div className="chart chart--loading" aria-busy="true" aria-label="Loading the graph" />
    );
  }
  return (
    <>
      <QuestionGraph
        question={p.question}
        results={results}
        mine={p.mine?.answer ?? null}
        breakdownQuery={memberBreakdown(p.question.qid)}
        variant="compact"
        headingLevel={2}
        mineState={stateOf(p, results)}
        mineSent={p.sent}
        surveyClosed={p.survey.status === 'Closed'}
        notesOnPage
        labelledBy={p.labelledBy}
      />
      <ShareResult
        surveyName={p.survey.name}
        question={p.question.question}
        results={results}
        mine={p.mine?.answer ?? null}
        url={p.survey.shareable_link}
      />
    </>
  );
}

/** A short survey's question: its graph shown at once. */
function GraphItem(p: ItemProps) {
  if (!p.query) {
    return (
      <li className="results__item results__item--hidden">
        <h2 className="graph__title">{p.question.question}</h2>
        <p className="graph__empty">Answer this question to see how everyone answered.</p>
      </li>
    );
  }
  if (p.query.isError) {
    return (
      <li className="results__item">
        <h2 className="graph__title">{p.question.question}</h2>
        <GraphAndShare {...p} />
      </li>
    );
  }
  return (
    <li className="results__item">
      <GraphAndShare {...p} />
    </li>
  );
}

/**
 * A long survey's question: one row (the question, the person's answer, everyone's headline)
 * that opens its graph in place. The row's heading holds a button that says whether the graph
 * is open (the disclosure pattern): focus stays on it, and the graph follows it in reading order.
 */
function ReportRow(p: ItemProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const results = p.query?.data ?? null;
  const answer = p.mine ? (
    <span className="report__answer">
      <span className="report__answer-label">Your answer</span>{' '}
      <span className="report__answer-text">{ownAnswerText(p.mine)}</span>
    </span>
  ) : (
    <span className="report__answer report__answer--none">You did not answer</span>
  );
  if (!p.query) {
    return (
      <li className="results__item report__row report__row--hidden">
        <h2 className="report__heading">
          <span className="report__question">{p.question.question}</span>
        </h2>
        <p className="report__summary">Answer this question to see how everyone answered.</p>
      </li>
    );
  }
  const summary = results
    ? rowSummary(
        p.question,
        results,
        p.mine?.answer ?? null,
        stateOf(p, results),
        p.survey.status === 'Closed',
      )
    : p.query.isError
      ? 'Could not be loaded'
      : 'Loading…';
  return (
    <li className={`results__item report__row${open ? ' report__row--open' : ''}`}>
      <h2 className="report__heading">
        <button
          type="button"
          className="report__toggle"
          aria-expanded={open}
          aria-controls={`${id}-graph`}
          onClick={() => setOpen((o) => !o)}
        >
          <span id={`${id}-question`} className="report__question">
            {p.question.question}
          </span>
          <span className="report__meta">
            {answer}
            <span className="report__summary">{summary}</span>
          </span>
          <span className="report__chevron" aria-hidden="true" />
        </button>
      </h2>
      <div id={`${id}-graph`} className="report__panel" hidden={!open}>
        {open ? <GraphAndShare {...p} labelledBy={`${id}-question`} /> : null}
      </div>
    </li>
  );
}

/**
 * The end results, read as a report: the survey's name heads them, what the numbers mean is said
 * once, and each question's graph keeps its own numbers and margins. A short survey shows its
 * graphs at once; a longer one is a list of rows, each opening its graph in place.
 */
export function ResultsScreen({
  survey,
  questions,
  mine,
  member,
  answeredAt,
  sentQids,
  outboxMoves,
  canSee,
  onNext,
}: {
  survey: SurveyDetail;
  questions: Question[];
  mine: Map<string, Mine>;
  member: boolean;
  /** When each answer of this page was given (ms), by qid. */
  answeredAt: Record<string, number>;
  /** Answers this page saw the API take. */
  sentQids: ReadonlySet<string>;
  /** Changes whenever the outbox sends or drops one of this survey's answers. */
  outboxMoves: number;
  canSee: (qid: string) => boolean;
  onNext: () => void;
}) {
  const screenRef = useRef<HTMLElement>(null);
  useEnterToGoOn(screenRef, onNext);
  const underReview = useAuthStore((s) => s.user?.status === 'under_review');
  // Every visible question's results, here: the rows summarise them and the notes are said
  // once for what the graphs show.
  const queries = useQueries({
    queries: questions.map((q) => ({
      ...answeringQueries.results(q.qid, undefined, survey.gid),
      enabled: canSee(q.qid),
    })),
  });
  // A member's answers still waiting on this device to be sent (absent is not "taken").
  const unsent = useQuery({
    queryKey: [...answeringQueries.all(), 'waiting', survey.gid, outboxMoves] as const,
    queryFn: () => waitingAnswers(survey.gid),
    enabled: member,
  });
  const items: ItemProps[] = questions.map((q, i) => ({
    survey,
    question: q,
    mine: mine.get(q.qid) ?? null,
    query: canSee(q.qid) ? (queries[i] ?? null) : null,
    member,
    answeredAt: answeredAt[q.qid] ?? null,
    underReview,
    // "In" only when this page saw it taken; "kept here" while the outbox holds it; else unknown
    // (an answer from an earlier visit, or one the outbox dropped).
    sent: sentQids.has(q.qid) ? true : member && unsent.data?.has(q.qid) ? false : null,
  }));
  const loaded = items.flatMap((p) => (p.query?.data ? [{ p, results: p.query.data }] : []));
  const marks = pageMarks(loaded.map((l) => l.results));
  const waiting = waitingNotes(
    loaded
      .filter((l) => l.p.mine !== null)
      .map((l) => ({
        state: stateOf(l.p, l.results),
        nextUpdateAfter: l.results.next_update_after,
      })),
  );
  const compact = compactReport(questions.length);
  return (
    <section ref={screenRef} className="results" aria-labelledby="results-title">
      <header className="results__head">
        <p className="results__eyebrow">
          {survey.status === 'Closed' ? 'Final results' : 'How everyone answered'}
        </p>
        <h1 id="results-title">{survey.name}</h1>
        <p className="results__lead">
          {survey.status === 'Closed'
            ? 'This survey is closed. These are its final results, from verified people only.'
            : member
              ? 'Your answers are marked. Only verified people are counted.'
              : 'Your answers are marked. They are not in these numbers until you sign up: only verified people are counted.'}
        </p>
        <ShareButton
          title={survey.name}
          text={`${survey.name} on Candor: where do you stand?`}
          url={survey.shareable_link}
          className="button results__share"
        />
      </header>
      <LandscapeAlert topic="graph" />
      <ReportNotes under={marks.under} hidden={marks.hidden} waiting={waiting} />
      {compact ? (
        <p className="results__hint">
          {questions.length} questions. Open one to see its graph, break it down and share it.
        </p>
      ) : null}
      <ol className={`results__list${compact ? ' report' : ''}`}>
        {items.map((p) =>
          compact ? (
            <ReportRow key={p.question.qid} {...p} />
          ) : (
            <GraphItem key={p.question.qid} {...p} />
          ),
        )}
      </ol>
      <button type="button" className="button button--primary button--large" onClick={onNext}>
        {survey.status === 'Closed' ? 'Done' : 'Finish'} <EnterHint />
      </button>
    </section>
  );
}
