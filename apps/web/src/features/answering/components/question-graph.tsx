import { LEAVE_BLANK_CHOICE, type Question, type QuestionResults } from '@candor/contracts';
import { lazy, Suspense, useId } from 'react';

const ClosedChart = lazy(() => import('./closed-chart'));

const people = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'person' : 'people'}`;

interface Props {
  question: Question;
  results: QuestionResults;
  /** The person's own answer ('' when left blank), or null when they have none here. */
  mine: string | null;
  /** `full` after an answer (v1 feedback); `compact` in the list of all graphs. */
  variant?: 'full' | 'compact';
}

/** Everyone's answers to one question: a chart with a table alternative, blanks shown apart. */
export function QuestionGraph({ question, results, mine, variant = 'full' }: Props) {
  const id = useId();
  const counted = results.respondents - results.blank;
  const rows = results.choices
    .filter((c) => !c.is_blank)
    .map((c) => ({
      label: c.choice,
      percent: c.percent ?? 0,
      count: c.count,
      mine: c.choice === mine,
    }));
  const Heading = variant === 'full' ? 'h2' : 'h3';
  return (
    <figure className={`graph graph--${variant}`} aria-labelledby={id}>
      <Heading id={id} className="graph__title">
        {variant === 'full' ? 'How everyone answered' : question.question}
      </Heading>
      {results.respondents === 0 ? (
        <p className="graph__empty">
          No verified answers are published yet. Yours will count once it is in the next snapshot.
        </p>
      ) : question.type === 'Closed' ? (
        <>
          <Suspense
            fallback={<div className="chart chart--loading" style={{ height: rows.length * 72 }} />}
          >
            <ClosedChart rows={rows} />
          </Suspense>
          {/* A table keeps its content's width: the hidden wrapper, not the table, is clipped. */}
          <div className="visually-hidden">
            <table>
              <caption>Answers of {people(counted)}, left blank not included</caption>
              <thead>
                <tr>
                  <th scope="col">Answer</th>
                  <th scope="col">Share</th>
                  <th scope="col">People</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.label}>
                    <th scope="row">
                      {r.label}
                      {r.mine ? ' (your answer)' : ''}
                    </th>
                    <td>{r.percent}%</td>
                    <td>{r.count ?? 'fewer than 10'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p className="graph__open">
          <strong>{people(counted)}</strong> wrote an answer.
          {mine ? (
            <>
              {' '}
              You wrote: <q>{mine}</q>
            </>
          ) : null}
        </p>
      )}
      <figcaption className="graph__caption">
        n = {people(results.respondents)}, verified
        {results.blank > 0 ? ` · ${results.blank.toLocaleString('en')} left it blank` : ''}
        {mine === '' ? ' · you left it blank' : ''}
        {question.type === 'Closed' &&
        mine &&
        !rows.some((r) => r.mine) &&
        mine !== LEAVE_BLANK_CHOICE
          ? ` · your answer: ${mine}`
          : ''}
      </figcaption>
    </figure>
  );
}
