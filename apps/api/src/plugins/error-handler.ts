import type { ErrorCode } from '@candor/contracts';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  AppError,
  RateLimitedError,
  ServiceUnavailableError,
  statusOfCode,
} from '../lib/app-error.js';
import { withSecurityHeaders } from './security-headers.js';

const NON_FIELD = 'non_field_errors';

// Connection-level failures of the database, a statement cancelled by the server's statement
// timeout (57014), and class 53, insufficient resources (53100 disk full, as PGlite and
// PostgreSQL say it; out of memory; too many connections): the client should retry later,
// nothing is wrong with its request.
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P03',
  '57014',
]);
// node-postgres's own: a connection lost or not opened in time, a statement never answered (its
// query_timeout), no pool connection free in time (db/connections.ts).
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connect ECONNREFUSED|Query read timeout|timeout exceeded when trying to connect|not queryable/;

function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (typeof e.code === 'string' && (UNAVAILABLE.has(e.code) || e.code.startsWith('53'))) {
      return true;
    }
    if (e instanceof Error && UNAVAILABLE_MESSAGE.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

function codeForStatus(status: number): ErrorCode {
  const entry = Object.entries(statusOfCode).find(([, s]) => s === status);
  return (
    (entry?.[0] as ErrorCode | undefined) ?? (status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED')
  );
}

function sendError(reply: FastifyReply, code: ErrorCode, detail?: string) {
  const err = new AppError(code, detail);
  return reply.status(err.status).send({ detail: err.message, code });
}

/**
 * The one place errors become responses, in the spec's convention: field errors as
 * `{field: [messages]}` (+ `non_field_errors`), everything else as `{detail, code}`.
 * 5xx bodies never carry internals; they are logged with the request id instead.
 */
async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler(
    (error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
      if (error instanceof AppError) {
        if (error instanceof RateLimitedError) {
          reply.header('Retry-After', String(error.retryAfterSeconds));
        }
        if (error instanceof ServiceUnavailableError) {
          if (error.cause) request.log.warn({ err: error.cause }, 'dependency unavailable');
          reply.header('Retry-After', String(error.retryAfterSeconds));
        }
        if (error.fields) return reply.status(error.status).send(error.fields);
        return reply.status(error.status).send({ detail: error.message, code: error.code });
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const fields: Record<string, string[]> = {};
        // Named here: the guard's own element type does not resolve under NodeNext (the
        // library imports "fastify/types/schema", a path without an extension).
        const issues = error.validation as FastifySchemaValidationError[];
        for (const issue of issues) {
          const field = issue.instancePath.split('/').find(Boolean) ?? NON_FIELD;
          const message = issue.message ?? 'Invalid value.';
          // Each problem once: two empty choices are one problem of `choices`, not two.
          const messages = (fields[field] ??= []);
          if (!messages.includes(message)) messages.push(message);
        }
        return reply.status(400).send(fields);
      }
      const status = error.statusCode ?? 500;
      if (status < 500) {
        if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
          return reply.status(400).send({ [NON_FIELD]: ['The request body is not valid JSON.'] });
        }
        if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
          return reply.status(400).send({ [NON_FIELD]: ['The request body is empty.'] });
        }
        if (status === 413) {
          // A route with its own limit says what it is (`config.tooLarge`).
          const own = (request.routeOptions.config as { tooLarge?: string } | undefined)?.tooLarge;
          return sendError(reply, 'PAYLOAD_TOO_LARGE', own);
        }
        if (status === 415 || status === 429) return sendError(reply, codeForStatus(status));
        return sendError(reply, codeForStatus(status), error.message);
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'database unavailable');
        return sendError(reply.header('Retry-After', '2'), 'SERVICE_UNAVAILABLE');
      }
      request.log.error({ err: error }, 'unhandled error');
      return sendError(reply, 'INTERNAL');
    },
  );
}

/** JSON 404 for unknown paths of a scope (the API's). */
export function jsonNotFound(_request: FastifyRequest, reply: FastifyReply) {
  return sendError(reply, 'NOT_FOUND');
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot take apart (bad percent-encoding, a path
 * segment over maxParamLength) names nothing that exists, so it gets the JSON 404 of any unknown
 * path instead of Fastify's own 400/414 body (which also echoed the path back).
 */
export function routerError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  // The router answers before any hook runs: these headers are set here.
  withSecurityHeaders(reply).header('Cache-Control', 'no-store');
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    jsonNotFound(request, reply);
  } else {
    reply.send(error); // to the error handler
  }
}

export default fp(errorHandler, { name: 'error-handler' });
