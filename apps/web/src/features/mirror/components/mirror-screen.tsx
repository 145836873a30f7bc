import {
  type DeleteAccountRequest,
  DeleteAccountRequestSchema,
  type MirrorItem as Item,
} from '@candor/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useForm } from 'react-hook-form';
import { Link, Navigate } from 'react-router';
import { toast } from 'sonner';
import { successToast } from '../../../lib/toasts';
import { Field } from '../../../components/form';
import { PageHead } from '../../../components/page-head';
import { PasswordInput } from '../../../components/password-input';
import { showServerErrors } from '../../../lib/form-errors';
import { ownState } from '../../../components/results/own-answer';
import { groupBySurvey, standingOfMirror } from '../../../components/results/standing';
import { UNUSUAL_COUNT, UnusualAnswers } from '../../../components/results/unusual-answers';
import { useAuthStore } from '../../../lib/auth-store';
import { deleteAccount, downloadMyData, mirrorQueries } from '../api/mirror';
import { MirrorItem } from './mirror-item';
import { AboutYou } from './about-you';
import { VaultNotice } from './vault-notice';
import { WithdrawSurvey } from './withdraw-survey';
import { ApiError } from '../../../lib/api-client';
import '../styles/mirror.css';

/** Exactly what an erasure removes: the same words as the privacy promise. */
export const ERASED =
  'your phone number and country, your sessions on every device, your encrypted vault with your year of birth and gender, your answers, ratings and timings; your answers leave all future results. This cannot be undone.';

function DownloadData() {
  const [busy, setBusy] = useState(false);
  return (
    <section className="me-section" aria-labelledby="me-data">
      <h2 id="me-data">Your data</h2>
      <p>
        Download everything Candor stores about you (your account, sessions, answers, ratings and
        timings) as one JSON file.
      </p>
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          downloadMyData()
            .catch((err: unknown) =>
              toast.error(
                err instanceof ApiError ? err.message : 'Your data could not be downloaded.',
              ),
            )
            .finally(() => setBusy(false));
        }}
      >
        {busy ? 'Preparing your file…' : 'Download my data'}
      </button>
    </section>
  );
}

/** The confirmation: what goes, the password, then the erasure (a native modal dialog). */
function DeleteAccount({ onDeleted }: { onDeleted: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const form = useForm<DeleteAccountRequest>({
    resolver: zodResolver(DeleteAccountRequestSchema),
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      await deleteAccount(password, useAuthStore.getState().user?.phone_number ?? '');
      // The page gives way to the home page, and the dialog goes with it.
      onDeleted();
    } catch (err) {
      showServerErrors(err, form.setError, ['password']);
    }
  });

  return (
    <section className="me-section me-section--danger" aria-labelledby="me-delete">
      <h2 id="me-delete">Delete my account</h2>
      <p>
        Erase your account and everything stored about you. Your answers leave all future results.
      </p>
      <button
        type="button"
        className="button button--danger"
        onClick={() => dialog.current?.showModal()}
      >
        Delete my account…
      </button>
      <dialog
        ref={dialog}
        className="confirm"
        aria-labelledby={titleId}
        onClose={() => form.reset()}
      >
        <form onSubmit={onSubmit} noValidate className="form">
          <h2 id={titleId} className="confirm__title">
            Delete your account?
          </h2>
          <p className="confirm__text">This erases {ERASED}</p>
          <Field label="Your password" error={errors.password?.message}>
            {({ id, describedBy, invalid }) => (
              <PasswordInput
                id={id}
                autoComplete="current-password"
                describedBy={describedBy}
                invalid={invalid}
                {...form.register('password')}
              />
            )}
          </Field>
          <div className="confirm__actions">
            <button type="button" className="button" onClick={() => dialog.current?.close()}>
              Keep my account
            </button>
            <button type="submit" className="button button--danger" disabled={isSubmitting}>
              {isSubmitting ? 'Deleting…' : 'Delete my account'}
            </button>
          </div>
        </form>
      </dialog>
    </section>
  );
}

function MirrorList() {
  const mirror = useQuery(mirrorQueries.mirror());
  if (mirror.isError) {
    return (
      <p className="notice" role="alert">
        Your answers could not be loaded. Try again in a moment.
      </p>
    );
  }
  if (!mirror.data) {
    return <div className="mirror__loading" aria-busy="true" aria-label="Loading your answers" />;
  }
  const items = mirror.data.results;
  if (items.length === 0) {
    return (
      <div className="empty mirror__empty">
        <p>
          You have not answered any question yet. Your answers appear here, against everyone&apos;s.
        </p>
        <Link to="/" className="button button--primary">
          Find a survey
        </Link>
      </div>
    );
  }
  const minority = items.filter((i) => i.minority).length;
  const surveys = groupBySurvey(items);
  return (
    <>
      <p className="mirror__summary">
        {items.length === 1 ? 'One question answered' : `${items.length} questions answered`}
        {surveys.length > 1 ? ` in ${surveys.length} surveys` : ''}
        {minority > 0 ? ` · in the minority on ${minority}` : ''}
      </p>
      {surveys.map((group) => (
        <MirrorSurvey key={group.gid} gid={group.gid} survey={group.survey} items={group.items} />
      ))}
    </>
  );
}

/**
 * One survey's answers: its most unusual ones first (when it holds more than that), then all of
 * them, folded away on a survey with many so that a mirror of many surveys stays readable.
 */
function MirrorSurvey({ gid, survey, items }: { gid: string; survey: string; items: Item[] }) {
  const titleId = useId();
  const underReview = useAuthStore((s) => s.user?.status === 'under_review');
  const minority = items.filter((i) => i.minority).length;
  const standings = items.map((item) =>
    standingOfMirror(
      item,
      ownState({
        member: true,
        underReview,
        snapshotAt: item.snapshot_at,
        answeredAt: null,
        day: item.date,
      }),
    ),
  );
  const list = (
    <ol className="mirror__list">
      {items.map((item) => (
        <MirrorItem key={item.qid} item={item} underReview={underReview} />
      ))}
    </ol>
  );
  const many = items.length > UNUSUAL_COUNT;
  return (
    <section className="mirror-survey" aria-labelledby={titleId}>
      <h2 id={titleId} className="mirror-survey__title">
        <Link to={`/surveys/${gid}`}>{survey}</Link>
      </h2>
      <p className="mirror-survey__meta">
        {items.length === 1 ? 'One answer' : `${items.length} answers`}
        {minority > 0 ? ` · in the minority on ${minority}` : ''}
      </p>
      {many ? (
        <>
          <UnusualAnswers standings={standings} headingLevel={3} />
          <details className="mirror-survey__all">
            <summary>All {items.length} answers</summary>
            {list}
          </details>
        </>
      ) : (
        list
      )}
      <WithdrawSurvey gid={gid} survey={survey} count={items.length} />
    </section>
  );
}

/** `/me`: the member's mirror, their data to download, and the erasure of the account. */
export function MirrorScreen() {
  const auth = useAuthStore((s) => s.auth);
  const initialLoading = useAuthStore((s) => s.initialLoading);
  const endSession = useAuthStore((s) => s.endSession);
  const queryClient = useQueryClient();
  const [deleted, setDeleted] = useState(false);

  useEffect(() => {
    // Fresh shares each visit: answers given since the last one may have moved them.
    if (auth) void queryClient.invalidateQueries({ queryKey: mirrorQueries.mirror().queryKey });
  }, [auth, queryClient]);

  if (deleted) return <Navigate to="/" replace />;
  if (initialLoading) return <div className="page-loading" aria-busy="true" />;
  if (!auth) return <Navigate to="/login" replace />;

  return (
    <section className="mirror" aria-labelledby="mirror-title">
      <PageHead title="My mirror" />
      <p className="mirror__eyebrow">My mirror</p>
      <h1 id="mirror-title">Where you stand</h1>
      <p className="mirror__lead">
        Every question you answered, against everyone else. Only verified people are counted, and
        results update in steps: each of your latest answers says when it counts.
      </p>
      <VaultNotice />
      <MirrorList />
      <AboutYou />
      <DownloadData />
      <DeleteAccount
        onDeleted={() => {
          // Leave for the home page before the session ends, not for the login screen.
          flushSync(() => setDeleted(true));
          endSession();
          queryClient.clear();
          successToast('Your account was deleted');
        }}
      />
    </section>
  );
}
