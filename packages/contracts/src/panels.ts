import { z } from 'zod';

/** Longest panel name and participant id a survey link may carry (`?panel=...&pid=...`). */
export const PANEL_MAX_LENGTH = 64;
export const PANEL_PID_MAX_LENGTH = 128;

// Printable text only: the name is shown to staff and written to a CSV.
const printable = /^[^\p{Cc}\p{Cf}]+$/u;

const panelSchema = z
  .string({ error: 'Give the panel named in your survey link.' })
  .trim()
  .min(1, 'Give the panel named in your survey link.')
  .max(PANEL_MAX_LENGTH, `A panel name has at most ${PANEL_MAX_LENGTH} characters.`)
  .regex(printable, 'A panel name is printable text.');

const pidSchema = z
  .string({ error: 'Give your participant id from the panel.' })
  .trim()
  .min(1, 'Give your participant id from the panel.')
  .max(PANEL_PID_MAX_LENGTH, `A participant id has at most ${PANEL_PID_MAX_LENGTH} characters.`)
  .regex(printable, 'A participant id is printable text.');

/** The body of `POST /v1/surveys/{gid}/answers/panel-completion/`: who sent the respondent. */
export const PanelCompletionRequestSchema = z
  .object({ panel: panelSchema, pid: pidSchema })
  .strict();
export type PanelCompletionRequest = z.infer<typeof PanelCompletionRequestSchema>;

/**
 * A completion the server recorded once every question of the survey was answered: the code is
 * an HMAC of survey, panel and participant under a server key, so only Candor can issue one.
 * `completed_at` is the day (midnight UTC), never the time: that is all Candor keeps of it.
 */
export const PanelCompletionSchema = z.object({
  gid: z.uuid(),
  panel: z.string(),
  /** 12 characters from A-Z and 2-9 (no 0, 1, I, O). */
  code: z.string(),
  completed_at: z.iso.datetime({ offset: true }),
});
export type PanelCompletion = z.infer<typeof PanelCompletionSchema>;

/** The body of the operators' check of a code a panel reports (spaces and dashes ignored). */
export const PanelCodeCheckRequestSchema = z
  .object({
    panel: panelSchema,
    pid: pidSchema,
    code: z.string({ error: 'Give the completion code.' }).trim().min(1).max(40),
  })
  .strict();
export type PanelCodeCheckRequest = z.infer<typeof PanelCodeCheckRequestSchema>;

/**
 * `valid` only for a code Candor issued to this participant of this panel for this survey;
 * `completed_at` the day of its first completion (midnight UTC).
 */
export const PanelCodeCheckSchema = z.object({
  valid: z.boolean(),
  completed_at: z.iso.datetime({ offset: true }).nullable(),
});
export type PanelCodeCheck = z.infer<typeof PanelCodeCheckSchema>;

/**
 * Completions of a survey per panel, for operators (most completions first);
 * `last_completed_at` is the day of the latest (midnight UTC).
 */
export const PanelCompletionCountsSchema = z.object({
  gid: z.uuid(),
  total: z.number().int(),
  panels: z.array(
    z.object({
      panel: z.string(),
      completions: z.number().int(),
      last_completed_at: z.iso.datetime({ offset: true }),
    }),
  ),
});
export type PanelCompletionCounts = z.infer<typeof PanelCompletionCountsSchema>;
