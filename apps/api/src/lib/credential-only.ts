import { CREDENTIAL_HEADER } from '@candor/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import { AppError } from './app-error.js';

/**
 * Hook of the routes that take an anonymous answer credential and nothing else (decision 020,
 * slice 5): answers and ratings carry no account, so a request without the credential is
 * refused (`CREDENTIAL_REQUIRED`), and one that also carries a session is refused too: the
 * session would name the credential's account after all.
 */
export const credentialOnly: onRequestAsyncHookHandler = async (request) => {
  if (request.headers[CREDENTIAL_HEADER] === undefined) throw new AppError('CREDENTIAL_REQUIRED');
  if (request.headers.authorization !== undefined) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      non_field_errors: [
        'A request with a credential is sent without a session: leave out the Authorization header.',
      ],
    });
  }
};
