import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * Asks before a consequential staff action (a native modal dialog: focus is trapped, Escape
 * cancels). Open while `open` is true; either button, or Escape, closes it.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger = false,
  confirmDisabled = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  /** The confirm button waits (for example until the survey's name is typed). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="confirm"
      aria-labelledby={titleId}
      aria-describedby={children ? textId : undefined}
      onClose={() => {
        if (open) onCancel();
      }}
    >
      <div className="form">
        <h2 id={titleId} className="confirm__title">
          {title}
        </h2>
        {children ? (
          <div id={textId} className="confirm__note">
            {children}
          </div>
        ) : null}
        <div className="confirm__actions">
          <button type="button" className="button" onClick={onCancel}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={`button ${danger ? 'button--danger' : 'button--primary'}`}
            disabled={confirmDisabled}
            onClick={onConfirm}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
