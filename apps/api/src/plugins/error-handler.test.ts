import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import errorHandler from './error-handler.js';

/** A database error as node-postgres (and PGlite, with the same fields) reports one. */
function databaseError(code: string, message: string): pg.DatabaseError {
  const err = new pg.DatabaseError(message, message.length, 'error');
  err.code = code;
  err.severity = 'ERROR';
  return err;
}

/** As Drizzle reports a failed query: its own error, with the driver's as the cause. */
const asDrizzle = (cause: Error) => Object.assign(new Error('Failed query: select 1'), { cause });

// Which failures of the database tell the client to come back later (503 and Retry-After), and
// which are a fault (500). The real failures are produced in reliability/partition.test.ts (a
// silent network), embedded-postgres.test.ts and the soak (a stopped server); a full disk was
// produced by hand (docs/reliability.md): PGlite and PostgreSQL both answer 53100.
describe('database failures as responses', () => {
  const app = Fastify();
  const failures: Record<string, Error> = {
    'disk full (53100)': databaseError('53100', 'could not extend file: No space left on device'),
    'out of memory (53200)': databaseError('53200', 'out of memory'),
    'too many connections (53300)': databaseError('53300', 'sorry, too many clients already'),
    'statement timeout (57014)': databaseError('57014', 'canceling statement due to timeout'),
    'shutting down (57P01)': databaseError('57P01', 'terminating connection'),
    'never answered': new Error('Query read timeout'),
    'no pool connection in time': new Error('timeout exceeded when trying to connect'),
    'connection lost': new Error('Connection terminated unexpectedly'),
  };
  const faults: Record<string, Error> = {
    'unique violation (23505)': databaseError('23505', 'duplicate key value'),
    'syntax error (42601)': databaseError('42601', 'syntax error at or near'),
    'a bug': new TypeError("Cannot read properties of undefined (reading 'id')"),
  };

  beforeAll(async () => {
    await app.register(errorHandler);
    app.get('/fail/:kind', async (request) => {
      const { kind } = request.params as { kind: string };
      throw asDrizzle((failures[kind] ?? faults[kind])!);
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it.each(Object.keys(failures))('%s: 503 with Retry-After, no internals', async (kind) => {
    const res = await app.inject(`/fail/${encodeURIComponent(kind)}`);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(res.body).not.toContain(failures[kind]!.message);
  });

  it.each(Object.keys(faults))('%s: 500, no internals', async (kind) => {
    const res = await app.inject(`/fail/${encodeURIComponent(kind)}`);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'INTERNAL' });
    expect(res.body).not.toContain(faults[kind]!.message);
  });
});
