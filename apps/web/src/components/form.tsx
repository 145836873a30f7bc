import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { applyServerErrors } from '../lib/form-errors';
import './form.css';

/** A labelled form field with its hint and error, wired for screen readers. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  children: (props: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {hint ? (
        <div id={hintId} className="field__hint">
          {hint}
        </div>
      ) : null}
      {children({ id, describedBy, invalid: Boolean(error) })}
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The centred card of the account screens. */
export function AuthCard({
  title,
  lead,
  children,
  footer,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section className="auth-card">
      <h1>{title}</h1>
      {lead ? <div className="auth-card__lead">{lead}</div> : null}
      {children}
      {footer ? <div className="auth-card__footer">{footer}</div> : null}
    </section>
  );
}

/**
 * What went wrong that is no one field's (a refused login, a lock, the network), said in the
 * card below its heading, where the eye already is; `tries` re-announces the same message.
 */
export function FormAlert({ message, tries = 0 }: { message: string | null; tries?: number }) {
  if (!message) return null;
  return (
    <p key={tries} className="form-alert" role="alert" tabIndex={-1}>
      {message}
    </p>
  );
}

/**
 * After each failed try, focus goes to the form's first invalid field in reading order (the
 * fields mark themselves with aria-invalid), its text selected so typing replaces it; with none,
 * to the card's alert (FormAlert, a sibling of the form). `failed()` may be called before the
 * errors are drawn (react-hook-form draws them after its onInvalid): the focus waits for them.
 */
export function useFocusFirstInvalid() {
  const ref = useRef<HTMLFormElement>(null);
  const pending = useRef(false);
  const [tries, setTries] = useState(0);
  // After every render while a failure waits: the first render that shows its errors takes it.
  useEffect(() => {
    if (!pending.current) return;
    const target =
      ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      ref.current?.parentElement?.querySelector<HTMLElement>('.form-alert');
    if (!target) return;
    pending.current = false;
    // Centred, not merely in view: the sticky header would cover a field at the top edge.
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'center' });
    if (target instanceof HTMLInputElement && /^(text|tel|password)$/.test(target.type)) {
      target.select();
    }
  });
  const failed = useCallback(() => {
    pending.current = true;
    setTries((n) => n + 1);
  }, []);
  return { formRef: ref, failed, tries };
}

const TRY_AGAIN = 'Something went wrong. Please try again.';

/**
 * A form's failures, one way for every account screen: `start()` before a try clears the last
 * alert; `invalid()` when the form's own check fails; `refused(err)` when the API says no (its
 * field errors under `fields`, the rest in the card's alert, FormAlert). Either way focus goes
 * to the first invalid field, or to the alert (useFocusFirstInvalid).
 */
export function useFormFailure<T extends FieldValues>(
  setError: UseFormSetError<T>,
  fields: ReadonlyArray<Path<T>>,
) {
  const { formRef, failed, tries } = useFocusFirstInvalid();
  const [alert, setAlert] = useState<string | null>(null);
  return {
    formRef,
    tries,
    alert,
    start: () => setAlert(null),
    invalid: () => {
      setAlert(null);
      failed();
    },
    refused: (err: unknown) => {
      setAlert(applyServerErrors(err, setError, fields, TRY_AGAIN).join(' ') || null);
      failed();
    },
  };
}
