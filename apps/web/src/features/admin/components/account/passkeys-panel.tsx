import type { Passkey } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { PageHead } from '../../../../components/page-head';
import { ApiError } from '../../../../lib/api-client';
import { useAuthStore } from '../../../../lib/auth-store';
import { PasskeyCancelledError, passkeysAvailable } from '../../../../lib/passkeys';
import { successToast } from '../../../../lib/toasts';
import { adminQueries, useAddPasskey, useRemovePasskey } from '../../api/admin';
import { actionErrorText } from '../../lib/wording';
import { ConfirmDialog } from '../confirm-dialog';
import { ListError, ListLoading } from '../list-states';
import { When } from '../when';

const TRANSPORT_WORDS: Record<string, string> = {
  internal: 'this device',
  hybrid: 'a phone',
  usb: 'USB',
  nfc: 'NFC',
  ble: 'Bluetooth',
};

/** Where the passkey lives, as far as the browser said ("this device, a phone"). */
const whereOf = (passkey: Passkey) =>
  passkey.transports
    .map((t) => TRANSPORT_WORDS[t])
    .filter(Boolean)
    .join(', ');

/**
 * The staff member's own sign-in (decision 024): their passkeys, the preferred second factor,
 * to add and remove; the authenticator app stays as the fallback (only an admin's reset
 * removes it), so removing every passkey still leaves a factor.
 */
export function PasskeysPanel() {
  const list = useQuery(adminQueries.passkeys());
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [removing, setRemoving] = useState<Passkey | null>(null);
  // The server asks for a recent second step to change passkeys (a step-up): said in place.
  const [reauth, setReauth] = useState(false);
  const logout = useAuthStore((s) => s.logout);
  const available = passkeysAvailable();
  const needsReauth = (err: unknown) => {
    const stale = err instanceof ApiError && err.code === 'REAUTH_REQUIRED';
    if (stale) setReauth(true);
    return stale;
  };

  const onAdd = () =>
    add.mutate(undefined, {
      onSuccess: () => successToast('Passkey added: use it at your next login'),
      onError: (err) => {
        if (needsReauth(err)) return;
        toast.error(
          err instanceof PasskeyCancelledError
            ? 'No passkey was added: the browser’s prompt was closed. Try again when ready.'
            : actionErrorText(err, 'The passkey could not be added. Try again.'),
        );
      },
    });

  const onRemove = (passkey: Passkey) => {
    setRemoving(null);
    remove.mutate(passkey.id, {
      onSuccess: () => successToast(`${passkey.name} removed`),
      onError: (err) => {
        if (!needsReauth(err))
          toast.error(actionErrorText(err, 'The passkey could not be removed.'));
      },
    });
  };

  const passkeys = list.data?.results;
  return (
    <section className="admin-panel passkeys" aria-labelledby="passkeys-title">
      <PageHead title="Passkeys" />
      <div className="admin-panel__head">
        <h1 id="passkeys-title" className="admin-panel__title">
          Passkeys
        </h1>
      </div>
      <p className="admin-panel__lead">
        Log in with your fingerprint, face, screen lock or a security key instead of a code. Your
        authenticator app stays as the fallback.
      </p>
      {list.isError ? (
        <ListError what="Your passkeys" onRetry={() => void list.refetch()} />
      ) : !passkeys ? (
        <ListLoading label="Loading your passkeys" />
      ) : passkeys.length === 0 ? (
        <div className="admin-empty">
          <p className="admin-empty__title">No passkeys yet</p>
          <p>Your logins ask for a code from your authenticator app.</p>
        </div>
      ) : (
        <ul className="passkeys__list" aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="passkeys__item">
              <div className="passkeys__about">
                <p className="passkeys__name">{passkey.name}</p>
                <p className="passkeys__meta">
                  Added <When at={passkey.created_at} />
                  {passkey.last_used_at ? (
                    <>
                      {' · '}last used <When at={passkey.last_used_at} />
                    </>
                  ) : (
                    ' · not used yet'
                  )}
                  {whereOf(passkey) ? ` · ${whereOf(passkey)}` : ''}
                </p>
              </div>
              <button
                type="button"
                className="button"
                disabled={remove.isPending}
                aria-label={`Remove ${passkey.name} added ${new Date(passkey.created_at).toLocaleString('en-GB')}`}
                onClick={() => setRemoving(passkey)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {reauth ? (
        <div className="notice notice--error passkeys__reauth" role="alert">
          <p>
            For your safety, adding or removing a passkey needs a login from the last 10 minutes.
            Log in again with your password and second factor, then come back here.
          </p>
          <button type="button" className="button button--primary" onClick={() => void logout()}>
            Log out to log in again
          </button>
        </div>
      ) : null}
      {available ? (
        <button
          type="button"
          className="button button--primary passkeys__add"
          disabled={add.isPending}
          onClick={onAdd}
        >
          {add.isPending ? 'Waiting for your passkey…' : 'Add a passkey'}
        </button>
      ) : (
        <p className="admin-panel__lead">
          This browser cannot make passkeys here. Open Candor at its usual address in a current
          browser to add one.
        </p>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this passkey?"
        confirmLabel="Remove passkey"
        danger
        onConfirm={() => removing && onRemove(removing)}
        onCancel={() => setRemoving(null)}
      >
        <p>
          You will not be able to log in with it any more. Your authenticator app’s codes still
          work.
        </p>
      </ConfirmDialog>
    </section>
  );
}
