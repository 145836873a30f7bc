import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { toast } from 'sonner';
import { ApiError } from '../../../lib/api-client';

/**
 * Shows an API failure where a person looks for it: field errors under their fields, the rest
 * (`non_field_errors` each, else `detail`) as error toasts (spec section 5).
 */
export function showServerErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): void {
  if (!(err instanceof ApiError)) {
    toast.error('Something went wrong. Please try again.');
    return;
  }
  const fieldErrors = err.fieldErrors;
  let shown = false;
  for (const field of fields) {
    const message = fieldErrors[field]?.[0];
    if (message) {
      setError(field, { type: 'server', message });
      shown = true;
    }
  }
  if (fieldErrors.non_field_errors?.length) {
    for (const message of fieldErrors.non_field_errors) toast.error(message);
  } else if (!shown) {
    toast.error(err.message);
  }
}
