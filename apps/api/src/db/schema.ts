import { relations, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  date,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// Internal integer keys; public uuids (`gid`, `qid`, `unique_GID`, user `uuid`) on the wire.
// The tables of later areas are designed in docs/architecture.md.

export const surveyVariant = pgEnum('survey_variant', [
  'v1_large',
  'v1_medium',
  'v1_small',
  'v2_large',
  'v2_medium',
  'v2_small',
]);

export const questionType = pgEnum('question_type', ['Closed', 'Open']);

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const genres = pgTable('genres', {
  id: serial('id').primaryKey(),
  gid: uuid('gid').notNull().unique().defaultRandom(),
  name: text('name').notNull().unique(),
  ...timestamps,
});

export const surveys = pgTable(
  'surveys',
  {
    id: serial('id').primaryKey(),
    gid: uuid('gid').notNull().unique().defaultRandom(),
    /** Stable internal key used by the idempotent seed and admin tooling; never shown. */
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    author: text('author').notNull().default(''),
    coverImage: text('cover_image'),
    coverHeadline: text('cover_headline').notNull().default(''),
    introImage: text('intro_image'),
    introText: text('intro_text').notNull().default(''),
    outroText: text('outro_text').notNull().default(''),
    variant: surveyVariant('variant').notNull().default('v1_medium'),
    randomiseQuestions: boolean('randomise_questions').notNull().default(false),
    slot: integer('slot').notNull().default(0),
    /** Listed from this moment on; in the future means scheduled. */
    releaseDate: timestamp('release_date', { withTimezone: true }).notNull(),
    /** Null while a draft: a draft is never listed, whatever its release date. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** Past: closed (by hand or on schedule). Future: a scheduled close. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** Set: taken off the home page (a closed survey only); its page and results stay. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('surveys_listing_idx').on(t.slot, t.id)],
);

export const surveyGenres = pgTable(
  'survey_genres',
  {
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    genreId: integer('genre_id')
      .notNull()
      .references(() => genres.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.surveyId, t.genreId] }),
    index('survey_genres_genre_idx').on(t.genreId),
  ],
);

export const questions = pgTable(
  'questions',
  {
    id: serial('id').primaryKey(),
    qid: uuid('qid').notNull().unique().defaultRandom(),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    type: questionType('type').notNull(),
    text: text('text').notNull(),
    timerSeconds: integer('timer_seconds').notNull().default(0),
    videoLink1: text('video_link_1'),
    videoLink2: text('video_link_2'),
    videoCaptions1: text('video_captions_1'),
    videoCaptions2: text('video_captions_2'),
    randomiseAnswers: boolean('randomise_answers').notNull().default(true),
    /** Character limit of open answers; null for closed questions. */
    maxLength: integer('max_length'),
    /** Randomized response's weight m (decision 028); null for an ordinary question. */
    rrWeight: integer('rr_weight'),
    /**
     * The honesty gap (decision 029): on a randomized-response question, the ordinary question
     * of the same survey it asks again; each respondent is asked one of the two.
     */
    twinId: integer('twin_id').references((): AnyPgColumn => questions.id, {
      onDelete: 'set null',
    }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('questions_survey_position_uq').on(t.surveyId, t.position),
    check('questions_timer_nonnegative', sql`${t.timerSeconds} >= 0`),
    check('questions_rr_weight_range', sql`${t.rrWeight} is null or ${t.rrWeight} >= 2`),
    uniqueIndex('questions_twin_uq').on(t.twinId),
    check('questions_twin_randomized', sql`${t.twinId} is null or ${t.rrWeight} is not null`),
  ],
);

export const choices = pgTable(
  'choices',
  {
    id: serial('id').primaryKey(),
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    label: text('label').notNull(),
    /** The leave-blank choice: counted apart in results. */
    isBlank: boolean('is_blank').notNull().default(false),
  },
  (t) => [
    uniqueIndex('choices_question_position_uq').on(t.questionId, t.position),
    uniqueIndex('choices_question_label_uq').on(t.questionId, t.label),
  ],
);

export const surveysRelations = relations(surveys, ({ many }) => ({
  questions: many(questions),
  surveyGenres: many(surveyGenres),
}));

export const genresRelations = relations(genres, ({ many }) => ({
  surveyGenres: many(surveyGenres),
}));

export const surveyGenresRelations = relations(surveyGenres, ({ one }) => ({
  survey: one(surveys, { fields: [surveyGenres.surveyId], references: [surveys.id] }),
  genre: one(genres, { fields: [surveyGenres.genreId], references: [genres.id] }),
}));

export const questionsRelations = relations(questions, ({ one, many }) => ({
  survey: one(surveys, { fields: [questions.surveyId], references: [surveys.id] }),
  choices: many(choices),
}));

export const choicesRelations = relations(choices, ({ one }) => ({
  question: one(questions, { fields: [choices.questionId], references: [questions.id] }),
}));

// Accounts (docs/decisions/005-accounts.md).

export const userRole = pgEnum('user_role', ['member', 'moderator', 'admin']);

/** pending: signed up, phone not verified yet (cannot log in). The rest as in the contract. */
export const userStatus = pgEnum('user_status', [
  'pending',
  'under_review',
  'active',
  'rejected',
  'suspended',
]);

export const otpPurpose = pgEnum('otp_purpose', ['signup', 'reset']);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    /**
     * HMAC-SHA256 of the E.164 number under a server key (hex): how login, signup and reset find
     * the account from the number typed. The number itself is only in `identity`.
     */
    phoneLookup: text('phone_lookup').unique(),
    /**
     * The number and name, sealed (AES-256-GCM, padded to one length) under the account's own
     * key, which lives outside this table (modules/auth/identity.ts): erasure destroys the key,
     * so a copy or backup of this row taken before is unreadable after (crypto-shredding).
     */
    identity: text('identity'),
    /**
     * The number and name in the clear, as builds before 2026-11-28 stored them: emptied (null)
     * at the first start of a newer build, which seals them into `identity`.
     */
    legacyPhoneE164: text('phone_e164').unique(),
    legacyName: text('name'),
    /** `scrypt$N$r$p$salt$hash` (base64url); null until the person chooses a password. */
    passwordHash: text('password_hash'),
    country: text('country').notNull(),
    role: userRole('role').notNull().default('member'),
    status: userStatus('status').notNull().default('pending'),
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    /** Why the risk checks sent the account to review, in words for moderators. */
    riskReasons: jsonb('risk_reasons').$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [index('users_status_created_idx').on(t.status, t.createdAt)],
);

/** One live challenge per number and purpose: a resend replaces the code, not the row. */
export const otpChallenges = pgTable(
  'otp_challenges',
  {
    id: serial('id').primaryKey(),
    /** The number's lookup HMAC (as `users.phone_lookup`): the number itself is never stored. */
    phoneLookup: text('phone_lookup').notNull(),
    purpose: otpPurpose('purpose').notNull(),
    /** HMAC-SHA256 of the code with a server key (hex); the code itself is never stored. */
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    wrongTries: smallint('wrong_tries').notNull().default(0),
    /** The right code was entered (the code is spent). */
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The password token issued at verification was spent on set-password. */
    tokenUsedAt: timestamp('token_used_at', { withTimezone: true }),
    /**
     * No code was sent and none matches (the number has no account that may use one): kept so
     * wrong codes get the same replies for every number (decision 005).
     */
    decoy: boolean('decoy').notNull().default(false),
    /**
     * HMAC of the client (a device it was given, else its IP) that asked for this code: its own
     * guesses count in `requesterTries`, everyone else's in `wrongTries`, so a botnet's guesses
     * cannot spend the code its owner is about to type (decision 022).
     */
    requester: text('requester'),
    requesterTries: smallint('requester_tries').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('otp_challenges_lookup_purpose_uq').on(t.phoneLookup, t.purpose),
    // Expired decoys are cleared on every code issued (auth.repository.ts issueCode): found
    // through this, not by a scan whose length would tell a decoy's request from a real one.
    index('otp_challenges_decoy_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.decoy}`),
  ],
);

/**
 * Counters of the account limits (decision 022), shared by every API process through the
 * database whether or not Redis is set: failure windows per (number, client) and per IP, texts
 * per (number, client), and per number the consecutive failures that set its progressive delay
 * and its cap. Keys are HMACs: no number or IP is stored. A row past `endsAt` counts as absent.
 */
export const authLimits = pgTable(
  'auth_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('auth_limits_ends_idx').on(t.endsAt)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Every token rotated from one login shares it; reuse revokes the whole family. */
    familyId: uuid('family_id').notNull(),
    /** SHA-256 of the opaque token (hex); the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    parentId: integer('parent_id').references((): AnyPgColumn => refreshTokens.id, {
      onDelete: 'cascade',
    }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * The session was opened with a staff second factor (decision 024): a staff role on a
     * session without it (a role written by hand) is refused at the next refresh.
     */
    secondFactor: boolean('second_factor').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
    uniqueIndex('refresh_tokens_parent_uq').on(t.parentId),
  ],
);

/**
 * A staff account's TOTP second factor (decision 024): at most one per account. The secret is
 * sealed (lib/profile-seal.ts sealJson, a key from JWT_SECRET): a copy of the database alone
 * cannot make codes. Until `confirmedAt` it is an enrolment under way (the first code confirms
 * it); `lastStep` is the time step of the last code accepted, so a code is good once.
 */
export const staffTotp = pgTable('staff_totp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A staff account's passkeys (WebAuthn credentials), the preferred second factor (decision
 * 024): any number per account, beside its TOTP. The public key is the COSE key as
 * @simplewebauthn/server hands it, base64url; `counter` is the authenticator's signature count
 * last accepted (0 for authenticators that keep none), so a cloned key that falls behind is
 * refused.
 */
export const staffPasskeys = pgTable(
  'staff_passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id (base64url), as the authenticator names it. */
    credentialId: text('credential_id').notNull(),
    /** What its owner calls it ("Work laptop"), shown in their list. */
    name: text('name').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** How the browser may reach the authenticator (`internal`, `usb`, `hybrid`...). */
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('staff_passkeys_credential_uq').on(t.credentialId),
    index('staff_passkeys_user_idx').on(t.userId),
  ],
);

/**
 * WebAuthn challenges handed out and not yet answered (decision 024): each is taken once, by a
 * DELETE that returns it, for the account and the ceremony it was made for, before it expires.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `login` (a staff login's second step) or `register` (adding a passkey). */
    purpose: text('purpose').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webauthn_challenges_user_idx').on(t.userId)],
);

/** Verified signups for the velocity risk checks: no user id, no phone, no IP. */
export const signupEvents = pgTable(
  'signup_events',
  {
    id: serial('id').primaryKey(),
    /** HMAC-SHA256 of the client IP with a server key (hex). */
    ipHash: text('ip_hash').notNull(),
    /** First 8 digits of the E.164 number (country code + start of the range). */
    phonePrefix: text('phone_prefix').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('signup_events_ip_idx').on(t.ipHash, t.createdAt),
    index('signup_events_prefix_idx').on(t.phonePrefix, t.createdAt),
  ],
);

// Answers (docs/decisions/006-answers.md). Nothing here names a user: a respondent is an HMAC
// pseudonym of the user's uuid under PSEUDONYM_SECRET, and no table keeps a wall-clock time
// next to an answer (a day, and durations, only).

export const timingKind = pgEnum('timing_kind', ['answer', 'graph']);
/** An open answer's standing: only approved texts are shown as sample answers. */
export const moderationStatus = pgEnum('moderation_status', ['pending', 'approved', 'hidden']);

/**
 * Whether a respondent's answers count in published results (docs/decisions/011). `waiting`:
 * not yet (unverified, under review); `counting`: verified, approved, not suspended; `left`:
 * stopped counting (suspended, rejected, erasing) and never counts again, so one person's
 * answers enter and leave the results at most once.
 */
export const respondentStanding = pgEnum('respondent_standing', ['waiting', 'counting', 'left']);

// Random keys where order would tell: a serial id lists respondents in signup order and answers
// in time order, which a copy of the database could join to accounts' timestamps.
const randomInt32 = sql`(floor(random() * 2147483646) + 1)::int`;
/** The answers' id default, also drawn by the batch insert (answers.repository). */
export const answerIdDefault = sql`(floor(random() * 4503599627370496) + 1)::bigint`;

/** One per member who answered, rated or was timed; created on the first of these. */
export const respondents = pgTable('respondents', {
  /** Random (not serial); a rare collision is retried by the creator. */
  id: integer('id').primaryKey().default(randomInt32),
  /** HMAC-SHA256 of the user's uuid (hex): no user id column, no way back without the key. */
  pseudonym: text('pseudonym').notNull().unique(),
  /**
   * Gender, age band and country, sealed with AES-256-GCM under a key derived from
   * PSEUDONYM_SECRET (lib/profile-seal.ts): no plaintext quasi-identifier beside a respondent.
   */
  profile: text('profile').notNull(),
  standing: respondentStanding('standing').notNull().default('waiting'),
});

export const answers = pgTable(
  'answers',
  {
    /** Random: answer ids in insertion order would date answers against other tables. */
    id: bigint('id', { mode: 'number' }).primaryKey().default(answerIdDefault),
    respondentId: integer('respondent_id')
      .notNull()
      .references(() => respondents.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    /** The chosen choice of a closed question (the leave-blank one included); null when open. */
    choiceId: integer('choice_id').references(() => choices.id),
    /** An open answer, trimmed; null when closed or left blank. */
    text: text('text'),
    isBlank: boolean('is_blank').notNull(),
    /** The day only (UTC): no time is kept next to an answer. */
    answeredOn: date('answered_on', { mode: 'string' }).notNull(),
    /** The client's key of the answering attempt: a retry with it replays the first reply. */
    idempotencyKey: text('idempotency_key'),
    /** Open answers with text: their moderation; null for closed and blank answers. */
    moderation: moderationStatus('moderation'),
  },
  (t) => [
    uniqueIndex('answers_respondent_question_uq').on(t.respondentId, t.questionId),
    // A member's own answers (the unique index above serves them).
    // Which choices of a question have answers: authoring refuses to remove or rename those.
    index('answers_question_choice_idx').on(t.questionId, t.choiceId),
    // Sample answers of a question (approved texts, newest first) and the moderation queue.
    index('answers_moderation_idx')
      .on(t.questionId, t.moderation, t.answeredOn.desc())
      .where(sql`${t.moderation} is not null`),
  ],
);

// Anonymous credentials (docs/decisions/020-unlinkable-answers.md). An account gets one blind
// RSA signature per open survey; its answers are redeemed with it over requests without a
// session. Nothing below names an account beside an answer, and nothing is written in the order
// answers arrived but their redemption receipts, which hold keyed digests only.

/** Per survey: its RFC 9474 key pair. The private key is sealed under PSEUDONYM_SECRET. */
export const credentialKeys = pgTable('credential_keys', {
  surveyId: integer('survey_id')
    .primaryKey()
    .references(() => surveys.id, { onDelete: 'cascade' }),
  /** SHA-256 of the SPKI, base64url: what devices check the key against. */
  keyId: text('key_id').notNull(),
  /** DER SubjectPublicKeyInfo, base64url. */
  publicKey: text('public_key').notNull(),
  /** PKCS#8, sealed (lib/profile-seal.ts sealJson) with the credential-key key. */
  privateKey: text('private_key').notNull(),
});

/**
 * One credential per account and survey, enforced here. The server signed a blinded message it
 * cannot read; the digest lets the same request, retried, get the same signature back.
 */
export const credentialIssuances = pgTable(
  'credential_issuances',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    /** SHA-256 of the blinded message, base64url. */
    blindedDigest: text('blinded_digest').notNull(),
    /** The blind signature, base64url (it reveals nothing without the device's blinding factor). */
    blindSig: text('blind_sig').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.surveyId] })],
);

/**
 * One row per answer redeemed with a credential, written by its request: the guard of "one
 * answer per credential and question" and of replays. Every value is a digest keyed by the
 * credential itself, which the server never stores: without the device's credential a row
 * matches no answer, and all rows have one length.
 */
export const redemptions = pgTable('redemptions', {
  /** SHA-256 of (credential, question), base64url. */
  key: text('key').primaryKey(),
  /** HMAC of the answer given, keyed by the credential: a replay is recognised, not read. */
  answerMac: text('answer_mac').notNull(),
  /** HMAC of the request's Idempotency-Key (the same key as answer_mac; empty string: none). */
  idempotencyMac: text('idempotency_mac').notNull(),
  /** The day the answer was first given (as answers.answered_on). */
  answeredOn: date('answered_on', { mode: 'string' }).notNull(),
});

/**
 * Answers acknowledged and waiting to be mixed: sealed (the answer-inbox key), padded to a few
 * lengths, random ids. The background mixer writes them into `answers` in shuffled batches that
 * hold many people's answers, deletes them and vacuums the table.
 */
export const answerInbox = pgTable('answer_inbox', {
  id: bigint('id', { mode: 'number' }).primaryKey().default(answerIdDefault),
  payload: text('payload').notNull(),
});

/**
 * Credentials whose holder withdrew their answers from their device (decision 020, slice 4):
 * a hash of the credential under its own label, so it matches no stored tag or receipt. The
 * mixer drops what waits for one of these, and the credential answers nothing more. No time.
 */
export const credentialWithdrawals = pgTable('credential_withdrawals', {
  key: text('key').primaryKey(),
});

/**
 * The member's vault (decision 020): sealed in their browser under a key the server never sees,
 * one of a few lengths (contracts VAULT_SIZES). Goes with the account.
 */
/**
 * Each account's identity key (base64url, 32 bytes), when the keys are kept in the database
 * (`IDENTITY_KEYS=database`, the default with DATABASE_URL): see modules/auth/identity.ts. With
 * the embedded database they are files outside it, and this table stays empty.
 */
export const identityKeys = pgTable('identity_keys', {
  userUuid: uuid('user_uuid').primaryKey(),
  key: text('key').notNull(),
});

export const vaults = pgTable('vaults', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Each write adds one: a write carries the version it read (compare-and-swap). */
  version: integer('version').notNull(),
  blob: text('blob').notNull(),
});

/** What a queued row is: an answer, a rating or an answer timing waiting to be counted. */
export const resultKind = pgEnum('result_kind', ['answer', 'rating', 'timing']);

/**
 * Answers, ratings and answer timings not counted yet: a statement trigger adds one row per
 * inserted row, the background fold deletes the rows it counts (so an answer row is never
 * written after its insert). Approval queues a respondent's rows again.
 *
 * No foreign keys: every row is copied from a row just inserted (whose keys were checked), and
 * checking them again cost a fifth of the database's work per answer. A row whose respondent,
 * answer or question is gone is dropped by the fold, which counts only what it finds; erasure
 * deletes the respondent's rows in its own transaction.
 */
export const resultsQueue = pgTable(
  'results_queue',
  {
    respondentId: integer('respondent_id').notNull(),
    questionId: integer('question_id').notNull(),
    kind: resultKind('kind').notNull(),
  },
  (t) => [primaryKey({ columns: [t.respondentId, t.questionId, t.kind] })],
);

/**
 * Per question: the true change of the open period (`pending`, never published, see
 * results/privacy.ts), the noise of its trigger's threshold, and the published snapshot of
 * noisy cumulative counts.
 */
export const questionTallies = pgTable('question_tallies', {
  questionId: integer('question_id')
    .primaryKey()
    .references(() => questions.id, { onDelete: 'cascade' }),
  /**
   * results.repository.ts `StoredPending`: `events` in clear, the rest sealed with the profile
   * key; null when nothing changed since the last release.
   */
  pending: jsonb('pending'),
  /** Laplace noise of the open period's threshold, drawn when the period opens. */
  thresholdNoise: integer('threshold_noise'),
  publishedAt: timestamp('published_at', { withTimezone: true }),
  /** privacy.ts `Snapshot`: what every reader is shown, as stored. */
  snapshot: jsonb('snapshot'),
});

export const ratings = pgTable(
  'ratings',
  {
    respondentId: integer('respondent_id')
      .notNull()
      .references(() => respondents.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    score: smallint('score').notNull(),
    /** The score counted in published results (the first one folded); null until then. */
    countedScore: smallint('counted_score'),
  },
  (t) => [
    primaryKey({ columns: [t.respondentId, t.questionId] }),
    // A deleted question's ratings (deleting a survey with its answers).
    index('ratings_question_idx').on(t.questionId),
    check('ratings_score_range', sql`${t.score} between 0 and 10`),
  ],
);

/** How long an answer or a graph took: a duration only, never when. */
export const timings = pgTable(
  'timings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().default(answerIdDefault),
    respondentId: integer('respondent_id')
      .notNull()
      .references(() => respondents.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    kind: timingKind('kind').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** The one answer timing per respondent and question counted in published results. */
    counted: boolean('counted').notNull().default(false),
    /** SHA-256 of the timing id, so an end sent twice stores one row (it is not a time). */
    tokenHash: text('token_hash').notNull().unique(),
  },
  (t) => [
    index('timings_question_idx').on(t.questionId, t.kind),
    // A deleted respondent's timings (withdrawal, erasure, deleting a survey): without it each
    // respondent's cascade read the whole table.
    index('timings_respondent_idx').on(t.respondentId),
    check('timings_duration_nonnegative', sql`${t.durationMs} >= 0`),
  ],
);

/** First-party page views: a route pattern, a day and a referring host. No IP, user or cookie. */
export const pageViews = pgTable('page_views', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  path: text('path').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  referrerHost: text('referrer_host'),
});

/** Every staff action (moderation, roles, suspensions, authoring), for admins to read. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    /** The staff member; null once their account is erased (the entry stays). */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorRole: userRole('actor_role').notNull(),
    action: text('action').notNull(),
    /** `user:<uuid>`, `answer:<id>`, `survey:<gid>`... */
    target: text('target').notNull(),
    details: jsonb('details')
      .$type<Record<string, string | number | boolean | null>>()
      .notNull()
      .default({}),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_at_idx').on(t.at.desc())],
);

/**
 * Completions of research-panel respondents (docs/decisions/007-answering-web.md, panels): one per
 * respondent, survey and panel, and one per panel participant. No answer, no respondent id, no
 * participant id: both are keyed hashes that only the server can compute, so a copy of this table
 * joins to neither the answers nor the panel's list of participants.
 */
export const panelCompletions = pgTable(
  'panel_completions',
  {
    id: serial('id').primaryKey(),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    /** The panel's name as its survey link gives it (`?panel=`). */
    panel: text('panel').notNull(),
    /**
     * HMAC-SHA256 of survey, panel, the panel's participant id and the claiming account's
     * respondent key (hex), PSEUDONYM_SECRET key: one per claim, so a participant id completed
     * from two accounts is two rows (decision 021; rows written before hold the participant's).
     */
    participantHash: text('participant_hash').notNull(),
    /** HMAC-SHA256 of the member's uuid, survey and panel (hex), PSEUDONYM_SECRET key. */
    respondentKey: text('respondent_key').notNull(),
    /** The completion code the participant was given (an HMAC the panel cannot compute). */
    code: text('code').notNull(),
    /** The day (midnight UTC), not the time: decision 021 (rows written before hold the time). */
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('panel_completions_respondent_uq').on(t.surveyId, t.panel, t.respondentKey),
    uniqueIndex('panel_completions_participant_uq').on(t.surveyId, t.panel, t.participantHash),
  ],
);

/** Binary data: Buffers in, Buffers out (PGlite hands back a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Images uploaded by admins (WebP, re-encoded): in the database, so every API process serves
 * every image. The name is the hash of the content.
 */
export const images = pgTable('images', {
  name: text('name').primaryKey(),
  data: bytea('data').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Researchers' API tokens (issue 31, point 5): read-only access to published results and
 * exports, made and revoked by admins. The token is shown once; only its SHA-256 is kept (it is
 * 32 random bytes, so no slow hash is needed), with its first characters to tell tokens apart.
 * `surveys`: the gids it may read; null: every published survey.
 */
export const researchTokens = pgTable('research_tokens', {
  id: serial('id').primaryKey(),
  gid: uuid('gid').notNull().unique().defaultRandom(),
  name: text('name').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  prefix: text('prefix').notNull(),
  surveys: uuid('surveys').array(),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
});

/**
 * Operators' webhooks (issue 31, point 5; decision 032): a URL told when a survey is published,
 * closes, or has new published results. The signing secret is sealed (keys.webhookSeal).
 */
export const webhooks = pgTable('webhooks', {
  id: serial('id').primaryKey(),
  gid: uuid('gid').notNull().unique().defaultRandom(),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  secretSealed: text('secret_sealed').notNull(),
  secretPrefix: text('secret_prefix').notNull(),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each event a webhook is sent, once per (webhook, event key), with its attempts: the delivery
 * log. Payloads hold published numbers only. Kept 30 days.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    gid: uuid('gid').notNull().unique().defaultRandom(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    /** What makes the event one: `survey.closed:{gid}:{closed_at}`; a delivery per webhook. */
    eventKey: text('event_key').notNull(),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** A sender took it until then (another process leaves it alone)... */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** ...with this lease: only that sender may record the attempt's outcome. */
    lease: uuid('lease'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_idx').on(t.webhookId, t.eventKey),
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
  ],
);
