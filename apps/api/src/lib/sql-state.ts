/** A property of an error of the database, or of one of its causes (drivers wrap them). */
function fromCause(err: unknown, key: 'code' | 'constraint'): string | undefined {
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e[key] === 'string') return e[key];
    e = e.cause as Record<string, unknown> | undefined;
  }
  return undefined;
}

/** The SQLSTATE (or Node error code) of an error or of one of its causes, if any. */
export const sqlState = (err: unknown) => fromCause(err, 'code');

/** The constraint an error of the database names (PostgreSQL and PGlite both report it). */
export const sqlConstraint = (err: unknown) => fromCause(err, 'constraint');

/** A row refers to one that is gone (foreign_key_violation). */
export const FOREIGN_KEY_VIOLATION = '23503';

/** A value is taken already (unique_violation). */
export const UNIQUE_VIOLATION = '23505';
