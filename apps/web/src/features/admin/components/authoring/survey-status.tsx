import { copyLink } from '../../../../lib/copy-link';
import type { AdminSurvey } from '@candor/contracts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { successToast } from '../../../../lib/toasts';
import {
  type SurveyTransition,
  downloadSurveyFile,
  useDeleteSurvey,
  useDuplicateSurvey,
  useSurveyTransition,
} from '../../api/authoring';
import { STATE_NOTES, answersText } from '../../lib/authoring';
import { actionErrorText } from '../../lib/wording';
import { ConfirmDialog } from '../confirm-dialog';
import { DateTime, StateBadge } from './survey-bits';

/** What the dialog asks before a transition; `unreleased`: its release date has not come yet. */
const ASK: Record<
  SurveyTransition,
  {
    title: (name: string) => string;
    note: (unreleased: boolean) => string;
    confirm: string;
    danger: boolean;
  }
> = {
  publish: {
    title: (name) => `Publish “${name}”?`,
    note: () =>
      'It goes on the home page at its release date, and people can answer it. A published survey can be closed, not turned back into a draft.',
    confirm: 'Publish survey',
    danger: false,
  },
  close: {
    title: (name) => `Close “${name}”?`,
    note: (unreleased) =>
      unreleased
        ? 'It will not open for answers. It is not on the home page yet; from its release date its brick appears there, marked closed. You can reopen it later.'
        : 'People can no longer answer it. Its brick stays on the home page, marked closed, with the results; without any published result it leaves the home page. You can reopen it later.',
    confirm: 'Close survey',
    danger: true,
  },
  reopen: {
    title: (name) => `Reopen “${name}”?`,
    note: (unreleased) =>
      unreleased
        ? 'It is scheduled again: people can answer it from its release date.'
        : 'People can answer it again.',
    confirm: 'Reopen survey',
    danger: false,
  },
  archive: {
    title: (name) => `Archive “${name}”?`,
    note: () =>
      'Its brick leaves the home page. Its page, its results and its exports stay, for links and for people’s mirrors. You can take it out of the archive later.',
    confirm: 'Archive survey',
    danger: false,
  },
  unarchive: {
    title: (name) => `Take “${name}” out of the archive?`,
    note: () =>
      'It stays closed. Its brick returns to the home page, marked closed, if it has published results.',
    confirm: 'Unarchive',
    danger: false,
  },
};

const PAST: Record<SurveyTransition, string> = {
  publish: 'published',
  close: 'closed',
  reopen: 'reopened',
  archive: 'archived',
  unarchive: 'taken out of the archive',
};

const DONE: Record<SurveyTransition, (survey: AdminSurvey) => string> = {
  publish: (s) =>
    s.state === 'scheduled' ? `“${s.name}” is published and scheduled` : `“${s.name}” is open`,
  close: (s) => `“${s.name}” is closed`,
  reopen: (s) => `“${s.name}” is open again`,
  archive: (s) => `“${s.name}” is archived`,
  unarchive: (s) => `“${s.name}” is out of the archive`,
};

/** The survey's public link; before its release date the link does not work yet (404). */
function ShareLink({ link, from }: { link: string; from: string | null }) {
  return (
    <div className="survey-status__share">
      <label className="field__label" htmlFor="survey-share-link">
        Shareable link
      </label>
      {from ? (
        <p id="survey-share-note" className="field__hint">
          Works from the release date (<DateTime at={from} />
          ): until then it leads to “not found”.
        </p>
      ) : null}
      <div className="share__row">
        <input
          id="survey-share-link"
          className="input"
          readOnly
          value={link}
          aria-describedby={from ? 'survey-share-note' : undefined}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="button" onClick={() => copyLink(link)}>
          Copy link
        </button>
      </div>
      {from ? null : (
        <a href={link} target="_blank" rel="noreferrer" className="survey-status__open">
          Open it on the site<span className="visually-hidden"> (in a new tab)</span>
        </a>
      )}
    </div>
  );
}

/**
 * Asks before a closed survey goes with its answers and results: its exact name must be typed
 * (the API checks it again), and archiving is offered as the way to keep the results.
 */
function DeleteAnswered({
  survey,
  open,
  onCancel,
  onConfirm,
}: {
  survey: AdminSurvey;
  open: boolean;
  onCancel: () => void;
  onConfirm: (name: string) => void;
}) {
  const [typed, setTyped] = useState('');
  const matches = typed.trim() === survey.name;
  const close = () => {
    setTyped('');
    onCancel();
  };
  return (
    <ConfirmDialog
      open={open}
      title={`Delete “${survey.name}” and its answers?`}
      confirmLabel="Delete survey"
      danger
      confirmDisabled={!matches}
      onCancel={close}
      onConfirm={() => {
        setTyped('');
        onConfirm(typed);
      }}
    >
      <p>
        Its answers, its published results and its page are removed for good, and people’s mirrors
        stop showing it. Files already exported are not affected.
        {survey.archived_at
          ? ''
          : ' To keep the results and only take it off the home page, archive it instead.'}
      </p>
      <div className="field">
        <label className="field__label" htmlFor="delete-survey-name">
          Type the survey’s name to confirm: <strong>{survey.name}</strong>
        </label>
        <input
          id="delete-survey-name"
          className="input"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && matches) {
              e.preventDefault();
              setTyped('');
              onConfirm(typed);
            }
          }}
        />
      </div>
    </ConfirmDialog>
  );
}

/** Where the survey stands, what can happen next (publish, close, reopen), preview and link. */
export function SurveyStatus({ survey }: { survey: AdminSurvey }) {
  const transition = useSurveyTransition(survey.gid);
  const duplicate = useDuplicateSurvey();
  const navigate = useNavigate();
  const [asking, setAsking] = useState<SurveyTransition | null>(null);
  const remove = useDeleteSurvey();
  const [deleting, setDeleting] = useState(false);
  const noQuestions = survey.questions.length === 0;
  // Published but not on the site yet: scheduled, or closed before its release date.
  const [openedAt] = useState(() => Date.now());
  const unreleased =
    survey.state === 'scheduled' ||
    (survey.state === 'closed' && Date.parse(survey.release_date) > openedAt);

  const deleteIt = (name?: string) =>
    remove.mutate(
      { gid: survey.gid, name },
      {
        onSuccess: () => {
          successToast(`“${survey.name}” is deleted`);
          void navigate('/admin/surveys');
        },
        onError: (err) =>
          toast.error(actionErrorText(err, 'The survey could not be deleted. Try again.')),
      },
    );

  const run = (t: SurveyTransition) =>
    transition.mutate(t, {
      onSuccess: (updated) => successToast(DONE[t](updated)),
      onError: (err) =>
        toast.error(actionErrorText(err, `The survey could not be ${PAST[t]}. Try again.`)),
    });

  const action = (t: SurveyTransition, label: string, className: string) => (
    <button
      type="button"
      className={`button ${className}`}
      disabled={transition.isPending || (t === 'publish' && noQuestions)}
      aria-describedby={t === 'publish' && noQuestions ? 'survey-publish-note' : undefined}
      onClick={() => setAsking(t)}
    >
      {transition.isPending && transition.variables === t ? 'Working…' : label}
    </button>
  );

  return (
    <section className="survey-status" aria-labelledby="survey-status-title">
      <div className="survey-status__head">
        <h2 id="survey-status-title" className="survey-status__title">
          Status
        </h2>
        <StateBadge state={survey.state} archived={survey.archived_at !== null} />
      </div>
      <p className="survey-status__note">
        {survey.archived_at
          ? 'Archived: off the home page. Its page and results stay for anyone with the link.'
          : STATE_NOTES[survey.state]}
      </p>
      <dl className="survey-status__facts">
        <div>
          <dt>Release</dt>
          <dd>
            <DateTime at={survey.release_date} />
          </dd>
        </div>
        {survey.date_published ? (
          <div>
            <dt>Published</dt>
            <dd>
              <DateTime at={survey.date_published} />
            </dd>
          </div>
        ) : null}
        {survey.closes_at ? (
          <div>
            <dt>Closes</dt>
            <dd>
              <DateTime at={survey.closes_at} />
            </dd>
          </div>
        ) : null}
        {survey.closed_at ? (
          <div>
            <dt>Closed</dt>
            <dd>
              <DateTime at={survey.closed_at} />
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Answers</dt>
          <dd>{answersText(survey.answers_count)}</dd>
        </div>
      </dl>
      <div className="survey-status__actions">
        {survey.state === 'draft' ? action('publish', 'Publish', 'button--primary') : null}
        {survey.state === 'open' || survey.state === 'scheduled'
          ? action('close', 'Close survey', 'button--danger-outline')
          : null}
        {survey.state === 'closed' && !survey.archived_at
          ? action('reopen', 'Reopen', 'button--primary')
          : null}
        {survey.state === 'closed' && !survey.archived_at
          ? action('archive', 'Archive', 'button')
          : null}
        {survey.archived_at ? action('unarchive', 'Unarchive', 'button') : null}
        <Link to={`/admin/surveys/${survey.gid}/preview`} className="button">
          Preview
        </Link>
        <button
          type="button"
          className="button"
          disabled={duplicate.isPending}
          onClick={() =>
            duplicate.mutate(survey.gid, {
              onSuccess: (copy) => {
                successToast(`Copied as a new draft: “${copy.name}”`);
                void navigate(`/admin/surveys/${copy.gid}`);
              },
              onError: (err) =>
                toast.error(actionErrorText(err, 'The survey could not be copied. Try again.')),
            })
          }
        >
          {duplicate.isPending ? 'Copying…' : 'Duplicate'}
        </button>
        <button
          type="button"
          className="button"
          onClick={() =>
            downloadSurveyFile(survey).then(
              (name) => successToast(`Saved ${name}`),
              (err: unknown) =>
                toast.error(actionErrorText(err, 'The file could not be made. Try again.')),
            )
          }
        >
          Export as file
        </button>
        {survey.state === 'draft' || survey.state === 'closed' ? (
          <button
            type="button"
            className="button button--danger-outline"
            disabled={remove.isPending}
            onClick={() => setDeleting(true)}
          >
            {remove.isPending
              ? 'Deleting…'
              : survey.state === 'draft'
                ? 'Delete draft'
                : 'Delete survey…'}
          </button>
        ) : null}
      </div>
      {survey.state === 'draft' && noQuestions ? (
        <p id="survey-publish-note" className="field__hint survey-status__hint">
          Add at least one question to publish.
        </p>
      ) : null}
      {survey.state !== 'draft' ? (
        <ShareLink link={survey.shareable_link} from={unreleased ? survey.release_date : null} />
      ) : null}
      <nav className="survey-status__jump" aria-label="On this page">
        <a href="#survey-details">Survey details</a>
        <a href="#survey-questions">Questions ({survey.questions.length})</a>
      </nav>
      <ConfirmDialog
        open={asking !== null}
        title={asking ? ASK[asking].title(survey.name) : ''}
        confirmLabel={asking ? ASK[asking].confirm : ''}
        danger={asking ? ASK[asking].danger : false}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          if (asking) run(asking);
          setAsking(null);
        }}
      >
        <p>{asking ? ASK[asking].note(unreleased) : ''}</p>
      </ConfirmDialog>
      {survey.state === 'draft' ? (
        <ConfirmDialog
          open={deleting}
          title={`Delete “${survey.name}”?`}
          confirmLabel="Delete draft"
          danger
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setDeleting(false);
            deleteIt();
          }}
        >
          <p>
            The draft and its {survey.questions.length === 1 ? 'question' : 'questions'} are removed
            for good. Nobody has answered a draft, so no answer is lost.
          </p>
        </ConfirmDialog>
      ) : (
        <DeleteAnswered
          survey={survey}
          open={deleting}
          onCancel={() => setDeleting(false)}
          onConfirm={(name) => {
            setDeleting(false);
            deleteIt(name);
          }}
        />
      )}
    </section>
  );
}
