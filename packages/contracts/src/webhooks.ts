import { z } from 'zod';

const when = z.iso.datetime({ offset: true });

/** What a webhook can be told (issue 31, point 5; decision 032). `ping` is the "Send a test" event. */
export const WEBHOOK_EVENTS = ['survey.published', 'survey.closed', 'results.updated'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number] | 'ping';

/** Every webhook's signing secret starts with this (as Standard Webhooks' secrets do). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Most webhooks one Candor keeps. */
export const WEBHOOK_MAX = 20;

/** `POST /api/v1/admin/webhooks/` (admins): a receiver and what it is told. */
export const WebhookInputSchema = z
  .object({
    url: z
      .string({ error: 'Give the address that receives the events.' })
      .trim()
      .min(1, 'Give the address that receives the events.')
      .max(2000, 'Keep the address under 2,000 characters.')
      .refine((v) => {
        try {
          const u = new URL(v);
          return (u.protocol === 'https:' || u.protocol === 'http:') && Boolean(u.hostname);
        } catch {
          return false;
        }
      }, 'Give a full web address, starting with https://')
      .refine((v) => {
        try {
          const u = new URL(v);
          return !u.username && !u.password;
        } catch {
          return true;
        }
      }, 'Leave the user name and password out of the address: requests are signed instead.'),
    events: z
      .array(z.enum(WEBHOOK_EVENTS, 'Pick events from the list.'), {
        error: 'Pick at least one event.',
      })
      .min(1, 'Pick at least one event.')
      .max(WEBHOOK_EVENTS.length, 'Pick each event once.')
      .refine((e) => new Set(e).size === e.length, 'Pick each event once.'),
  })
  .strict();
export type WebhookInput = z.input<typeof WebhookInputSchema>;

/** A webhook as admins see it: never its secret, which is shown once when it is made. */
export const WebhookSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  /** The secret's first characters ("whsec_Ab3k"), to tell secrets apart. */
  secret_prefix: z.string(),
  created_at: when,
  /** The latest delivery's outcome, if any. */
  last_delivery: z
    .object({
      status: z.enum(['pending', 'delivered', 'failed']),
      at: when,
    })
    .nullable(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhookListSchema = z.object({ results: z.array(WebhookSchema) });
export type WebhookList = z.infer<typeof WebhookListSchema>;

/** The reply to a new webhook: its signing secret, shown this once. */
export const CreatedWebhookSchema = WebhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

/** One event sent (or being sent) to a webhook: the delivery log. */
export const WebhookDeliverySchema = z.object({
  id: z.uuid(),
  event: z.enum([...WEBHOOK_EVENTS, 'ping']),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  /** The receiver's last HTTP status, if it answered. */
  last_status: z.number().int().nullable(),
  /** Why the last attempt failed, in words ("timed out", "private address refused"). */
  last_error: z.string().nullable(),
  created_at: when,
  next_attempt_at: when.nullable(),
  delivered_at: when.nullable(),
  /** What was sent: published numbers only. */
  payload: z.record(z.string(), z.unknown()),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = z.object({ results: z.array(WebhookDeliverySchema) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;
