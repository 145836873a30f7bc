import { type AdminQuestion, type AdminSurvey, LEAVE_BLANK_CHOICE } from '@candor/contracts';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { successToast } from '../../../../lib/toasts';
import { useDeleteQuestion, useQuestionOrder } from '../../api/authoring';
import { QUESTION_TYPE_LABELS, answersText, moveItem } from '../../lib/authoring';
import { actionErrorText } from '../../lib/wording';
import { ConfirmDialog } from '../confirm-dialog';
import { QuestionForm } from './question-form';
import { useRefocus } from './use-refocus';

/** Which form is open: one question's, the new question's, or none. */
type Editing = { kind: 'edit'; qid: string } | { kind: 'new' } | null;

function QuestionFacts({
  question,
  questions,
}: {
  question: AdminQuestion;
  questions: readonly AdminQuestion[];
}) {
  const facts: string[] = [QUESTION_TYPE_LABELS[question.type]];
  if (question.type === 'Closed' && question.randomise_answers) facts.push('Shuffled');
  if (question.rr_weight !== null) facts.push('Randomized response');
  // The honesty gap's pair (decision 029), said on both of its questions.
  const pairedWith = questions.find(
    (o) => o.qid === question.twin_qid || o.twin_qid === question.qid,
  );
  if (pairedWith) facts.push(`Paired with question ${pairedWith.position}`);
  if (question.type === 'Open' && question.max_length) {
    facts.push(`Up to ${question.max_length.toLocaleString('en-US')} characters`);
  }
  if (question.timer_seconds > 0) facts.push(`Timer ${question.timer_seconds} s`);
  if (question.video_link_1) facts.push(question.video_link_2 ? 'Two videos' : 'Video');
  return (
    <ul className="question-card__facts" aria-label="About this question">
      {facts.map((f) => (
        <li key={f}>{f}</li>
      ))}
      <li className="question-card__answers">{answersText(question.answers_count)}</li>
    </ul>
  );
}

function ChoiceList({ question }: { question: AdminQuestion }) {
  if (question.type !== 'Closed') return null;
  return (
    <ul className="question-card__choices" aria-label="Choices">
      {question.choices.map((c) => (
        <li
          key={c}
          className={question.locked_choices.includes(c) ? 'question-card__choice--locked' : ''}
        >
          {c}
        </li>
      ))}
      <li className="question-card__choice--blank">{LEAVE_BLANK_CHOICE}</li>
    </ul>
  );
}

/**
 * The survey's questions in order: move them (saved at once), edit one at a time, delete one
 * without answers, and add new ones at the end.
 */
export function QuestionsSection({
  survey,
  onDirtyChange,
}: {
  survey: AdminSurvey;
  /** Told whether an open question form holds changes that are not saved. */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const base = useId();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<{ question: AdminQuestion; number: number } | null>(
    null,
  );
  const [moved, setMoved] = useState('');
  const order = useQuestionOrder(survey.gid);
  const remove = useDeleteQuestion();
  const refocus = useRefocus();
  // While a move is saved the list shows it already; the buttons wait for the answer.
  const qids = order.isPending ? order.variables : survey.questions.map((q) => q.qid);
  const byId = new Map(survey.questions.map((q) => [q.qid, q]));
  const questions = qids.map((qid) => byId.get(qid)).filter((q): q is AdminQuestion => !!q);
  const formOpen = editing !== null;

  const move = (index: number, delta: -1 | 1) => {
    const question = questions[index]!;
    const next = moveItem(qids, index, delta);
    const [first, second] = delta < 0 ? ['up', 'down'] : ['down', 'up'];
    refocus(`${base}-${question.qid}-${first}`, `${base}-${question.qid}-${second}`);
    order.mutate(next, {
      onSuccess: () =>
        setMoved(`Question moved to position ${index + delta + 1} of ${next.length}.`),
      onError: (err) =>
        toast.error(actionErrorText(err, 'The new order could not be saved. Try again.')),
    });
  };

  const close = (focusId: string) => {
    setEditing(null);
    refocus(focusId, `${base}-add`);
  };

  return (
    <section className="questions-section" id="survey-questions" aria-labelledby={`${base}-title`}>
      <div className="questions-section__head">
        <h2 id={`${base}-title`} className="questions-section__title">
          Questions <span className="questions-section__count">{questions.length}</span>
        </h2>
        <p className="questions-section__lead">
          {survey.randomise_questions
            ? 'One per screen, in an order drawn for each person (the survey shuffles them). Moves are saved at once.'
            : 'One per screen, in this order. Moves are saved at once.'}
          {survey.state !== 'draft'
            ? ' The survey is published: questions can be edited, moved and added, but a choice cannot be removed or renamed, and a question cannot change type or be deleted.'
            : ''}
        </p>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {moved}
      </p>

      {questions.length === 0 && editing?.kind !== 'new' ? (
        <div className="admin-empty">
          <p className="admin-empty__title">No questions yet</p>
          <p>Add the first question: a survey needs at least one to be published.</p>
        </div>
      ) : null}

      <ol className="question-list">
        {questions.map((question, index) => {
          const number = index + 1;
          if (editing?.kind === 'edit' && editing.qid === question.qid) {
            return (
              <li key={question.qid} className="question-card question-card--editing">
                <QuestionForm
                  gid={survey.gid}
                  question={question}
                  number={number}
                  others={questions.filter((o) => o.qid !== question.qid)}
                  onDone={() => close(`${base}-${question.qid}-edit`)}
                  onDirtyChange={onDirtyChange}
                />
              </li>
            );
          }
          return (
            <li key={question.qid} className="question-card">
              <span className="question-card__number" aria-hidden="true">
                {number}
              </span>
              <div className="question-card__body">
                <h3 className="question-card__text">
                  <span className="visually-hidden">Question {number}: </span>
                  {question.question}
                </h3>
                <QuestionFacts question={question} questions={questions} />
                <ChoiceList question={question} />
              </div>
              <div className="question-card__actions">
                <div
                  className="question-card__move"
                  role="group"
                  aria-label={`Move question ${number}`}
                >
                  <button
                    type="button"
                    id={`${base}-${question.qid}-up`}
                    className="icon-button"
                    aria-label={`Move question ${number} up`}
                    disabled={index === 0 || order.isPending}
                    onClick={() => move(index, -1)}
                  >
                    <span aria-hidden="true">↑</span>
                  </button>
                  <button
                    type="button"
                    id={`${base}-${question.qid}-down`}
                    className="icon-button"
                    aria-label={`Move question ${number} down`}
                    disabled={index === questions.length - 1 || order.isPending}
                    onClick={() => move(index, 1)}
                  >
                    <span aria-hidden="true">↓</span>
                  </button>
                </div>
                <button
                  type="button"
                  id={`${base}-${question.qid}-edit`}
                  className="button"
                  disabled={formOpen}
                  aria-label={`Edit question ${number}`}
                  onClick={() => setEditing({ kind: 'edit', qid: question.qid })}
                >
                  Edit
                </button>
                {!question.locked ? (
                  <button
                    type="button"
                    className="button button--danger-outline"
                    disabled={formOpen || (remove.isPending && remove.variables === question.qid)}
                    aria-label={`Delete question ${number}`}
                    onClick={() => setDeleting({ question, number })}
                  >
                    Delete
                  </button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>

      {editing?.kind === 'new' ? (
        <div className="question-card question-card--editing question-card--new">
          <QuestionForm
            gid={survey.gid}
            question={null}
            number={questions.length + 1}
            others={questions}
            onDone={() => close(`${base}-add`)}
            onDirtyChange={onDirtyChange}
          />
        </div>
      ) : (
        <div className="questions-section__add">
          <button
            type="button"
            id={`${base}-add`}
            className="button button--primary"
            disabled={formOpen}
            onClick={() => setEditing({ kind: 'new' })}
          >
            Add question
          </button>
          {formOpen ? (
            <span className="field__hint">Save or cancel the question you are editing first.</span>
          ) : null}
        </div>
      )}

      <ConfirmDialog
        open={deleting !== null}
        title={`Delete question ${deleting?.number ?? ''}?`}
        confirmLabel="Delete question"
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const target = deleting;
          setDeleting(null);
          if (!target) return;
          remove.mutate(target.question.qid, {
            onSuccess: () => successToast(`Question ${target.number} deleted`),
            onError: (err) =>
              toast.error(actionErrorText(err, 'The question could not be deleted. Try again.')),
          });
        }}
      >
        <p>“{deleting?.question.question}” leaves the survey. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
