import type { PendingAnswer } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { successToast } from '../../../../lib/toasts';
import { type AnswerStatus, adminQueries, useAnswerDecision } from '../../api/admin';
import { actionErrorText } from '../../lib/wording';
import { ListPanel } from '../list-panel';
import { usePageParams } from '../use-page-params';

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
        onSuccess: () => successToast(decision === 'approve' ? 'Answer approved' : 'Answer hidden'),
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
    <ListPanel
      id="answers-title"
      title="Written answers"
      count={(n) => (n === 1 ? '1 answer' : `${n} answers`)}
      lead="Answers to open questions, oldest first. You never see who wrote them."
      filters={
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
      }
      query={list}
      what="The written answers"
      loadingLabel="Loading written answers"
      empty={{ title: current.empty, text: current.hint }}
      pagerLabel="Written answer pages"
      page={page}
      onPage={(p) => set({ page: p })}
    >
      {(rows, stale) => (
        <ol
          className={`moderation-list${stale ? ' admin-table--stale' : ''}`}
          aria-label={`${current.label} answers`}
          aria-busy={stale}
        >
          {rows.map((answer) => (
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
    </ListPanel>
  );
}
