import { z } from 'zod';
import { GenderSchema, RoleSchema, UserStatusSchema } from './auth.js';

const when = z.iso.datetime({ offset: true });

/** `GET /v1/user/export/`: every stored field about the member, as JSON. */
export const MyDataSchema = z.object({
  exported_at: when,
  account: z.object({
    uuid: z.uuid(),
    name: z.string(),
    phone_number: z.string(),
    country: z.string(),
    role: RoleSchema,
    status: UserStatusSchema,
    phone_verified_at: when.nullable(),
    risk_reasons: z.array(z.string()),
    created_at: when,
    updated_at: when,
  }),
  /** Logins: when each session began, was refreshed, ends or was ended. */
  sessions: z.array(
    z.object({
      family: z.uuid(),
      created_at: when,
      expires_at: when,
      used_at: when.nullable(),
      revoked_at: when.nullable(),
    }),
  ),
  /** Texted codes asked for this number: when, and how they were used (never the code). */
  code_challenges: z.array(
    z.object({
      purpose: z.enum(['signup', 'reset']),
      created_at: when,
      expires_at: when,
      wrong_tries: z.number().int(),
      used_at: when.nullable(),
    }),
  ),
  /** What the answers are filed under (a pseudonym that only the server's secret derives). */
  respondent: z
    .object({
      gender: GenderSchema,
      age_band: z.string(),
      country: z.string(),
      counts_in_results: z.boolean(),
    })
    .nullable(),
  answers: z.array(
    z.object({
      qid: z.uuid(),
      question: z.string(),
      gid: z.uuid(),
      survey: z.string(),
      answer: z.string(),
      is_blank: z.boolean(),
      date: z.iso.date(),
      moderation: z.enum(['pending', 'approved', 'hidden']).nullable(),
      idempotency_key: z.string().nullable(),
    }),
  ),
  ratings: z.array(z.object({ qid: z.uuid(), score: z.number().int() })),
  timings: z.array(
    z.object({ qid: z.uuid(), kind: z.enum(['answer', 'graph']), duration_ms: z.number().int() }),
  ),
});
export type MyData = z.infer<typeof MyDataSchema>;

/** `POST /v1/user/delete/`: the password confirms that the account's owner asks. */
export const DeleteAccountRequestSchema = z
  .object({
    password: z.string({ error: 'Enter your password.' }).min(1, 'Enter your password.').max(1000),
  })
  .strict();
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequestSchema>;
