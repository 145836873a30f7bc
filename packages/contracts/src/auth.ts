import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth-rules.js';
import { pagedSchema } from './paging.js';

/** Youngest age that may sign up: the topics are for adults. */
export const MINIMUM_AGE = 18;
export const OTP_LENGTH = 6;
/** Oldest age a year of birth may give: older is almost surely a typing slip. */
export const MAXIMUM_AGE = 100;
export const NAME_MAX_LENGTH = 80;
/** E.164: a number has at most 15 digits, country code included. */
export const PHONE_MAX_DIGITS = 15;

export const RoleSchema = z.enum(['member', 'moderator', 'admin']);
export type Role = z.infer<typeof RoleSchema>;

/**
 * active: counts in results. under_review: risk checks (or REVIEW_ALL_SIGNUPS) want a person to
 * look; can log in and answer, answers do not count yet. rejected / suspended: cannot log in.
 */
export const UserStatusSchema = z.enum(['active', 'under_review', 'rejected', 'suspended']);
export type UserStatus = z.infer<typeof UserStatusSchema>;

export const GenderSchema = z.enum(['female', 'male', 'non_binary', 'other', 'undisclosed'], {
  error: 'Choose one of the options.',
});
export type Gender = z.infer<typeof GenderSchema>;

export const GENDER_LABELS: Record<Gender, string> = {
  female: 'Woman',
  male: 'Man',
  non_binary: 'Non-binary',
  other: 'Another gender',
  undisclosed: 'Prefer not to say',
};

/** As typed: E.164, national form with `country`, spaces and dashes; the API normalises it. */
export const PhoneNumberSchema = z
  .string({ error: 'Enter your phone number.' })
  .trim()
  .min(1, 'Enter your phone number.')
  // Spaces, dashes and brackets as typed, but never more than a number's digits and their room.
  .refine(
    (v) => v.length <= 40 && (v.match(/\d/g)?.length ?? 0) <= PHONE_MAX_DIGITS,
    `A phone number has at most ${PHONE_MAX_DIGITS} digits.`,
  );

export const CountryCodeSchema = z
  .string({ error: 'Choose your country.' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'Choose your country.');

export const PasswordSchema = z
  .string({ error: 'Enter a password.' })
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters.`);

export const OtpSchema = z
  .string({ error: 'Enter the 6-digit code.' })
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code.');

/** A year of birth for someone aged MINIMUM_AGE to MAXIMUM_AGE in `now`'s year. */
export function yearOfBirthSchema(now: Date = new Date()) {
  const year = now.getUTCFullYear();
  return z
    .number({ error: 'Enter your year of birth, such as 1990.' })
    .int('Enter your year of birth, such as 1990.')
    .min(year - MAXIMUM_AGE, `Enter a year of birth from ${year - MAXIMUM_AGE} on.`)
    .max(year - MINIMUM_AGE, `Candor is for people aged ${MINIMUM_AGE} and over.`);
}

/** The account's name: optional, shown only to its owner. */
export const NameSchema = z
  .string()
  .trim()
  .max(NAME_MAX_LENGTH, `Use at most ${NAME_MAX_LENGTH} characters for your name.`);

/** A wait as people say it, rounded up: "40 seconds", "10 minutes", "1 hour". */
export function waitInWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  const [n, unit] =
    s < 60
      ? [s, 'second']
      : s < 3600
        ? [Math.ceil(s / 60), 'minute']
        : [Math.ceil(s / 3600), 'hour'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** When a new code may be asked for: the resend countdown and the API's refusals say this. */
export const newCodeIn = (seconds: number) =>
  `You can ask for a new code in ${waitInWords(seconds)}.`;

/**
 * Verify's and set-password's refusal of a code past its 5 wrong tries (the API's
 * OTP_MAX_WRONG_TRIES). A new code starts with none (decision 022), so a new code is the way on.
 */
export const CODE_LOCKED_MESSAGE = 'Too many wrong codes. Ask for a new code.';

export const OtpPurposeSchema = z.enum(['signup', 'reset']);
export type OtpPurpose = z.infer<typeof OtpPurposeSchema>;

/**
 * `POST /v1/user/create/`. Gender and year of birth are asked on the sign-up screen but never
 * sent: they stay on the member's devices and in their end-to-end encrypted vault (decision 020,
 * slice 2), since beside an account they would join it to its answers' breakdown class. An
 * older client that still sends them has them dropped unread.
 */
export const SignupRequestSchema = z.object({
  phone_number: PhoneNumberSchema,
  password: PasswordSchema.optional(),
  name: NameSchema.optional(),
  country: CountryCodeSchema,
});
export type SignupRequest = z.infer<typeof SignupRequestSchema>;

/** What a member tells the device about themselves: the class their answers carry. */
export const DeviceProfileSchema = z.object({
  year_of_birth: yearOfBirthSchema(),
  gender: GenderSchema,
  country: CountryCodeSchema,
});
export type DeviceProfile = z.infer<typeof DeviceProfileSchema>;

/** The sign-up screen's fields: the request, and the profile kept on the device. */
export const SignupFormSchema = SignupRequestSchema.extend(DeviceProfileSchema.shape);
export type SignupFormValues = z.infer<typeof SignupFormSchema>;

/** The same answer whether or not the number already has an account (no enumeration). */
export const CodeSentSchema = z.object({ detail: z.string() });
export type CodeSent = z.infer<typeof CodeSentSchema>;

export const VerifyRequestSchema = z.object({
  phone_number: PhoneNumberSchema,
  otp: OtpSchema,
  purpose: OtpPurposeSchema.default('signup'),
});
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;

export const TokenPairSchema = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof TokenPairSchema>;

/**
 * The second factors a staff login takes (decision 024), the preferred first: `passkey` when
 * the account has one (POST /api/token/passkey/options/, then /api/token/passkey/), and `totp`.
 */
export const SecondFactorMethodSchema = z.enum(['passkey', 'totp']);
export type SecondFactorMethod = z.infer<typeof SecondFactorMethodSchema>;

/**
 * A staff account's password was right: no session yet. `challenge` (short-lived, opens no API
 * route) goes with the second factor to POST /api/token/totp/. `enrol`: the account has no
 * second factor yet, so this first login sets one up (POST /api/token/totp/enrol/).
 */
export const SecondFactorRequiredSchema = z.object({
  status: z.literal('second_factor_required'),
  challenge: z.string(),
  enrol: z.boolean(),
  methods: z.array(SecondFactorMethodSchema),
});
export type SecondFactorRequired = z.infer<typeof SecondFactorRequiredSchema>;

/** What a login (or a new password) answers: a member's tokens, or staff's second step. */
export const LoginResponseSchema = z.union([TokenPairSchema, SecondFactorRequiredSchema]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

const ChallengeSchema = z.string().min(1).max(4096);

export const TotpEnrolRequestSchema = z.object({ challenge: ChallengeSchema });
export type TotpEnrolRequest = z.infer<typeof TotpEnrolRequestSchema>;

/** A new TOTP secret for the authenticator app: as base32 text and as an otpauth:// URI. */
export const TotpEnrolmentSchema = z.object({ secret: z.string(), uri: z.string() });
export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

export const TotpLoginRequestSchema = z.object({
  challenge: ChallengeSchema,
  code: z
    .string({ error: 'Enter the 6-digit code from your authenticator app.' })
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'),
});
export type TotpLoginRequest = z.infer<typeof TotpLoginRequestSchema>;

// WebAuthn as @simplewebauthn/browser hands it over (base64url strings): checked in depth by
// @simplewebauthn/server, so only its shape and sizes are checked here.
const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');
const TransportSchema = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** A credential the browser may use (allowCredentials / excludeCredentials). */
const CredentialDescriptorSchema = z.object({
  id: b64url(1400),
  type: z.literal('public-key'),
  transports: z.array(TransportSchema).optional(),
});

/** PublicKeyCredentialRequestOptionsJSON: what navigator.credentials.get is asked with. */
export const PasskeyLoginOptionsSchema = z.object({
  challenge: b64url(128),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  allowCredentials: z.array(CredentialDescriptorSchema).optional(),
  userVerification: z.enum(['required', 'preferred', 'discouraged']).optional(),
});
export type PasskeyLoginOptions = z.infer<typeof PasskeyLoginOptionsSchema>;

/** PublicKeyCredentialCreationOptionsJSON: what navigator.credentials.create is asked with. */
export const PasskeyRegistrationOptionsSchema = z.object({
  challenge: b64url(128),
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: b64url(128), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal('public-key') })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(CredentialDescriptorSchema).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
      userVerification: z.enum(['required', 'preferred', 'discouraged']).optional(),
    })
    .optional(),
  attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']).optional(),
  hints: z.array(z.enum(['hybrid', 'security-key', 'client-device'])).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type PasskeyRegistrationOptions = z.infer<typeof PasskeyRegistrationOptionsSchema>;

const ClientOutputsSchema = {
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
};

/** AuthenticationResponseJSON: a passkey's signed answer to a login challenge. */
export const PasskeyAssertionSchema = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(8192),
    authenticatorData: b64url(8192),
    signature: b64url(2048),
    userHandle: b64url(1400).optional(),
  }),
  ...ClientOutputsSchema,
});
export type PasskeyAssertion = z.infer<typeof PasskeyAssertionSchema>;

/** RegistrationResponseJSON: a new passkey's attestation. */
export const PasskeyAttestationSchema = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(8192),
    attestationObject: b64url(65_536),
    authenticatorData: b64url(65_536).optional(),
    transports: z.array(TransportSchema).optional(),
    publicKeyAlgorithm: z.number().optional(),
    publicKey: b64url(8192).optional(),
  }),
  ...ClientOutputsSchema,
});
export type PasskeyAttestation = z.infer<typeof PasskeyAttestationSchema>;

export const PasskeyOptionsRequestSchema = z.object({ challenge: ChallengeSchema });
export type PasskeyOptionsRequest = z.infer<typeof PasskeyOptionsRequestSchema>;

/** A staff login's second step with a passkey: the challenge and the passkey's answer. */
export const PasskeyLoginRequestSchema = z.object({
  challenge: ChallengeSchema,
  response: PasskeyAssertionSchema,
});
export type PasskeyLoginRequest = z.infer<typeof PasskeyLoginRequestSchema>;

/** Adding a passkey (a staff session): the new credential, and a name its owner may give. */
export const PasskeyRegisterRequestSchema = z.object({
  response: PasskeyAttestationSchema,
  name: z.string().trim().min(1).max(60).optional(),
});
export type PasskeyRegisterRequest = z.infer<typeof PasskeyRegisterRequestSchema>;

/** One of the signed-in staff member's passkeys, as their list shows it (no key material). */
export const PasskeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  transports: z.array(z.string()),
  created_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }).nullable(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

export const PasskeyListSchema = z.object({
  results: z.array(PasskeySchema),
  /** The account has a TOTP authenticator too: removing every passkey still leaves a factor. */
  totp: z.boolean(),
});
export type PasskeyList = z.infer<typeof PasskeyListSchema>;

/**
 * After a correct code: either the person still has to choose a password (a short-lived
 * `password_token` authorises set-password), or they chose one at signup and are logged in
 * (or, for a staff account, asked for its second factor).
 */
export const VerifyResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('password_required'), password_token: z.string() }),
  z.object({ status: z.literal('logged_in'), access: z.string(), refresh: z.string() }),
  SecondFactorRequiredSchema,
]);
export type VerifyResponse = z.infer<typeof VerifyResponseSchema>;

/** With the token from verify, or directly with a reset code. Logs the person in. */
export const SetPasswordRequestSchema = z.union([
  z.object({ password_token: z.string().min(1).max(4096), password: PasswordSchema }),
  z.object({ phone_number: PhoneNumberSchema, otp: OtpSchema, password: PasswordSchema }),
]);
export type SetPasswordRequest = z.infer<typeof SetPasswordRequestSchema>;

export const ResendOtpRequestSchema = z.object({
  phone_number: PhoneNumberSchema,
  purpose: OtpPurposeSchema.default('signup'),
});
export type ResendOtpRequest = z.infer<typeof ResendOtpRequestSchema>;

export const ForgotPasswordRequestSchema = z.object({ phone_number: PhoneNumberSchema });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequestSchema>;

export const LoginRequestSchema = z.object({
  phone_number: PhoneNumberSchema,
  password: z
    .string({ error: 'Enter your password.' })
    .min(1, 'Enter your password.')
    .max(PASSWORD_MAX_LENGTH),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const RefreshRequestSchema = z.object({ refresh: z.string().min(1).max(4096) });
export type RefreshRequest = z.infer<typeof RefreshRequestSchema>;

export const LogoutRequestSchema = RefreshRequestSchema;

/** The kinds of reason a signup is held for review, as its owner is told them. */
export const ReviewReasonSchema = z.enum(['number_type', 'shared_network', 'number_range', 'all']);
export type ReviewReason = z.infer<typeof ReviewReasonSchema>;

/** Each kind in plain words, to finish "We look at some signups before they count: ...". */
export const REVIEW_REASON_WORDS: Record<ReviewReason, string> = {
  number_type: 'numbers like yours (internet, forwarding or premium-rate) can be had in bulk',
  shared_network: 'several accounts were made from the same internet connection today',
  number_range: 'several accounts were made today with numbers close to yours',
  all: 'right now a person looks at every new signup',
};

export const UserSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  phone_number: z.string(),
  country: z.string(),
  role: RoleSchema,
  status: UserStatusSchema,
  /** Why the account is under review, by kind (empty otherwise; older copies lack it). */
  review_reasons: z.array(ReviewReasonSchema).optional(),
});
export type User = z.infer<typeof UserSchema>;

/** An account under review, as moderators see it: the number masked, the reasons spelled out. */
export const ReviewAccountSchema = z.object({
  uuid: z.uuid(),
  phone_masked: z.string(),
  country: z.string(),
  status: UserStatusSchema,
  risk_reasons: z.array(z.string()),
  created_at: z.iso.datetime({ offset: true }),
});
export type ReviewAccount = z.infer<typeof ReviewAccountSchema>;

/** GET /api/v1/admin/signups/: accounts under review, oldest first, paged. */
export const ReviewAccountListSchema = pagedSchema(ReviewAccountSchema);
export type ReviewAccountList = z.infer<typeof ReviewAccountListSchema>;
