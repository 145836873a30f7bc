import type { SecondFactorRequired } from './auth.js';

// The account rules the web app's shell uses at run time, kept apart from the schemas: this
// module imports no zod, so a first visit downloads none (decision 002; docs/performance.md,
// "First visit").

export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; the cap only keeps hashing cheap to defend. */
export const PASSWORD_MAX_LENGTH = 1024;

/** True when a login answered with the second step rather than tokens. */
export const needsSecondFactor = (r: object): r is SecondFactorRequired => 'challenge' in r;
