import { UPLOAD_IMAGE_TYPES } from '@candor/contracts';
import { useId, useRef, useState } from 'react';
import { successToast } from '../../../../lib/toasts';
import { ApiError } from '../../../../lib/api-client';
import { useUploadImage } from '../../api/authoring';
import { imageProblem } from '../../lib/authoring';

/** What to say when the API refuses an upload, by its code. */
function uploadErrorText(err: unknown): string {
  if (!(err instanceof ApiError)) return 'The image could not be uploaded. Try again.';
  switch (err.code) {
    case 'PAYLOAD_TOO_LARGE':
      return 'That image is too big: images can be at most 5 MB.';
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 'Choose a JPEG, PNG, WebP or GIF image.';
    case 'VALIDATION_FAILED':
      return err.messages[0] ?? 'That file is not an image we can read.';
    case 'NETWORK':
    case 'RATE_LIMITED':
      return err.message;
    default:
      return 'The image could not be uploaded. Try again.';
  }
}

/**
 * An image of the survey: pick a file, it is checked here and uploaded at once; the field's value
 * is the stored image's address, shown as a thumbnail with a button to remove it.
 */
export function ImageField({
  label,
  hint,
  value,
  onChange,
  error,
}: {
  label: string;
  hint: string;
  value: string | null;
  onChange: (url: string | null) => void;
  /** A server or schema error about this field. */
  error?: string | undefined;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadImage();
  const [problem, setProblem] = useState<string | null>(null);
  const shown = problem ?? error;

  const pick = (file: File | undefined) => {
    if (!file) return;
    const local = imageProblem(file);
    setProblem(local);
    if (local) return;
    upload.mutate(file, {
      onSuccess: (image) => {
        onChange(image.url);
        successToast(`${label} uploaded`);
      },
      onError: (err) => setProblem(uploadErrorText(err)),
      onSettled: () => {
        // The same file can be picked again after a failure or a removal.
        if (input.current) input.current.value = '';
      },
    });
  };

  return (
    <div className={`field image-field${shown ? ' field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <p id={`${id}-hint`} className="field__hint">
        {hint}
      </p>
      <div className="image-field__body">
        <div className="image-field__preview" aria-busy={upload.isPending}>
          {value ? (
            <img src={value} alt={`${label}: current image`} width={320} height={180} />
          ) : (
            <span className="image-field__empty">
              {upload.isPending ? 'Uploading…' : 'No image'}
            </span>
          )}
        </div>
        <div className="image-field__actions">
          {/* The native picker is hidden behind a button-like label; it keeps the focus. */}
          <input
            ref={input}
            id={id}
            className="image-field__input"
            type="file"
            accept={UPLOAD_IMAGE_TYPES.join(',')}
            disabled={upload.isPending}
            aria-describedby={`${id}-hint${shown ? ` ${id}-error` : ''}`}
            aria-invalid={shown ? true : undefined}
            onChange={(e) => pick(e.target.files?.[0])}
          />
          <label htmlFor={id} className="button image-field__pick" aria-hidden="true">
            {value ? 'Replace image' : 'Choose an image'}
          </label>
          {upload.isPending ? (
            <p className="image-field__status" role="status">
              Uploading…
            </p>
          ) : null}
          {value ? (
            <button
              type="button"
              className="button button--danger-outline"
              disabled={upload.isPending}
              aria-label={`Remove the ${label.toLowerCase()}`}
              onClick={() => {
                setProblem(null);
                onChange(null);
              }}
            >
              Remove
            </button>
          ) : null}
        </div>
      </div>
      {shown ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {shown}
        </p>
      ) : null}
    </div>
  );
}
