import type { ListedQuestion, OperatorQuestionResults, SurveySummary } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { PageHead } from '../../../../components/page-head';
import { QuestionGraph } from '../../../../components/results/question-graph';
import {
  type SurveyDownload,
  adminQueries,
  downloadSurveyExport,
  staffBreakdown,
} from '../../api/admin';
import { describeInterest, describeQuality } from '../../lib/insights';
import { actionErrorText } from '../../lib/wording';
import { ListError, ListLoading } from '../list-states';
import { PanelCompletions } from './panel-completions';
import { SurveyReach } from './survey-reach';
import { usePageParams } from '../use-page-params';

const DOWNLOAD_LABELS: Record<SurveyDownload, string> = {
  csv: 'Download CSV',
  json: 'Download JSON',
  codebook: 'Download codebook',
};
const DOWNLOAD_NAMES: Record<SurveyDownload, string> = {
  csv: 'CSV export',
  json: 'JSON export',
  codebook: 'codebook',
};

/**
 * CSV or JSON of the chosen survey, and its codebook (what every column and figure means):
 * fetched with the staff token, then saved by the browser.
 */
function ExportButtons({ survey }: { survey: SurveySummary }) {
  const [busy, setBusy] = useState<SurveyDownload | null>(null);
  const download = async (format: SurveyDownload) => {
    setBusy(format);
    try {
      await downloadSurveyExport(survey.gid, format);
    } catch (err) {
      toast.error(
        actionErrorText(
          err,
          `The ${DOWNLOAD_NAMES[format]} of “${survey.name}” could not be downloaded. Try again in a moment.`,
        ),
      );
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="results-admin__exports" role="group" aria-label={`Export ${survey.name}`}>
      {(['csv', 'json', 'codebook'] as const).map((format) => (
        <button
          key={format}
          type="button"
          className="button"
          disabled={busy !== null}
          aria-busy={busy === format}
          onClick={() => void download(format)}
        >
          {busy === format ? 'Preparing…' : DOWNLOAD_LABELS[format]}
        </button>
      ))}
    </div>
  );
}

/** Answer quality and interest beside the graph: medians and means, or why there are none yet. */
function Insights({ results }: { results: OperatorQuestionResults }) {
  const quality = describeQuality(results.quality);
  const interest = describeInterest(results.ratings);
  return (
    <aside className="insights" aria-label="Answer quality and interest">
      <section className="insight">
        <h2 className="insight__title">Answer quality</h2>
        {quality.median ? (
          <>
            <p className="insight__stat">
              <span className="insight__label">Median answer time</span>{' '}
              <strong className="insight__value">{quality.median}</strong>
            </p>
            {quality.fast ? <p className="insight__line">{quality.fast}</p> : null}
            <p className="insight__basis">{quality.basis}</p>
          </>
        ) : (
          <p className="insight__none">{quality.basis}</p>
        )}
      </section>
      <section className="insight">
        <h2 className="insight__title">Interest</h2>
        {interest.mean ? (
          <>
            <p className="insight__stat">
              <span className="insight__label">Mean interest</span>{' '}
              <strong className="insight__value">{interest.mean}</strong>
            </p>
            <p className="insight__basis">{interest.basis}</p>
          </>
        ) : (
          <p className="insight__none">{interest.basis}</p>
        )}
      </section>
    </aside>
  );
}

/** The chosen question's published graph (the members' component) and its insights. */
function QuestionResultsView({ question }: { question: ListedQuestion }) {
  const closed = question.status === 'Closed';
  const results = useQuery(adminQueries.questionResults(question.qid));
  if (results.isError) {
    return <ListError what="These results" onRetry={() => void results.refetch()} />;
  }
  if (!results.data) return <ListLoading label="Loading the results" />;
  return (
    <div className="results-admin__body">
      <QuestionGraph
        // A new question starts on "All" again.
        key={question.qid}
        question={question}
        results={results.data}
        mine={null}
        surveyClosed={closed}
        breakdownQuery={staffBreakdown(question.qid)}
      />
      <Insights results={results.data} />
    </div>
  );
}

/**
 * Results (admins): pick a released survey and one of its questions; see the graph members see,
 * broken down as they can, with answer quality and interest beside it, and export the survey.
 */
export function ResultsPanel() {
  const surveyId = useId();
  const questionId = useId();
  const { params, set } = usePageParams();
  const surveys = useQuery(adminQueries.surveys());
  const list = surveys.data?.results ?? [];
  const survey = list.find((s) => s.gid === params.get('survey')) ?? list[0];
  const questions = survey?.questions ?? [];
  const question = questions.find((q) => q.qid === params.get('question')) ?? questions[0];

  return (
    <section className="admin-panel" aria-labelledby="results-title">
      <PageHead title="Results" />
      <div className="admin-panel__head">
        <h1 id="results-title" className="admin-panel__title">
          Results
        </h1>
        {survey ? (
          <p className="admin-panel__count">
            {survey.questions.length === 1 ? '1 question' : `${survey.questions.length} questions`}
          </p>
        ) : null}
      </div>
      <p className="admin-panel__lead">
        The published results of each question, with how fast people answered and how interesting
        they found it.
      </p>
      <p className="notice results-admin__privacy">
        Staff see the same privacy-protected numbers as members, here and in the exports: every
        number is blurred a little (differential privacy) and no exact count is ever shown; answer
        times and ratings appear with the next update of the results.
      </p>
      <details className="results-admin__method">
        <summary>How sure the numbers are (the ± margins)</summary>
        <p>
          Each ± is a 95% credibility interval, as AAPOR advises for opt-in samples, which have no
          margin of sampling error: a Bayesian interval for each share (Jeffreys prior) with the
          variance of the privacy noise added. It speaks for people like those who answered, not for
          a population; no weighting is applied. Groups have their own, wider intervals. The CSV
          export gives both parts of every margin: <code>sampling_margin</code> (who happened to
          answer) and <code>privacy_margin</code> (the blur).
        </p>
      </details>
      {surveys.isError ? (
        <ListError what="The surveys" onRetry={() => void surveys.refetch()} />
      ) : !surveys.data ? (
        <ListLoading label="Loading the surveys" />
      ) : !survey ? (
        <div className="admin-empty">
          <p className="admin-empty__title">No surveys released yet</p>
          <p>Results appear here once a survey is released and people answer it.</p>
        </div>
      ) : (
        <>
          <div className="results-admin__pick">
            <div className="field">
              <label className="field__label" htmlFor={surveyId}>
                Survey
              </label>
              <select
                id={surveyId}
                className="input"
                value={survey.gid}
                onChange={(e) => set({ survey: e.target.value, question: null })}
              >
                {list.map((s) => (
                  <option key={s.gid} value={s.gid}>
                    {s.name}
                    {s.status === 'Closed' ? ' (closed)' : ''}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label className="field__label" htmlFor={questionId}>
                Question
              </label>
              <select
                id={questionId}
                className="input"
                value={question?.qid ?? ''}
                disabled={questions.length === 0}
                onChange={(e) => set({ survey: survey.gid, question: e.target.value })}
              >
                {questions.map((q, i) => (
                  <option key={q.qid} value={q.qid}>
                    {i + 1}. {q.question}
                  </option>
                ))}
              </select>
            </div>
            <ExportButtons survey={survey} />
          </div>
          <SurveyReach survey={survey} />
          <PanelCompletions survey={survey} />
          {question ? (
            <>
              <h2 className="results-admin__question">
                <span className="results-admin__kind">
                  {question.type === 'Closed' ? 'Multiple choice' : 'Written answers'}
                </span>
                {question.question}
              </h2>
              <QuestionResultsView question={question} />
            </>
          ) : (
            <div className="admin-empty">
              <p className="admin-empty__title">This survey has no questions</p>
            </div>
          )}
        </>
      )}
    </section>
  );
}
