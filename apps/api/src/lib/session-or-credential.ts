import { CREDENTIAL_HEADER } from '@candor/contracts';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from './app-error.js';

/**
 * Hook of the routes a member reaches either as the logged-in member or with an anonymous
 * answer credential (decision 020). With a credential the request carries no session, and must
 * not: a credential sent beside a bearer token would name its account after all.
 */
export function sessionOrCredential(app: FastifyInstance): onRequestAsyncHookHandler {
  return async function (request, reply) {
    if (request.headers[CREDENTIAL_HEADER] === undefined) return app.requireUser(request, reply);
    if (request.headers.authorization !== undefined) {
      throw new AppError('VALIDATION_FAILED', undefined, {
        non_field_errors: [
          'A request with a credential is sent without a session: leave out the Authorization header.',
        ],
      });
    }
  };
}
