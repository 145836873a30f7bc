import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { canWithdrawOnDevice, withdrawOnDevice } from '../../../lib/local-answers';
import { successToast } from '../../../lib/toasts';
import { mirrorQueries } from '../api/mirror';

/**
 * Withdraw one survey's answers from this device, with the survey's credential (decision 020,
 * slice 4). Offered only where this device holds it: answers given before credentials, or on a
 * device whose credential this one never received, cannot be withdrawn here (the dialog says so;
 * erasing the account is the way for the first).
 */
export function WithdrawSurvey({
  gid,
  survey,
  count,
}: {
  gid: string;
  survey: string;
  count: number;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const can = useQuery({
    queryKey: ['mirror', 'can-withdraw', gid],
    queryFn: () => canWithdrawOnDevice(gid),
    staleTime: 30_000,
  });
  if (!can.data) return null;

  const withdraw = async () => {
    setBusy(true);
    setError(null);
    try {
      await withdrawOnDevice(gid);
      dialog.current?.close();
      successToast(`Your answers to ${survey} were withdrawn`);
      await queryClient.invalidateQueries({ queryKey: mirrorQueries.mirror().queryKey });
      await queryClient.invalidateQueries({ queryKey: ['mirror', 'can-withdraw', gid] });
    } catch (err) {
      setError(
        err instanceof ApiError && err.code !== 'NETWORK'
          ? err.message
          : 'Your answers could not be withdrawn: you seem to be offline. Nothing changed; try again.',
      );
    } finally {
      setBusy(false);
    }
  };

  const answers = count === 1 ? 'your answer' : `your ${count} answers`;
  return (
    <>
      <button
        type="button"
        className="button button--danger-outline mirror-survey__withdraw"
        onClick={() => dialog.current?.showModal()}
      >
        Withdraw these answers…
      </button>
      <dialog
        ref={dialog}
        className="confirm"
        aria-labelledby={titleId}
        onClose={() => setError(null)}
      >
        <h2 id={titleId} className="confirm__title">
          Withdraw your answers to {survey}?
        </h2>
        <div className="confirm__text">
          <p>
            This deletes {answers} and their ratings from Candor, those not counted yet included,
            and from this device and your vault. They leave the results at their next update:
            numbers already published stay as they are until then.
          </p>
          <p>You cannot answer this survey again afterwards.</p>
        </div>
        {error ? (
          <p className="notice" role="alert">
            {error}
          </p>
        ) : null}
        <div className="confirm__actions">
          <button type="button" className="button" onClick={() => dialog.current?.close()}>
            Keep them
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            onClick={() => void withdraw()}
          >
            {busy ? 'Withdrawing…' : 'Withdraw my answers'}
          </button>
        </div>
      </dialog>
    </>
  );
}
