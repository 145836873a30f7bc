/**
 * What of an error may reach a log line. Database errors carry the statement's parameters
 * (Drizzle puts them in the message: an answer's text, a phone number, a uuid next to its
 * pseudonym) and PostgreSQL's `detail` names key values; both are dropped. The SQLSTATE code,
 * the constraint and the stack frames stay, which is what debugging needs.
 */
export function loggableError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  const e = err as Error & Record<string, unknown>;
  const fromDatabase = 'params' in e || 'query' in e || typeof e.severity === 'string';
  const frames = (e.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return {
    type: e.name,
    ...(fromDatabase ? {} : { message: e.message }),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.constraint === 'string' ? { constraint: e.constraint } : {}),
    ...(typeof e.table === 'string' ? { table: e.table } : {}),
    ...(typeof e.statusCode === 'number' ? { statusCode: e.statusCode } : {}),
    stack: frames.join('\n'),
    ...(e.cause !== undefined ? { cause: loggableError(e.cause) } : {}),
  };
}
