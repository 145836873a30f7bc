import { ErrorBodySchema, ValidationErrorBodySchema } from '@candor/contracts';
import { z } from 'zod';

const errorBodies = {
  400: ValidationErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  413: ErrorBodySchema,
  415: ErrorBodySchema,
  429: ErrorBodySchema,
} as const;

type ErrorStatus = keyof typeof errorBodies;

/**
 * The error answers a route documents, by status: 400 is field errors, every other status
 * `{detail, code}` (the error handler's two shapes). Spread into a route's `response`.
 */
export function errorResponses<S extends ErrorStatus>(
  ...statuses: S[]
): Pick<typeof errorBodies, S> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodies[status]])) as Pick<
    typeof errorBodies,
    S
  >;
}

/** A 400 that is either field errors or `{detail, code}` (a wrong or spent code). */
export const BadRequestSchema = z.union([ErrorBodySchema, ValidationErrorBodySchema]);

// Path ids are plain text: one that names nothing is a 404 from the service, never a field error
// (the router's maxParamLength already bounds its length). Params schemas are named
// `<Param>ParamsSchema` after what the path holds.

/** `:gid`, a survey's or a genre's id. */
export const GidParamsSchema = z.object({ gid: z.string() });
/** `:qid`, a question's id. */
export const QidParamsSchema = z.object({ qid: z.string() });
/** `:uuid`, an account's id. */
export const UuidParamsSchema = z.object({ uuid: z.string() });
/** `:id`, a staff member's passkey (a uuid). */
export const PasskeyIdParamsSchema = z.object({ id: z.string() });
