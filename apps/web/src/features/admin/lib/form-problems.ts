import { ApiError } from '../../../lib/api-client';
import { actionErrorText } from './wording';

export type Problems<K extends string> = Partial<Record<K, string>>;

/** The contract's first message for each field of a form that failed to parse. */
export function problemsFromIssues<K extends string>(
  issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>,
): Problems<K> {
  const found: Problems<K> = {};
  for (const issue of issues) found[String(issue.path[0]) as K] ??= issue.message;
  return found;
}

/**
 * The API's refusal of a form: its field errors for `keys` beside their fields, and the rest
 * (another code, or fields the form does not show) as one message.
 */
export function problemsFromError<K extends string>(
  err: unknown,
  keys: readonly K[],
  fallback: string,
): { fields: Problems<K>; other: string | null } {
  if (err instanceof ApiError && err.code === 'VALIDATION_FAILED') {
    const fields: Problems<K> = {};
    for (const key of keys) {
      const message = err.fieldErrors[key]?.[0];
      if (message) fields[key] = message;
    }
    return { fields, other: Object.keys(fields).length ? null : err.message };
  }
  return { fields: {}, other: actionErrorText(err, fallback) };
}
