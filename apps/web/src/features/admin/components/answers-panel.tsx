import type { PendingAnswer } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { PageHead } from '../../../components/page-head';
import { type AnswerStatus, adminQueries, useAnswerDecision } from '../api/admin';
import { actionErrorText } from '../lib/wording';
import { ListError, ListLoading } from './list-states';
import { Pager } from './pager';
import { usePageParams } from './use-page-params';

const STATUSES: Array<{ value: AnswerStatus; label: string; empty: string; hint: string }> = [
  {
    value: 'pending',
    label: 'Pending',
    empty: 'Nothing to moderate',
    hint: 'New written answers wait here until someone approves or hides them.',
  },
  {
    value: 'approved',
    label: 'Approved',
    empty: 'No approved answers yet',
    hint: 'Answers you approve are listed here; you can still hide one.',
  },
  {
    value: 'hidden',
    label: 'Hidden',
    empty: 'No hidden answers',
    hint: 'Answers you hide are listed here; you can approve one after all.',
  },
];

const parseStatus = (value: string | null): AnswerStatus =>
  value === 'approved' || value === 'hidden' ? value : 'pending';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/** Written answers to open questions: approve them, or hide them from everyone. */
export function AnswersPanel() {
  const { params, page, set } = usePageParams();
  const status = parseStatus(params.get('status'));
  const current = STATUSES.find((s) => s.value === status)!;
  const list = useQuery(adminQueries.answers(status, page));
  const decide = useAnswerDecision();

  const run = (answer: PendingAnswer, decision: 'approve' | 'hide') =>
    decide.mutate(
      { answerId: answer.id, decision },
      {
        onSuccess: () =>
          toast.success(decision === 'approve' ? 'Answer approved' : 'Answer hidden'),
        onError: (err) =>
          toast.error(
            actionErrorText(
              err,
              decision === 'approve'
                ? 'The answer could not be approved. Try again.'
                : 'The answer could not be hidden. Try again.',
            ),
          ),
      },
    );
  const busy = (id: number) => decide.isPending && decide.variables.answerId === id;

  return (
    <section className="admin-panel" aria-labelledby="answers-title">
      <PageHead title="Written answers" />
      <div className="admin-panel__head">
        <h1 id="answers-title" className="admin-panel__title">
          Written answers
        </h1>
        {list.data?.count ? (
          <p className="admin-panel__count">
            {list.data.count === 1 ? '1 answer' : `${list.data.count} answers`}
          </p>
        ) : null}
      </div>
      <p className="admin-panel__lead">
        Answers to open questions, oldest first. You never see who wrote them.
      </p>
      <div className="segmented" role="group" aria-label="Show answers">
        {STATUSES.map((s) => (
          <button
            key={s.value}
            type="button"
            className="segmented__option"
            aria-pressed={s.value === status}
            onClick={() => set({ status: s.value === 'pending' ? null : s.value, page: null })}
          >
            {s.label}
          </button>
        ))}
      </div>
      {list.isError ? (
        <ListError what="The written answers" onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <ListLoading label="Loading written answers" />
      ) : list.data.results.length === 0 ? (
        <div className="admin-empty">
          <p className="admin-empty__title">{current.empty}</p>
          <p>{current.hint}</p>
        </div>
      ) : (
        <ol
          className={`moderation-list${list.isPlaceholderData ? ' admin-table--stale' : ''}`}
          aria-label={`${current.label} answers`}
          aria-busy={list.isPlaceholderData}
        >
          {list.data.results.map((answer) => (
            <li key={answer.id} className="moderation-item">
              <p className="moderation-item__context">
                <span className="moderation-item__survey">{answer.survey}</span>
                <span aria-hidden="true"> · </span>
                <time dateTime={answer.date}>{dateFormat.format(new Date(answer.date))}</time>
              </p>
              <h2 className="moderation-item__question">{answer.question}</h2>
              <blockquote id={`answer-${answer.id}`} className="moderation-item__text">
                {answer.text}
              </blockquote>
              <div className="moderation-item__actions">
                {answer.moderation !== 'approved' ? (
                  <button
                    type="button"
                    className="button button--primary button--wide"
                    disabled={busy(answer.id)}
                    aria-describedby={`answer-${answer.id}`}
                    onClick={() => run(answer, 'approve')}
                  >
                    Approve
                  </button>
                ) : null}
                {answer.moderation !== 'hidden' ? (
                  <button
                    type="button"
                    className="button button--danger-outline button--wide"
                    disabled={busy(answer.id)}
                    aria-describedby={`answer-${answer.id}`}
                    onClick={() => run(answer, 'hide')}
                  >
                    Hide
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
      <Pager
        label="Written answer pages"
        page={page}
        list={list.data}
        onPage={(p) => set({ page: p })}
      />
    </section>
  );
}
