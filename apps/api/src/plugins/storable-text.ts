import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.js';

/** Half of a surrogate pair without its other half (matched by UTF-16 code unit, no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const MESSAGE =
  'This text has a character that cannot be stored (a NUL byte, or half of an emoji): remove it.';

/**
 * The first path (`name`, `questions.2.text`) in `value` of a string PostgreSQL cannot store:
 * one with a NUL byte (22021) or an unpaired UTF-16 surrogate (22P02 in jsonb, and invalid
 * UTF-8 in text). Undefined when every string is storable.
 */
export function unstorablePath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') {
    return value.includes('\u0000') || LONE_SURROGATE.test(value) ? path.join('.') : undefined;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unstorablePath(item, [...path, String(i)]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = unstorablePath(key, path) ?? unstorablePath(item, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * Every request's body, query and path parameters are refused with a field error when a string
 * in them cannot be stored (issue 34, finding 7): before, a lone surrogate in a genre's name was
 * saved, its audit entry failed, and the staff member got a 500 for a change that was made.
 * Checked before validation, so no route and no transaction ever sees such a string.
 */
export default fp(
  (app, _opts, done) => {
    app.addHook('preValidation', async (request) => {
      for (const part of [request.params, request.query, request.body]) {
        const path = unstorablePath(part);
        if (path !== undefined) {
          throw new AppError('VALIDATION_FAILED', undefined, {
            [path === '' ? 'non_field_errors' : path]: [MESSAGE],
          });
        }
      }
    });
    done();
  },
  { name: 'storable-text' },
);
