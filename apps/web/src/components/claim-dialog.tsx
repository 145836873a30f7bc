import { useEffect, useId, useRef, useState } from 'react';
import { claimVisitorAnswers, discardVisitorAnswers, useLocalAnswers } from '../lib/local-answers';
import { errorToast, successToast } from '../lib/toasts';
import './claim-dialog.css';

/**
 * Asks a person who just logged in whether the answers given in this browser session before
 * the login are theirs (issue 28: on a shared browser they may be someone else's). A native
 * modal dialog: focus is trapped, the page behind is inert. It needs a choice: Escape does not
 * close it (a closed question would leave the answers neither counted nor gone).
 */
export function ClaimDialog() {
  const offered = useLocalAnswers((s) => s.offered);
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const textId = useId();
  const open = offered > 0;

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      el.showModal();
      // The question first, read out whole; Tab then reaches the two answers to it.
      heading.current?.focus();
    }
    if (!open && el.open) el.close();
  }, [open]);

  const decide = async (add: boolean) => {
    setBusy(true);
    try {
      if (add) {
        await claimVisitorAnswers();
        successToast(offered === 1 ? 'Your answer was added' : 'Your answers were added');
      } else {
        await discardVisitorAnswers();
        successToast(offered === 1 ? 'The answer was discarded' : 'The answers were discarded');
      }
    } catch {
      errorToast('That did not work on this device. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  const answers = offered === 1 ? 'the answer' : `the ${offered} answers`;
  return (
    <dialog
      ref={dialog}
      className="confirm claim"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(e) => e.preventDefault()}
      onClose={() => {
        // A browser may close a modal on a second Escape whatever the page says: ask again.
        if (useLocalAnswers.getState().offered > 0) dialog.current?.showModal();
      }}
    >
      <div className="form">
        <h2 id={titleId} ref={heading} tabIndex={-1} className="confirm__title">
          Add {answers} you gave on this device to your account?
        </h2>
        <div id={textId} className="claim__text">
          <p>
            {offered === 1 ? 'It was' : 'They were'} given in this browser before you logged in. Add{' '}
            {offered === 1 ? 'it' : 'them'} only if {offered === 1 ? 'it is' : 'they are'} yours:
            added answers are counted as yours, once.
          </p>
          <p>Discard {offered === 1 ? 'it' : 'them'} if someone else used this device.</p>
        </div>
        <div className="confirm__actions">
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void decide(false)}
          >
            Discard
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={busy}
            onClick={() => void decide(true)}
          >
            {offered === 1 ? 'Add my answer' : `Add my ${offered} answers`}
          </button>
        </div>
      </div>
    </dialog>
  );
}
