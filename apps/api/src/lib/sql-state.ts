/** A property of an error of the database, or of one of its causes (drivers wrap them). */
function fromCause(err: unknown, key: 'code' | 'constraint'): string | undefined {
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e[key] === 'string') return e[key];
    e = e.cause as Record<string, unknown> | undefined;
  }
  return undefined;
}

/** The constraint an error of the database names, if any (unique and check violations). */
export const sqlConstraint = (err: unknown) => fromCause(err, 'constraint');

/** The SQLSTATE (or Node error code) of an error or of one of its causes, if any. */
export const sqlState = (err: unknown) => fromCause(err, 'code');

/** A value is taken already (unique_violation). */
export const UNIQUE_VIOLATION = '23505';
