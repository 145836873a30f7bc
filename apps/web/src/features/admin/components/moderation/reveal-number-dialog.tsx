import { REVEAL_REASON_MAX } from '@candor/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { Field } from '../../../../components/form';

/**
 * Asks an admin why they need an account's whole number before it is revealed (PRODUCT.md: only
 * after an explicit, audited act). The reason goes to the audit log with their name. A native
 * modal dialog: focus is trapped, Escape cancels. Keyed by account, so each opens empty.
 */
export function RevealNumberDialog({
  masked,
  open,
  busy,
  error,
  onReveal,
  onCancel,
}: {
  /** The account's number as staff see it, to name whose number this is. */
  masked: string;
  open: boolean;
  busy: boolean;
  /** The API's word on the reason, when it refused it. */
  error?: string | undefined;
  onReveal: (reason: string) => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const noteId = useId();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);

  const shownError = missing ? 'Say why you need the whole number.' : error;

  return (
    <dialog
      ref={dialog}
      className="confirm"
      aria-labelledby={titleId}
      aria-describedby={noteId}
      onClose={() => {
        if (open) onCancel();
      }}
    >
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (reason.trim().length < 3) {
            setMissing(true);
            input.current?.focus();
            return;
          }
          onReveal(reason.trim());
        }}
      >
        <h2 id={titleId} className="confirm__title">
          Reveal the number <span className="confirm__number">{masked}</span>?
        </h2>
        <p id={noteId} className="confirm__note">
          The whole number is shown here, and the audit log records that you revealed it and why.
        </p>
        <Field label="Why do you need it?" error={shownError}>
          {({ id, describedBy, invalid }) => (
            <input
              ref={input}
              id={id}
              className="input"
              type="text"
              autoComplete="off"
              maxLength={REVEAL_REASON_MAX}
              placeholder="e.g. Support request: they cannot log in"
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setMissing(false);
              }}
            />
          )}
        </Field>
        <div className="confirm__actions">
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            Reveal number
          </button>
        </div>
      </form>
    </dialog>
  );
}
