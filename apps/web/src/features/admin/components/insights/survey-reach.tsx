import type { ReachStep, SurveySummary } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { adminQueries } from '../../api/admin';
import { formatDuration } from '../../lib/insights';
import { ListError, ListLoading } from '../list-states';

const about = (n: number, margin: number | null) =>
  `About ${n.toLocaleString('en')}${margin ? ` (±${margin.toLocaleString('en')})` : ''}`;

/** A place's share of the first, in words and as a bar's width (never past the track). */
function Kept({ step }: { step: ReachStep }) {
  if (step.kept_percent === null) return <span className="reach__none">Too few yet</span>;
  const margin = step.kept_margin ? ` ±${Math.round(step.kept_margin)}` : '';
  return (
    <span className="reach__kept">
      <span className="reach__bar" aria-hidden="true">
        <span style={{ width: `${Math.min(100, step.kept_percent)}%` }} />
      </span>
      <span>
        {Math.round(step.kept_percent)}%{margin}
      </span>
    </span>
  );
}

/**
 * How far people got through a survey (issue 31, point 6): each question's published number of
 * people, as a share of the first's, with margins, and a typical time for the whole survey. All
 * of it from the numbers members see: nothing new is counted or stored.
 */
export function SurveyReach({ survey }: { survey: SurveySummary }) {
  const reach = useQuery(adminQueries.reach(survey.gid));
  const data = reach.data;
  return (
    <section className="reach" aria-labelledby="reach-title">
      <h2 id="reach-title" className="results-admin__question">
        How far people got
      </h2>
      {reach.isError ? (
        <ListError what="How far people got" onRetry={() => void reach.refetch()} />
      ) : !data ? (
        <ListLoading label="Loading how far people got" />
      ) : data.steps.length === 0 ? (
        <p className="field__hint">This survey has no questions.</p>
      ) : (
        <>
          <p className="field__hint">
            {data.shuffled
              ? 'Each person met these questions in an order of their own, so this is how many answered each question, not where people stopped. '
              : 'How many answered each question, in the order people met them, as a share of the first. '}
            From the published numbers: each is blurred a little, shown once there are enough
            answers, and moves at its own question’s updates, so a later question can read higher
            than an earlier one for a while.
          </p>
          <table className="admin-table reach__table">
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col">People</th>
                <th scope="col">Of the first</th>
                <th scope="col">Median time</th>
              </tr>
            </thead>
            <tbody>
              {data.steps.map((step, i) => (
                <tr key={step.qid}>
                  <th scope="row" className="reach__question">
                    {i + 1}. {step.question}
                    {step.pair_qid ? (
                      <span className="reach__pair"> (asked two ways: both counted)</span>
                    ) : null}
                  </th>
                  <td data-label="People">
                    {step.respondents === null
                      ? 'Too few yet'
                      : about(step.respondents, step.respondents_margin)}
                  </td>
                  <td data-label="Of the first">
                    <Kept step={step} />
                  </td>
                  <td data-label="Median time">
                    {step.answer_time_median_ms === null
                      ? '–'
                      : formatDuration(step.answer_time_median_ms)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="reach__total">
            {data.typical_time_ms === null
              ? 'A typical time for the whole survey appears once every question has a median answer time.'
              : `Typical time for the whole survey: about ${formatDuration(data.typical_time_ms)} (the sum of each question’s median answer time; nobody’s own total is kept, since their answers are not linked to each other).`}
          </p>
        </>
      )}
    </section>
  );
}
