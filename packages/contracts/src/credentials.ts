import { z } from 'zod';
import { GenderSchema } from './auth.js';
import { ErrorCodeSchema } from './errors.js';
import { AGE_BANDS } from './results.js';

/**
 * Anonymous credentials (decision 020): a verified member's device gets one blind RSA signature
 * (RFC 9474, RSABSSA-SHA384-PSS-Randomized) per open survey, and answers that survey with it over
 * requests that carry no session. The server signs what it cannot read, so no stored value, and
 * no secret, ties an answer to the account that got the credential.
 */

/** Base64url without padding, as every binary value on this wire. */
const base64url = (what: string, max: number) =>
  z
    .string({ error: `Send the ${what} as base64url.` })
    .min(1, `Send the ${what} as base64url.`)
    .max(max, `The ${what} is too long.`)
    .regex(/^[A-Za-z0-9_-]+$/, `Send the ${what} as base64url.`);

/** `GET /v1/surveys/{gid}/credential-key/`: the survey's public key, the same for everyone. */
export const CredentialKeySchema = z.object({
  gid: z.uuid(),
  /** SHA-256 of the SPKI, base64url: what the device checks the key it signs with against. */
  key_id: z.string(),
  /** The RSA public key (2048 bits, e = 65537) as DER SubjectPublicKeyInfo, base64url. */
  public_key: z.string(),
  /** The RFC 9474 suite. */
  suite: z.literal('RSABSSA-SHA384-PSS-Randomized'),
});
export type CredentialKey = z.infer<typeof CredentialKeySchema>;

/** Most surveys one issuance request may cover (a login asks for every open survey at once). */
export const CREDENTIALS_PER_REQUEST = 100;

export const CredentialRequestSchema = z
  .object({
    requests: z
      .array(
        z
          .object({
            gid: z.uuid({ error: 'Name the survey by its gid.' }),
            /** The blinded message (256 bytes for a 2048-bit key), base64url. */
            blinded_msg: base64url('blinded message', 400),
          })
          .strict(),
      )
      .min(1, 'Ask for at least one credential.')
      .max(CREDENTIALS_PER_REQUEST, `Ask for at most ${CREDENTIALS_PER_REQUEST} at once.`),
  })
  .strict();
export type CredentialRequest = z.infer<typeof CredentialRequestSchema>;

export const IssuedCredentialSchema = z.object({
  gid: z.uuid(),
  key_id: z.string(),
  /** The blind signature, base64url: the device unblinds it into its credential. */
  blind_sig: z.string(),
});
export const CredentialResponseSchema = z.object({
  credentials: z.array(IssuedCredentialSchema),
  /** Surveys asked for and not signed, each with why (closed, unknown, already issued...). */
  refused: z.array(z.object({ gid: z.string(), code: ErrorCodeSchema, detail: z.string() })),
});
export type CredentialResponse = z.infer<typeof CredentialResponseSchema>;

/**
 * `Candor-Credential` header of an answer: `<prepared message>.<signature>`, both base64url.
 * The prepared message is RFC 9474's: 32 random bytes of the randomized variant, then the
 * device's own 32 random bytes.
 */
export const CREDENTIAL_HEADER = 'candor-credential';
export const CredentialHeaderSchema = z
  .string()
  .max(1000, 'The credential is too long.')
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'The credential is not in the right form.');

/**
 * The breakdown class the device holds (gender, age band, country), sent with an answer redeemed
 * with a credential. It is stored only with that credential's answers of the survey (sealed and
 * coarsened, decision 020), never beside an account.
 */
export const AnswerProfileSchema = z
  .object({
    gender: GenderSchema,
    /** `undisclosed` when the device holds no year of birth (counted, never in an age group). */
    age_band: z.enum([...AGE_BANDS, 'undisclosed'], { error: 'Choose an age band.' }),
    country: z.string().regex(/^[A-Z]{2}$/, 'Use a two-letter country code.'),
  })
  .strict();
export type AnswerProfile = z.infer<typeof AnswerProfileSchema>;

/**
 * `POST /v1/surveys/{gid}/answers/withdrawal/` with the survey's credential: every answer and
 * rating it gave leaves the results and the database, those waiting to be mixed included, and
 * the credential answers nothing more (decision 020, slice 4). Again: the same reply.
 */
export const WithdrawalSchema = z.object({
  gid: z.string(),
  withdrawn: z.literal(true),
});
export type Withdrawal = z.infer<typeof WithdrawalSchema>;
