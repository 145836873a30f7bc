import type { FastifyRequest } from 'fastify';

/**
 * What of a request reaches a log line: its method, host and route, never its address (the
 * privacy page keeps addresses only as keyed hashes) nor any value in its path or query (an
 * admin's phone search, the tag of a member's answer timing, a panel code): the route's pattern
 * where one matched, else the path alone.
 */
export function loggableRequest(req: unknown): unknown {
  // Anything else logged as `req` is left to the redaction paths (app.ts).
  if (!isFastifyRequest(req)) return req;
  return {
    method: req.method,
    host: req.host,
    url: req.routeOptions.url ?? (req.url.split('?')[0] ?? '').slice(0, 200),
  };
}

const isFastifyRequest = (req: unknown): req is FastifyRequest =>
  typeof req === 'object' && req !== null && 'routeOptions' in req && 'raw' in req;

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
