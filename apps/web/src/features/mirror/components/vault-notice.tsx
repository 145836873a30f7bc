import { useRef, useState } from 'react';
import { useAuthStore } from '../../../lib/auth-store';
import { errorToast, successToast } from '../../../lib/toasts';
import { replaceLockedVault, useVaultStore, type VaultLockReason } from '../../../lib/vault';

/** Why the vault is locked here, in plain words, and the way on. */
const WORDS: Record<VaultLockReason, { text: string; relogin: boolean }> = {
  'no-key': {
    text: 'This device does not hold the key to your vault yet. Log in again with your password to open it: answers you gave on your other devices then appear here.',
    relogin: true,
  },
  replaced: {
    text: 'Your vault was started again on another device, and this device’s key no longer opens it. Log in again with your password to open the new one.',
    relogin: true,
  },
  'password-changed': {
    text: 'Your vault is sealed under your old password, and this device does not hold its key. If Candor is still open on one of your other devices, use it there once: it seals the vault under your new password. Otherwise, start a new vault here.',
    relogin: false,
  },
  damaged: {
    text: 'Your vault could not be read: it is damaged. You can start a new vault with what this device holds.',
    relogin: false,
  },
};

/**
 * The member's vault (decision 020) when it cannot be opened on this device: what that means,
 * and what they can do. Nothing is shown while it opens or works.
 */
export function VaultNotice() {
  const { status, reason, canStartNew } = useVaultStore();
  const logout = useAuthStore((s) => s.logout);
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  if (status !== 'locked' || !reason) return null;
  const words = WORDS[reason];

  const startNew = async () => {
    setBusy(true);
    try {
      await replaceLockedVault();
      dialog.current?.close();
      successToast('A new vault holds what this device has');
    } catch (err) {
      errorToast(err instanceof Error ? err.message : 'The new vault could not be saved.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="me-section me-notice" aria-labelledby="me-vault">
      <h2 id="me-vault">Your vault is locked on this device</h2>
      <p>{words.text}</p>
      <p className="me-section__note">
        Your answers on this device are safe and still count. The vault keeps a copy, sealed with a
        key only your devices hold, so that your other devices can show them.
      </p>
      <div className="me-about__actions">
        {words.relogin ? (
          <button type="button" className="button button--primary" onClick={() => void logout()}>
            Log out to log in again
          </button>
        ) : null}
        {canStartNew ? (
          <button type="button" className="button" onClick={() => dialog.current?.showModal()}>
            Start a new vault
          </button>
        ) : null}
      </div>
      <dialog ref={dialog} className="confirm" aria-labelledby="me-vault-confirm">
        <h2 id="me-vault-confirm" className="confirm__title">
          Start a new vault?
        </h2>
        <p className="confirm__text">
          The new vault holds what this device has. Answers, ratings and credentials that only the
          old vault holds (given on devices you no longer use) are lost, and their surveys cannot be
          answered again.
        </p>
        <div className="confirm__actions">
          <button type="button" className="button" onClick={() => dialog.current?.close()}>
            Keep the old vault
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            onClick={() => void startNew()}
          >
            {busy ? 'Starting…' : 'Start a new vault'}
          </button>
        </div>
      </dialog>
    </section>
  );
}
