/** The SQLSTATE (or Node error code) of an error or of one of its causes, if any. */
export function sqlState(err: unknown): string | undefined {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (typeof e.code === 'string') return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** A row refers to one that is gone (foreign_key_violation). */
export const FOREIGN_KEY_VIOLATION = '23503';
