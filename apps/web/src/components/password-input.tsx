import { type ComponentPropsWithRef, useState } from 'react';
import './password-input.css';

/** A password input with a show/hide toggle. */
export function PasswordInput({
  describedBy,
  invalid,
  ref,
  ...props
}: ComponentPropsWithRef<'input'> & { describedBy?: string | undefined; invalid?: boolean }) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="password-input">
      <input
        ref={ref}
        {...props}
        type={visible ? 'text' : 'password'}
        className="input"
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        spellCheck={false}
        autoCapitalize="off"
      />
      <button
        type="button"
        className="password-input__toggle"
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
      >
        {visible ? 'Hide' : 'Show'}
      </button>
    </div>
  );
}
