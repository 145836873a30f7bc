import { type AdminGenre, GenreInputSchema } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { successToast } from '../../../../lib/toasts';
import { PageHead } from '../../../../components/page-head';
import { ApiError } from '../../../../lib/api-client';
import {
  authoringQueries,
  useCreateGenre,
  useDeleteGenre,
  useRenameGenre,
} from '../../api/authoring';
import { actionErrorText } from '../../lib/wording';
import { ConfirmDialog } from '../confirm-dialog';
import { ListError, ListLoading } from '../list-states';
import { useRefocus } from './use-refocus';

const surveysText = (n: number) => (n === 1 ? '1 survey' : `${n} surveys`);

/** The name's problem by the contract, or the API's message about `genre_name`, or null. */
function nameProblem(name: string): string | null {
  const parsed = GenreInputSchema.safeParse({ genre_name: name });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Check the name.');
}

function serverNameError(err: unknown, fallback: string): string {
  if (err instanceof ApiError) {
    const fields = err.fieldErrors;
    const message = fields.genre_name?.[0] ?? fields.non_field_errors?.[0];
    if (message) return message;
  }
  return actionErrorText(err, fallback);
}

/** One line with a text input and a button: adding a genre, or renaming one in its row. */
function NameForm({
  label,
  initial = '',
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
  autoFocus = false,
}: {
  label: string;
  initial?: string;
  submitLabel: string;
  busyLabel: string;
  /** Resolves with null when saved, else with the message to show under the input. */
  onSubmit: (name: string) => Promise<string | null>;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const id = useId();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className={`name-form${error ? ' field--invalid' : ''}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const problem = nameProblem(name);
        setError(problem);
        if (problem) return;
        setBusy(true);
        void onSubmit(name.trim()).then((failure) => {
          setBusy(false);
          setError(failure);
          if (!failure && !initial) setName('');
        });
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && onCancel) {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <label htmlFor={id} className={onCancel ? 'visually-hidden' : 'field__label'}>
        {label}
      </label>
      <div className="name-form__row">
        <input
          id={id}
          className="input"
          value={name}
          maxLength={60}
          autoComplete="off"
          // Renaming starts in the field the person asked to edit.
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      {error ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** Genres (admins): add, rename in place, delete (the surveys that had it lose it). */
export function GenresPanel() {
  const base = useId();
  const list = useQuery(authoringQueries.genres());
  const create = useCreateGenre();
  const rename = useRenameGenre();
  const remove = useDeleteGenre();
  const refocus = useRefocus();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AdminGenre | null>(null);
  const genres = list.data?.results ?? [];

  const stopRenaming = (gid: string) => {
    setRenaming(null);
    refocus(`${base}-${gid}-rename`);
  };

  return (
    <section className="admin-panel" aria-labelledby="genres-title">
      <PageHead title="Genres" />
      <div className="admin-panel__head">
        <h1 id="genres-title" className="admin-panel__title">
          Genres
        </h1>
        {genres.length ? (
          <p className="admin-panel__count">
            {genres.length === 1 ? '1 genre' : `${genres.length} genres`}
          </p>
        ) : null}
      </div>
      <p className="admin-panel__lead">
        People filter the home page by genre. Pick a survey’s genres in its editor.
      </p>
      <div className="genres-add">
        <NameForm
          label="New genre"
          submitLabel="Add genre"
          busyLabel="Adding…"
          onSubmit={(genre_name) =>
            create.mutateAsync({ genre_name }).then(
              (genre) => {
                successToast(`Genre “${genre.genre_name}” added`);
                return null;
              },
              (err: unknown) => serverNameError(err, 'The genre could not be added. Try again.'),
            )
          }
        />
      </div>
      {list.isError ? (
        <ListError what="The genres" onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <ListLoading label="Loading genres" />
      ) : genres.length === 0 ? (
        <div className="admin-empty">
          <p className="admin-empty__title">No genres yet</p>
          <p>Add one above, then pick it in a survey’s editor.</p>
        </div>
      ) : (
        <table className="admin-table genres-table">
          <thead>
            <tr>
              <th scope="col">Genre</th>
              <th scope="col">Used by</th>
              <th scope="col">
                <span className="visually-hidden">Changes</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {genres.map((genre) => (
              <tr key={genre.unique_GID}>
                {renaming === genre.unique_GID ? (
                  <td colSpan={3} className="genres-table__rename">
                    <NameForm
                      label={`New name for ${genre.genre_name}`}
                      initial={genre.genre_name}
                      submitLabel="Save"
                      busyLabel="Saving…"
                      autoFocus
                      onCancel={() => stopRenaming(genre.unique_GID)}
                      onSubmit={(genre_name) =>
                        rename.mutateAsync({ gid: genre.unique_GID, input: { genre_name } }).then(
                          (renamed) => {
                            successToast(`“${genre.genre_name}” is now “${renamed.genre_name}”`);
                            stopRenaming(genre.unique_GID);
                            return null;
                          },
                          (err: unknown) =>
                            serverNameError(err, 'The genre could not be renamed. Try again.'),
                        )
                      }
                    />
                  </td>
                ) : (
                  <>
                    <th scope="row" data-label="Genre" className="genres-table__name">
                      {genre.genre_name}
                    </th>
                    <td data-label="Used by" className="genres-table__count">
                      {genre.surveys_count ? (
                        surveysText(genre.surveys_count)
                      ) : (
                        <span className="admin-table__muted">No survey</span>
                      )}
                    </td>
                    <td className="admin-table__actions">
                      <button
                        type="button"
                        id={`${base}-${genre.unique_GID}-rename`}
                        className="button"
                        aria-label={`Rename ${genre.genre_name}`}
                        onClick={() => setRenaming(genre.unique_GID)}
                      >
                        Rename
                      </button>
                      <button
                        type="button"
                        className="button button--danger-outline"
                        aria-label={`Delete ${genre.genre_name}`}
                        disabled={remove.isPending && remove.variables === genre.unique_GID}
                        onClick={() => setDeleting(genre)}
                      >
                        Delete
                      </button>
                    </td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the genre “${deleting?.genre_name ?? ''}”?`}
        confirmLabel="Delete genre"
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const target = deleting;
          setDeleting(null);
          if (!target) return;
          remove.mutate(target.unique_GID, {
            onSuccess: () => successToast(`Genre “${target.genre_name}” deleted`),
            onError: (err) =>
              toast.error(actionErrorText(err, 'The genre could not be deleted. Try again.')),
          });
        }}
      >
        <p>
          {deleting?.surveys_count
            ? `${surveysText(deleting.surveys_count)} lose${deleting.surveys_count === 1 ? 's' : ''} this genre; the surveys themselves stay as they are.`
            : 'No survey uses it.'}
        </p>
      </ConfirmDialog>
    </section>
  );
}
