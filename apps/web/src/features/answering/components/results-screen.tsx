import type { Question, SurveyDetail } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { answeringQueries, memberBreakdown } from '../api/answers';
import { LandscapeAlert } from '../../../components/landscape-alert';
import { QuestionGraph } from '../../../components/results/question-graph';
import { ShareButton } from '../../../components/share/share-button';
import { ShareResult } from '../../../components/share/result-card';
import { useAuthStore } from '../../../lib/auth-store';
import { mineStateOf } from '../lib/flow';
import { useEnterToGoOn } from '../lib/keys';
import { EnterHint } from './key-hint';
import type { Mine } from '../types';

function QuestionResultsItem({
  survey,
  question,
  mine,
  visible,
  member,
  answeredAt,
}: {
  survey: SurveyDetail;
  question: Question;
  mine: Mine | null;
  visible: boolean;
  member: boolean;
  answeredAt: number | null;
}) {
  const results = useQuery({ ...answeringQueries.results(question.qid), enabled: visible });
  const underReview = useAuthStore((s) => s.user?.status === 'under_review');
  if (!visible) {
    return (
      <li className="results__item results__item--hidden">
        <h2 className="graph__title">{question.question}</h2>
        <p className="graph__empty">Answer this question to see how everyone answered.</p>
      </li>
    );
  }
  return (
    <li className="results__item">
      {results.data ? (
        <>
          <QuestionGraph
            question={question}
            results={results.data}
            mine={mine?.answer ?? null}
            breakdownQuery={memberBreakdown(question.qid)}
            variant="compact"
            headingLevel={2}
            mineState={
              mine
                ? mineStateOf(member, answeredAt, results.data, mine.day ?? null, underReview)
                : 'counted'
            }
          />
          <ShareResult
            surveyName={survey.name}
            question={question.question}
            results={results.data}
            mine={mine?.answer ?? null}
            url={survey.shareable_link}
          />
        </>
      ) : results.isError ? (
        <>
          <h2 className="graph__title">{question.question}</h2>
          <p className="graph__empty">This graph could not be loaded. Try again in a moment.</p>
        </>
      ) : (
        <div className="chart chart--loading" aria-busy="true" aria-label="Loading the graph" />
      )}
    </li>
  );
}

/** All graphs at once: the end of a v2 survey, or the results of a closed one. */
export function ResultsScreen({
  survey,
  questions,
  mine,
  member,
  answeredAt,
  canSee,
  onNext,
}: {
  survey: SurveyDetail;
  questions: Question[];
  mine: Map<string, Mine>;
  member: boolean;
  /** When each answer of this page was given (ms), by qid. */
  answeredAt: Record<string, number>;
  canSee: (qid: string) => boolean;
  onNext: () => void;
}) {
  const screenRef = useRef<HTMLElement>(null);
  useEnterToGoOn(screenRef, onNext);
  return (
    <section ref={screenRef} className="results" aria-labelledby="results-title">
      <h1 id="results-title">How everyone answered</h1>
      <p className="results__lead">
        {survey.status === 'Closed'
          ? `${survey.name} is closed. These are its final results, from verified people only.`
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
      <LandscapeAlert topic="graph" />
      <ol className="results__list">
        {questions.map((q) => (
          <QuestionResultsItem
            key={q.qid}
            survey={survey}
            question={q}
            mine={mine.get(q.qid) ?? null}
            visible={canSee(q.qid)}
            member={member}
            answeredAt={answeredAt[q.qid] ?? null}
          />
        ))}
      </ol>
      <button type="button" className="button button--primary button--large" onClick={onNext}>
        {survey.status === 'Closed' ? 'Done' : 'Finish'} <EnterHint />
      </button>
    </section>
  );
}
