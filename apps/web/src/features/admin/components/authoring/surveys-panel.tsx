import { type AdminSurveySummary, SURVEY_FILE_MAX_BYTES } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { successToast } from '../../../../lib/toasts';
import { PageHead } from '../../../../components/page-head';
import { ApiError } from '../../../../lib/api-client';
import {
  authoringQueries,
  useArchiveSamples,
  useImportSurvey,
  useSurveyOrder,
} from '../../api/authoring';
import { ConfirmDialog } from '../confirm-dialog';
import {
  FEEDBACK_LABELS,
  SIZE_LABELS,
  moveItem,
  readSurveyFile,
  sameOrder,
  splitVariant,
} from '../../lib/authoring';
import { actionErrorText } from '../../lib/wording';
import { ListError, ListLoading } from '../list-states';
import { CoverThumb, DateTime, StateBadge } from './survey-bits';
import { UnsavedGuard } from './unsaved-guard';
import { useRefocus } from './use-refocus';

function variantText(survey: AdminSurveySummary): string {
  const { feedback, size } = splitVariant(survey.variant);
  return `${SIZE_LABELS[size]} brick · ${FEEDBACK_LABELS[feedback].label.toLowerCase()}`;
}

/**
 * Every survey, drafts included, in the order of the home page's bricks. Moves change the order
 * here first; "Save order" publishes it (one change to the home page instead of one per step).
 */
export function SurveysPanel() {
  const base = useId();
  const list = useQuery(authoringQueries.surveys());
  const save = useSurveyOrder();
  const refocus = useRefocus();
  // The order being arranged, until it is saved or undone; null while it is the saved one.
  const [draft, setDraft] = useState<string[] | null>(null);
  const [moved, setMoved] = useState('');

  const surveys = list.data?.results ?? [];
  const saved = surveys.map((s) => s.gid);
  const byId = new Map(surveys.map((s) => [s.gid, s]));
  // A survey added or removed meanwhile (another tab) ends the arrangement.
  const arranging =
    draft !== null && draft.length === saved.length && draft.every((g) => byId.has(g));
  const order = arranging ? draft : saved;
  const changed = arranging && !sameOrder(draft, saved);
  const rows = order.map((gid) => byId.get(gid)!);

  const move = (index: number, delta: -1 | 1) => {
    const survey = rows[index]!;
    const next = moveItem(order, index, delta);
    setDraft(next);
    setMoved(`${survey.name} moved to position ${index + delta + 1} of ${next.length}.`);
    const [first, second] = delta < 0 ? ['up', 'down'] : ['down', 'up'];
    refocus(`${base}-${survey.gid}-${first}`, `${base}-${survey.gid}-${second}`);
  };

  const saveOrder = () =>
    save.mutate(order, {
      onSuccess: () => {
        setDraft(null);
        successToast('The home page follows the new order');
      },
      onError: (err) =>
        toast.error(actionErrorText(err, 'The order could not be saved. Try again.')),
    });

  return (
    <section className="admin-panel" aria-labelledby="surveys-title">
      <PageHead title="Surveys" />
      <div className="admin-panel__head">
        <h1 id="surveys-title" className="admin-panel__title">
          Surveys
        </h1>
        <div className="admin-panel__actions">
          <ImportSurvey />
          <Link to="/admin/surveys/new" className="button button--primary">
            New survey
          </Link>
        </div>
      </div>
      <p className="admin-panel__lead">
        Every survey, drafts included, in the order of the home page’s bricks. Move them up or down,
        then save the order.
      </p>
      <SampleNotice surveys={surveys} />
      <p className="visually-hidden" aria-live="polite">
        {moved}
      </p>
      {changed ? (
        <div className="order-bar" role="region" aria-label="Unsaved order">
          <p className="order-bar__text">
            <strong>The order has changed.</strong> The home page keeps the old order until you
            save.
          </p>
          <div className="order-bar__actions">
            <button
              type="button"
              className="button"
              disabled={save.isPending}
              onClick={() => {
                setDraft(null);
                setMoved('Order changes undone.');
              }}
            >
              Undo changes
            </button>
            <button
              type="button"
              className="button button--primary"
              disabled={save.isPending}
              onClick={saveOrder}
            >
              {save.isPending ? 'Saving…' : 'Save order'}
            </button>
          </div>
        </div>
      ) : null}
      <UnsavedGuard when={changed} what="The new order of the surveys" />
      {list.isError ? (
        <ListError what="The surveys" onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <ListLoading label="Loading surveys" />
      ) : rows.length === 0 ? (
        <div className="admin-empty">
          <p className="admin-empty__title">No surveys yet</p>
          <p>Create the first one: it starts as a draft that only staff can see.</p>
        </div>
      ) : (
        <table className="admin-table surveys-table">
          <thead>
            <tr>
              <th scope="col">
                <span aria-hidden="true">#</span>
                <span className="visually-hidden">Position</span>
              </th>
              <th scope="col">Survey</th>
              <th scope="col">State</th>
              <th scope="col">Questions</th>
              <th scope="col">Answers (about)</th>
              <th scope="col">Release</th>
              <th scope="col">
                <span className="visually-hidden">Order and editing</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((survey, index) => (
              <tr
                key={survey.gid}
                className={
                  arranging && saved.indexOf(survey.gid) !== index
                    ? 'surveys-table__row--moved'
                    : undefined
                }
              >
                <td data-label="Position" className="surveys-table__position">
                  {index + 1}
                </td>
                <th scope="row" data-label="Survey" className="admin-table__span">
                  <span className="surveys-table__survey">
                    <CoverThumb src={survey.cover_image} />
                    <span className="surveys-table__name">
                      <Link to={`/admin/surveys/${survey.gid}`}>{survey.name}</Link>
                      <span className="surveys-table__variant">{variantText(survey)}</span>
                    </span>
                  </span>
                </th>
                <td data-label="State">
                  <StateBadge state={survey.state} archived={survey.archived_at !== null} />
                </td>
                <td data-label="Questions" className="surveys-table__number">
                  {survey.questions_count}
                </td>
                <td data-label="Answers" className="surveys-table__number">
                  {survey.answers_count ? `≈ ${survey.answers_count.toLocaleString('en-US')}` : '–'}
                </td>
                <td data-label="Release">
                  <DateTime at={survey.release_date} />
                </td>
                <td className="admin-table__actions">
                  <span className="move-buttons" role="group" aria-label={`Move ${survey.name}`}>
                    <span className="move-buttons__where" aria-hidden="true">
                      {index + 1} of {rows.length}
                    </span>
                    <button
                      type="button"
                      id={`${base}-${survey.gid}-up`}
                      className="icon-button"
                      aria-label={`Move ${survey.name} up`}
                      disabled={index === 0 || save.isPending}
                      onClick={() => move(index, -1)}
                    >
                      <span aria-hidden="true">↑</span>
                    </button>
                    <button
                      type="button"
                      id={`${base}-${survey.gid}-down`}
                      className="icon-button"
                      aria-label={`Move ${survey.name} down`}
                      disabled={index === rows.length - 1 || save.isPending}
                      onClick={() => move(index, 1)}
                    >
                      <span aria-hidden="true">↓</span>
                    </button>
                  </span>
                  <Link
                    to={`/admin/surveys/${survey.gid}`}
                    className="button"
                    aria-label={`Edit ${survey.name}`}
                  >
                    Edit
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * "Import a survey file": a file exported from a survey (here or on another Candor) becomes a
 * new draft, opened at once. The file is checked here first; what is wrong is said, each once.
 */
function ImportSurvey() {
  const importing = useImportSurvey();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);

  async function take(picked: File) {
    if (picked.size > SURVEY_FILE_MAX_BYTES) {
      toast.error(`“${picked.name}” cannot be imported`, {
        description: 'It is too big for a survey file (at most 2 MB).',
      });
      return;
    }
    const text = await picked.text().catch(() => null);
    if (text === null) {
      toast.error(`“${picked.name}” could not be read. Pick it again.`);
      return;
    }
    const { file, problems } = readSurveyFile(text);
    if (!file) {
      toast.error(`“${picked.name}” cannot be imported`, { description: problems.join(' ') });
      return;
    }
    importing.mutate(file, {
      onSuccess: (draft) => {
        successToast(`Imported as a new draft: “${draft.name}”`);
        const dropped = [file.survey.cover_image, file.survey.intro_screen_image].filter(
          (p, i) => p && !(i === 0 ? draft.cover_image : draft.intro_screen_image),
        );
        if (dropped.length) {
          toast.info('An image of the file is not stored on this site: upload it again.');
        }
        void navigate(`/admin/surveys/${draft.gid}`);
      },
      onError: (err) =>
        err instanceof ApiError && err.code === 'VALIDATION_FAILED'
          ? toast.error(`“${picked.name}” cannot be imported`, {
              description: [...new Set(Object.values(err.fieldErrors).flat())].join(' '),
            })
          : toast.error(actionErrorText(err, `“${picked.name}” could not be imported. Try again.`)),
    });
  }

  return (
    <>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        onChange={(e) => {
          const picked = e.target.files?.[0];
          e.target.value = '';
          if (picked) void take(picked);
        }}
      />
      <button
        type="button"
        className="button"
        disabled={importing.isPending}
        onClick={() => input.current?.click()}
      >
        {importing.isPending ? 'Importing…' : 'Import a survey file'}
      </button>
    </>
  );
}

/**
 * Once an operator has a survey of their own, the sample surveys Candor started with can leave
 * the site in one step: closed and archived (their sample answers stay, unseen; the seed never
 * brings them back). Reversible one by one from each survey's status.
 */
function SampleNotice({ surveys }: { surveys: AdminSurveySummary[] }) {
  const archive = useArchiveSamples();
  const [asking, setAsking] = useState(false);
  const live = surveys.filter((s) => s.sample && !s.archived_at);
  if (!live.length || !surveys.some((s) => !s.sample)) return null;
  const count = live.length === 1 ? 'the sample survey' : `the ${live.length} sample surveys`;
  return (
    <div className="sample-notice" role="region" aria-label="Sample surveys">
      <p className="sample-notice__text">
        <strong>Your own survey is here.</strong> Candor started with {count} (
        {live.map((s) => s.name).join(', ')}). Take them off the site when you are ready.
      </p>
      <button
        type="button"
        className="button"
        disabled={archive.isPending}
        onClick={() => setAsking(true)}
      >
        {archive.isPending ? 'Working…' : 'Remove the sample content'}
      </button>
      <ConfirmDialog
        open={asking}
        title="Remove the sample content?"
        confirmLabel="Remove from the site"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          archive.mutate(undefined, {
            onSuccess: () => successToast('The sample surveys are off the site'),
            onError: (err) =>
              toast.error(actionErrorText(err, 'The samples could not be removed. Try again.')),
          });
        }}
      >
        <p>
          Each sample survey is closed and archived: off the home page, taking no answers. Their
          sample answers stay in the database, out of sight, and never mix with your surveys’. You
          can bring one back from its status panel.
        </p>
      </ConfirmDialog>
    </div>
  );
}
