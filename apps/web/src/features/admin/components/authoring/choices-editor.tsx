import { LEAVE_BLANK_CHOICE, MAX_CHOICES } from '@candor/contracts';
import { useId } from 'react';
import {
  type Control,
  type FieldErrors,
  type UseFormRegister,
  useFieldArray,
} from 'react-hook-form';
import { type QuestionFormValues, isLocked } from '../../lib/authoring';
import { useRefocus } from './use-refocus';

function LockIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M4 7V5a4 4 0 1 1 8 0v2h.5A1.5 1.5 0 0 1 14 8.5v5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 13.5v-5A1.5 1.5 0 0 1 3.5 7H4Zm2 0h4V5a2 2 0 1 0-4 0v2Z"
      />
    </svg>
  );
}

/**
 * The choices of a closed question: add, remove, rename and reorder rows. A saved choice of a
 * published survey is locked: it can move, but neither be removed nor renamed. The leave-blank
 * choice is not a row: the API adds it, always last.
 */
export function ChoicesEditor({
  control,
  register,
  errors,
  locked: lockedLabels,
  onEdit,
}: {
  control: Control<QuestionFormValues>;
  register: UseFormRegister<QuestionFormValues>;
  errors: FieldErrors<QuestionFormValues>;
  /** Labels that stay (the survey is published): they can be moved, not removed or renamed. */
  locked: readonly string[];
  /** Any change to the choices: their errors are then out of date. */
  onEdit?: () => void;
}) {
  const base = useId();
  const { fields, append, remove, move } = useFieldArray({ control, name: 'choices' });
  const refocus = useRefocus();
  const groupError = errors.choices?.message;
  const anyLocked = fields.some((f) => isLocked(f, lockedLabels));

  const moveRow = (index: number, delta: -1 | 1) => {
    const id = fields[index]!.id;
    onEdit?.();
    move(index, index + delta);
    const [first, second] = delta < 0 ? ['up', 'down'] : ['down', 'up'];
    refocus(`${base}-${id}-${first}`, `${base}-${id}-${second}`);
  };

  return (
    <fieldset className="choices">
      <legend className="field__label">Choices</legend>
      <p className="field__hint">
        In the order people see them (unless shuffled). “{LEAVE_BLANK_CHOICE}” is added
        automatically as the last choice.
        {anyLocked
          ? ' The survey is published, so its choices can be moved, not removed or renamed.'
          : ''}
      </p>
      <ol className="choices__list">
        {fields.map((field, index) => {
          const locked = isLocked(field, lockedLabels);
          const rowError = errors.choices?.[index]?.label?.message;
          const number = index + 1;
          return (
            <li key={field.id} className={`choices__row${locked ? ' choices__row--locked' : ''}`}>
              <span className="choices__number" aria-hidden="true">
                {number}
              </span>
              <div className="choices__field">
                <input
                  className="input"
                  aria-label={`Choice ${number}`}
                  aria-invalid={rowError ? true : undefined}
                  aria-describedby={
                    [
                      locked ? `${base}-${field.id}-lock` : '',
                      rowError ? `${base}-${field.id}-error` : '',
                    ]
                      .filter(Boolean)
                      .join(' ') || undefined
                  }
                  readOnly={locked}
                  maxLength={120}
                  {...register(`choices.${index}.label`, { onChange: onEdit })}
                />
                {locked ? (
                  <p id={`${base}-${field.id}-lock`} className="choices__lock">
                    <LockIcon /> Published: can be moved, not removed or renamed.
                  </p>
                ) : null}
                {rowError ? (
                  <p id={`${base}-${field.id}-error`} className="field__error" role="alert">
                    {rowError}
                  </p>
                ) : null}
              </div>
              <div className="choices__actions">
                <button
                  type="button"
                  id={`${base}-${field.id}-up`}
                  className="icon-button"
                  aria-label={`Move choice ${number} up`}
                  disabled={index === 0}
                  onClick={() => moveRow(index, -1)}
                >
                  <span aria-hidden="true">↑</span>
                </button>
                <button
                  type="button"
                  id={`${base}-${field.id}-down`}
                  className="icon-button"
                  aria-label={`Move choice ${number} down`}
                  disabled={index === fields.length - 1}
                  onClick={() => moveRow(index, 1)}
                >
                  <span aria-hidden="true">↓</span>
                </button>
                {locked ? null : (
                  <button
                    type="button"
                    className="icon-button icon-button--danger"
                    aria-label={`Remove choice ${number}`}
                    onClick={() => {
                      const next = fields[index + 1] ?? fields[index - 1];
                      onEdit?.();
                      remove(index);
                      refocus(next ? `${base}-${next.id}-remove` : `${base}-add`, `${base}-add`);
                    }}
                    id={`${base}-${field.id}-remove`}
                  >
                    <span aria-hidden="true">×</span>
                  </button>
                )}
              </div>
            </li>
          );
        })}
        <li className="choices__row choices__row--auto">
          <span className="choices__number" aria-hidden="true">
            {fields.length + 1}
          </span>
          <p className="choices__auto">
            {LEAVE_BLANK_CHOICE} <span className="choices__auto-note">added automatically</span>
          </p>
        </li>
      </ol>
      {groupError ? (
        <p className="field__error" role="alert">
          {groupError}
        </p>
      ) : null}
      <div className="choices__add">
        <button
          type="button"
          id={`${base}-add`}
          className="button"
          disabled={fields.length >= MAX_CHOICES}
          onClick={() => {
            onEdit?.();
            append({ label: '', original: null });
          }}
        >
          Add a choice
        </button>
        {fields.length >= MAX_CHOICES ? (
          <span className="field__hint">At most {MAX_CHOICES} choices.</span>
        ) : null}
      </div>
    </fieldset>
  );
}
