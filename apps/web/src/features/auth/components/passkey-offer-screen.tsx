import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { AuthCard, FormAlert } from '../../../components/form';
import { PageHead } from '../../../components/page-head';
import { ApiError } from '../../../lib/api-client';
import { useAuthStore } from '../../../lib/auth-store';
import { PasskeyCancelledError, addPasskey, passkeysAvailable } from '../../../lib/passkeys';
import { afterLoginPath } from '../../../lib/survey-storage';
import { successToast } from '../../../lib/toasts';
import '../styles/auth.css';

/**
 * Right after a staff member set up their authenticator app (decision 024): a passkey is offered,
 * the preferred factor for the next logins; the app stays as the fallback. Skipping it is fine:
 * the staff area's Passkeys tab adds one later.
 */
export function PasskeyOfferScreen() {
  const navigate = useNavigate();
  const auth = useAuthStore((s) => s.auth);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [tries, setTries] = useState(0);

  if (!auth || !passkeysAvailable()) return <Navigate to={afterLoginPath()} replace />;

  const onAdd = async () => {
    setBusy(true);
    setAlert(null);
    try {
      await addPasskey();
      successToast('Passkey added: use it at your next login');
      await navigate(afterLoginPath(), { replace: true });
    } catch (err) {
      setAlert(
        err instanceof PasskeyCancelledError
          ? 'No passkey was added: the browser’s prompt was closed. Try again, or skip it for now.'
          : err instanceof ApiError
            ? err.message
            : 'The passkey could not be added. Try again, or skip it for now.',
      );
      setTries((n) => n + 1);
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Add a passkey"
      lead={
        <p>
          Next time, log in with your fingerprint, face, screen lock or a security key instead of
          typing a code. Your authenticator app stays as the fallback.
        </p>
      }
      footer={<p>You can add or remove passkeys later in the staff area, under Passkeys.</p>}
    >
      <PageHead title="Add a passkey" />
      <FormAlert message={alert} tries={tries} />
      <div className="form">
        <button
          type="button"
          className="button button--primary button--block"
          disabled={busy}
          onClick={() => void onAdd()}
        >
          {busy ? 'Waiting for your passkey…' : 'Add a passkey'}
        </button>
        <button
          type="button"
          className="button button--block"
          disabled={busy}
          onClick={() => void navigate(afterLoginPath(), { replace: true })}
        >
          Not now
        </button>
      </div>
    </AuthCard>
  );
}
