import { z } from 'zod';

const when = z.iso.datetime({ offset: true });

/** What every researcher token starts with, so a leaked one is recognised (secret scanners). */
export const RESEARCH_TOKEN_PREFIX = 'cdr_';
/** Most surveys one token may be limited to (more: leave it open to every published survey). */
export const RESEARCH_TOKEN_MAX_SURVEYS = 100;
/** Longest validity a token may be given, in days. */
export const RESEARCH_TOKEN_MAX_DAYS = 365;

/**
 * A researcher's API token as admins see it (`GET /api/v1/admin/research-tokens/`): never the
 * token itself, which is shown once when it is made. `surveys` null: every published survey.
 */
export const ResearchTokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The token's first characters ("cdr_Ab3kQ9xZ"), to tell tokens apart. */
  prefix: z.string(),
  surveys: z.array(z.object({ gid: z.uuid(), name: z.string() })).nullable(),
  state: z.enum(['active', 'expired', 'revoked']),
  created_at: when,
  expires_at: when.nullable(),
  revoked_at: when.nullable(),
  last_used_at: when.nullable(),
});
export type ResearchToken = z.infer<typeof ResearchTokenSchema>;

export const ResearchTokenListSchema = z.object({ results: z.array(ResearchTokenSchema) });
export type ResearchTokenList = z.infer<typeof ResearchTokenListSchema>;

/** `POST /api/v1/admin/research-tokens/` (admins): a new token for a researcher. */
export const ResearchTokenInputSchema = z
  .object({
    name: z
      .string({ error: 'Name the token: who is it for?' })
      .trim()
      .min(1, 'Name the token: who is it for?')
      .max(80, 'Keep the name under 80 characters.'),
    /** The published surveys it may read; null: all of them. */
    surveys: z
      .array(z.uuid('Pick surveys from the list.'))
      .min(1, 'Pick at least one survey, or allow every survey.')
      .max(
        RESEARCH_TOKEN_MAX_SURVEYS,
        `Pick at most ${RESEARCH_TOKEN_MAX_SURVEYS} surveys, or allow every survey.`,
      )
      .nullable(),
    /** Days until it stops working; null: until revoked. */
    expires_in_days: z
      .number({ error: 'Give a whole number of days.' })
      .int('Give a whole number of days.')
      .min(1, 'A token lasts at least a day.')
      .max(RESEARCH_TOKEN_MAX_DAYS, `A token lasts at most ${RESEARCH_TOKEN_MAX_DAYS} days.`)
      .nullable(),
  })
  .strict();
export type ResearchTokenInput = z.input<typeof ResearchTokenInputSchema>;

/** The reply to a new token: the token itself, shown this once and never again. */
export const CreatedResearchTokenSchema = ResearchTokenSchema.extend({ token: z.string() });
export type CreatedResearchToken = z.infer<typeof CreatedResearchTokenSchema>;

/**
 * `GET /api/v1/research/surveys/` (a researcher token): the published surveys it may read.
 * Their exports are at `/api/v1/research/surveys/{gid}/export.json` and `export.csv`.
 */
export const ResearchSurveyListSchema = z.object({
  results: z.array(
    z.object({
      gid: z.uuid(),
      name: z.string(),
      state: z.enum(['scheduled', 'open', 'closed']),
    }),
  ),
});
export type ResearchSurveyList = z.infer<typeof ResearchSurveyListSchema>;
