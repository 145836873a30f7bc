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

/** The constraint an error of the database names (PostgreSQL and PGlite both report it). */
export function sqlConstraint(err: unknown): string | undefined {
  for (
    let e = err as { constraint?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (typeof e.constraint === 'string') return e.constraint;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** A row refers to one that is gone (foreign_key_violation). */
export const FOREIGN_KEY_VIOLATION = '23503';

/** A value is taken already (unique_violation). */
export const UNIQUE_VIOLATION = '23505';
