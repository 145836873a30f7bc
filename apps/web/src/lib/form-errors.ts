import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from './api-client';
import { errorToast } from './toasts';

/**
 * Puts the contract's validation issues under their fields (the first issue of each field), and
 * returns the messages that belong to no field of the form.
 */
export function applyIssues<T extends FieldValues>(
  issues: readonly z.core.$ZodIssue[],
  setError: UseFormSetError<T>,
  fields: ReadonlyArray<Path<T>>,
  pathOf: (path: readonly PropertyKey[]) => string = (path) => String(path[0] ?? ''),
): string[] {
  const seen = new Set<string>();
  const rest: string[] = [];
  for (const issue of issues) {
    const name = pathOf(issue.path);
    if ((fields as readonly string[]).includes(name)) {
      if (!seen.has(name)) setError(name as Path<T>, { type: 'schema', message: issue.message });
      seen.add(name);
    } else {
      rest.push(issue.message);
    }
  }
  return rest;
}

/**
 * Puts an API failure's field errors under their fields and returns what to say elsewhere: the
 * `non_field_errors`, a refusal's detail (`ANSWERS_EXIST`, `INVALID_STATE`...), or `fallback`.
 */
export function applyServerErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: ReadonlyArray<Path<T>>,
  fallback: string,
  rename: (field: string) => string = (field) => field,
): string[] {
  if (!(err instanceof ApiError)) return [fallback];
  if (err.code !== 'VALIDATION_FAILED') return [err.code === 'INTERNAL' ? fallback : err.message];
  const fieldErrors = err.fieldErrors;
  const rest: string[] = [...(fieldErrors.non_field_errors ?? [])];
  let shown = false;
  for (const [field, messages] of Object.entries(fieldErrors)) {
    if (field === 'non_field_errors' || !messages[0]) continue;
    const name = rename(field);
    if ((fields as readonly string[]).includes(name)) {
      setError(name as Path<T>, { type: 'server', message: messages[0] });
      shown = true;
    } else {
      rest.push(...messages);
    }
  }
  return rest.length || shown ? rest : [err.message];
}

/**
 * Shows an API failure where a person looks for it: field errors under their fields, the rest
 * (`non_field_errors` each, else `detail`) as error toasts (spec section 5).
 */
export function showServerErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: ReadonlyArray<Path<T>>,
): void {
  for (const message of applyServerErrors(
    err,
    setError,
    fields,
    'Something went wrong. Please try again.',
  )) {
    errorToast(message);
  }
}
