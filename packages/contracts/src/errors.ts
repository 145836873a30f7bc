import { z } from 'zod';

/** Every machine-readable error code the API can return; clients switch on these, never on text. */
export const ErrorCodeSchema = z.enum([
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'OTP_INVALID',
  'PASSKEY_INVALID',
  'TOKEN_INVALID',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'REAUTH_REQUIRED',
  'ALREADY_ANSWERED',
  'SURVEY_CLOSED',
  'NOT_ANSWERED',
  'ANSWERS_EXIST',
  'INVALID_STATE',
  'ANSWER_FIRST',
  'CREDENTIAL_INVALID',
  'CREDENTIAL_REQUIRED',
  'CREDENTIAL_ISSUED',
  'ANSWERS_WITHDRAWN',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** General error body: `{"detail": "Not found.", "code": "NOT_FOUND"}`. */
export const ErrorBodySchema = z.object({
  detail: z.string(),
  code: ErrorCodeSchema,
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Validation error body: field name -> messages, plus `non_field_errors` for the whole payload. */
export const ValidationErrorBodySchema = z.record(z.string(), z.array(z.string()));
export type ValidationErrorBody = z.infer<typeof ValidationErrorBodySchema>;
