import { z } from 'zod';
import { RoleSchema, UserStatusSchema } from './auth.js';
import { PageQuerySchema, pagedSchema } from './paging.js';

const when = z.iso.datetime({ offset: true });

/** Every kind of staff action the audit log records. */
export const AuditActionSchema = z.enum([
  'signup.approve',
  'signup.reject',
  'answer.approve',
  'answer.hide',
  'user.role',
  'user.suspend',
  'user.unsuspend',
  'user.second_factor_reset',
  'user.number_revealed',
  'user.passkey_add',
  'user.passkey_remove',
  'results.export',
  'survey.create',
  'survey.update',
  'survey.publish',
  'survey.close',
  'survey.reopen',
  'survey.archive',
  'survey.unarchive',
  'survey.delete',
  'survey.order',
  'question.create',
  'question.update',
  'question.delete',
  'question.order',
  'genre.create',
  'genre.rename',
  'genre.delete',
  'image.upload',
  'token.create',
  'token.revoke',
  'token.use',
  'webhook.create',
  'webhook.delete',
  'webhook.ping',
  'webhook.redeliver',
]);
export type AuditAction = z.infer<typeof AuditActionSchema>;

/** One staff action: who (staff uuid and role then), what, on what, when. */
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  actor: z.uuid().nullable(),
  /** The staff member as people read them: their number masked ("+44 ••• ••• •456"); null once erased. */
  actor_label: z.string().nullable(),
  actor_role: RoleSchema,
  action: AuditActionSchema,
  /** `user:<uuid>`, `answer:<id>`, `survey:<gid>`, `question:<qid>`, `genre:<gid>` or `image:<name>`. */
  target: z.string(),
  /**
   * What was acted on as people read it: a survey's or genre's name, a question's text, an
   * account's masked number (never a whole one); null when there is no name or it is gone.
   */
  target_label: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  at: when,
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** `GET /api/v1/admin/audit-log/` (admins): newest first, paged. */
export const AuditEntryListSchema = pagedSchema(AuditEntrySchema);
export type AuditEntryList = z.infer<typeof AuditEntryListSchema>;

/** Query of the audit log: a page, and optionally one kind of action and one staff member. */
export const AuditLogQuerySchema = PageQuerySchema.extend({
  action: AuditActionSchema.optional(),
  actor: z.uuid('Pick someone from the list.').optional(),
});
export type AuditLogQuery = z.infer<typeof AuditLogQuerySchema>;

/** A staff member who appears in the audit log, for its filter. */
export const AuditActorSchema = z.object({
  uuid: z.uuid(),
  /** Their number masked, as in the log. */
  label: z.string(),
  /** Their role now. */
  role: RoleSchema,
  /** Their first action in the log: tells apart two people whose masked numbers look alike. */
  first_at: when,
});
export type AuditActor = z.infer<typeof AuditActorSchema>;

/** `GET /api/v1/admin/audit-log/actors/` (admins): everyone who acted, by label. */
export const AuditActorListSchema = z.object({ results: z.array(AuditActorSchema) });
export type AuditActorList = z.infer<typeof AuditActorListSchema>;

/** A written answer waiting for a moderator: its text and question, never who wrote it. */
export const PendingAnswerSchema = z.object({
  id: z.number().int(),
  qid: z.uuid(),
  question: z.string(),
  survey: z.string(),
  text: z.string(),
  date: z.iso.date(),
  moderation: z.enum(['pending', 'approved', 'hidden']),
});
export type PendingAnswer = z.infer<typeof PendingAnswerSchema>;

/** `GET /api/v1/admin/answers/` (moderators): written answers to moderate, oldest first. */
export const PendingAnswerListSchema = pagedSchema(PendingAnswerSchema);
export type PendingAnswerList = z.infer<typeof PendingAnswerListSchema>;

/**
 * An account as admins see it in the users list. `phone_number` keeps the spec's name but holds
 * the masked number (`maskPhoneNumber`: "+44 ••• ••• •123") unless `phone_whole` says otherwise:
 * only a search for the whole number shows it, to someone who typed it (decision 009).
 */
export const AdminUserSchema = z.object({
  uuid: z.uuid(),
  phone_number: z
    .string()
    .describe(
      'Masked ("+44 ••• ••• •123"): the country code and the last 3 digits. The whole E.164 ' +
        'number only when phone_whole is true (a search for exactly that number); else ask ' +
        'POST /users/{uuid}/reveal-number/, which is audited.',
    ),
  /** True when `phone_number` is the whole number: the search named it exactly. */
  phone_whole: z.boolean(),
  country: z.string(),
  role: RoleSchema,
  status: z.union([UserStatusSchema, z.literal('pending')]),
  created_at: when,
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

/**
 * `GET /api/v1/admin/users/` and `POST /api/v1/admin/users/search/`: accounts, masked; an account
 * whose whole number was searched shows it.
 */
export const AdminUserListSchema = pagedSchema(AdminUserSchema);
export type AdminUserList = z.infer<typeof AdminUserListSchema>;

/**
 * `GET /api/v1/admin/users/`: every account, newest first. A number never goes in a URL (browser
 * history, proxies' logs, the Referer header): searching by one is a POST.
 */
export const UserListQuerySchema = PageQuerySchema.extend({
  phone: z
    .unknown()
    .optional()
    .refine(
      (v) => v === undefined,
      'Search by number with POST /api/v1/admin/users/search/: a number never goes in a URL.',
    ),
});

/** Why a search needs a whole number: numbers are stored sealed (crypto-shredding, issue 28). */
export const WHOLE_NUMBER_MESSAGE =
  'Type the whole number with its country code, like +44 7700 900123: numbers are stored sealed, so part of one finds nothing.';

/**
 * `POST /api/v1/admin/users/search/`: the account with this whole number (country code first;
 * spaces and punctuation ignored), in the body; empty: every account. Numbers are stored sealed
 * under each account's own key and found by a keyed hash of the whole number, so a part of one
 * cannot be searched.
 */
export const UserSearchQuerySchema = PageQuerySchema.extend({
  phone: z
    .string()
    .trim()
    .max(32, 'Search by the digits of a phone number.')
    .regex(/^\+?[\d\s().-]*$/, 'Search by the digits of a phone number.')
    // Punctuation alone ("+", "( )") is not an empty search: listing everyone would mislead.
    .refine((v) => v === '' || /\d/.test(v), 'Search by the digits of a phone number.')
    .refine((v) => {
      const digits = v.replace(/\D/g, '').length;
      return digits === 0 || (digits >= 7 && digits <= 15);
    }, WHOLE_NUMBER_MESSAGE)
    .optional(),
});
export type UserSearchQuery = z.infer<typeof UserSearchQuerySchema>;

/** Longest reason a reveal may give (it is kept in the audit log). */
export const REVEAL_REASON_MAX = 200;

/**
 * `POST /api/v1/admin/users/{uuid}/reveal-number/` (admins): why the whole number is needed.
 * The reason goes into the audit entry `user.number_revealed` with who asked.
 */
export const RevealNumberRequestSchema = z
  .object({
    reason: z
      .string({ error: 'Say why you need the whole number.' })
      .trim()
      .min(3, 'Say why you need the whole number.')
      .max(REVEAL_REASON_MAX, `Keep the reason under ${REVEAL_REASON_MAX} characters.`),
  })
  .strict();
export type RevealNumberRequest = z.infer<typeof RevealNumberRequestSchema>;

/** The whole number of one account, after an audited reveal. */
export const RevealedNumberSchema = z.object({
  uuid: z.uuid(),
  phone_number: z.string().describe('The whole number, E.164 (+447700900123).'),
});
export type RevealedNumber = z.infer<typeof RevealedNumberSchema>;

/** `POST /api/v1/admin/users/{uuid}/role/`. */
export const RoleChangeRequestSchema = z.object({ role: RoleSchema }).strict();
export type RoleChangeRequest = z.infer<typeof RoleChangeRequestSchema>;

/** `GET /api/v1/admin/page-views/?days=30` (admins): first-party page views over time. */
export const PageViewStatsQuerySchema = z.object({
  days: z.coerce
    .number({ error: 'Choose 1 to 365 days.' })
    .int('Choose 1 to 365 days.')
    .min(1, 'Choose 1 to 365 days.')
    .max(365, 'Choose 1 to 365 days.')
    .default(30),
});
export type PageViewStatsQuery = z.infer<typeof PageViewStatsQuerySchema>;

export const PageViewStatsSchema = z.object({
  /** Every day of the period, oldest first, days without views included (0). */
  days: z.array(z.object({ day: z.iso.date(), views: z.number().int().min(0) })),
  /** Route patterns (`/surveys/:surveyId`), most viewed first, at most 20. */
  paths: z.array(z.object({ path: z.string(), views: z.number().int().min(0) })),
  /** Referring hosts of first loads, most first, at most 20. */
  referrers: z.array(z.object({ host: z.string(), views: z.number().int().min(0) })),
  total: z.number().int().min(0),
});
export type PageViewStats = z.infer<typeof PageViewStatsSchema>;
