import type { ErrorCode } from '@candor/contracts';

/** HTTP status of every error code: the one table the error handler consults. */
export const statusOfCode: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  OTP_INVALID: 400,
  PASSKEY_INVALID: 400,
  UNAUTHENTICATED: 401,
  TOKEN_INVALID: 401,
  FORBIDDEN: 403,
  REAUTH_REQUIRED: 403,
  ANSWER_FIRST: 403,
  CREDENTIAL_INVALID: 403,
  CREDENTIAL_REQUIRED: 401,
  NOT_FOUND: 404,
  ALREADY_ANSWERED: 409,
  SURVEY_CLOSED: 409,
  NOT_ANSWERED: 409,
  ANSWERS_EXIST: 409,
  CREDENTIAL_ISSUED: 409,
  ANSWERS_WITHDRAWN: 409,
  INVALID_STATE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
};

const defaultDetail: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'The request is not valid.',
  OTP_INVALID: 'That code is not right, or it has expired. Check it, or ask for a new one.',
  PASSKEY_INVALID: 'That passkey did not answer for this account. Try again, or use a code.',
  TOKEN_INVALID: 'Your session has ended. Please log in again.',
  UNAUTHENTICATED: 'Authentication credentials were not provided or are not valid.',
  FORBIDDEN: 'You do not have permission to perform this action.',
  REAUTH_REQUIRED:
    'For your safety this needs a login from the last 10 minutes: log out, then log in again with your second factor.',
  NOT_FOUND: 'Not found.',
  ALREADY_ANSWERED: 'You have already answered this question.',
  SURVEY_CLOSED: 'This survey is closed: it no longer takes answers.',
  NOT_ANSWERED: 'Answer the question before rating it.',
  ANSWERS_EXIST:
    'People have answered this already: the change would alter what their answers mean.',
  INVALID_STATE: 'The survey is not in a state that allows this.',
  ANSWER_FIRST: 'Answer the question to see how everyone answered.',
  CREDENTIAL_INVALID: 'This answer credential is not valid for this survey.',
  CREDENTIAL_REQUIRED:
    "Answers and ratings are sent with the survey's anonymous credential (Candor-Credential), never with a session.",
  ANSWERS_WITHDRAWN:
    'The answers to this survey were withdrawn from this device: it takes no more of them.',
  CREDENTIAL_ISSUED:
    'This account already has its credential for this survey, on the device that asked first.',
  PAYLOAD_TOO_LARGE: 'The request body is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'Send the request body as application/json.',
  RATE_LIMITED: 'Too many requests. Please try again later.',
  INTERNAL: 'Something went wrong on our side. Please try again.',
  SERVICE_UNAVAILABLE: 'The service is briefly unavailable. Please try again in a moment.',
};

/** The one error services throw; the error handler turns it into the spec's body. */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    detail?: string,
    /** Field errors (`{field: [messages]}`) for VALIDATION_FAILED raised by a service. */
    readonly fields?: Record<string, string[]>,
  ) {
    super(detail ?? defaultDetail[code]);
    this.status = statusOfCode[code];
  }
}

/** A wait in words, rounded up: "40 seconds", "15 minutes", "2 hours". */
export function waitInWords(seconds: number): string {
  const [n, unit] =
    seconds < 60
      ? [seconds, 'second']
      : seconds < 3600
        ? [Math.ceil(seconds / 60), 'minute']
        : [Math.ceil(seconds / 3600), 'hour'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * 429 RATE_LIMITED; the error handler puts `retryAfterSeconds` in `Retry-After`, and the
 * message says how long to wait (the same figure: a person reads the message, not the header).
 */
export class RateLimitedError extends AppError {
  override name = 'RateLimitedError';
  readonly retryAfterSeconds: number;
  constructor(retryAfterMs: number, detail?: string) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super('RATE_LIMITED', detail ?? `Too many tries. Please try again in ${waitInWords(seconds)}.`);
    this.retryAfterSeconds = seconds;
  }
}

/**
 * 503 SERVICE_UNAVAILABLE for a dependency that is away (Redis): the error handler puts
 * `retryAfterSeconds` in `Retry-After` and logs `cause`, which never reaches the body.
 */
export class ServiceUnavailableError extends AppError {
  override name = 'ServiceUnavailableError';
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, cause?: unknown, detail?: string) {
    super('SERVICE_UNAVAILABLE', detail);
    this.retryAfterSeconds = retryAfterSeconds;
    this.cause = cause;
  }
}
