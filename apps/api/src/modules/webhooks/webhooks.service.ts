import crypto from 'node:crypto';
import {
  type CreatedWebhook,
  WEBHOOK_MAX,
  WEBHOOK_SECRET_PREFIX,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookInputSchema,
  type WebhookList,
} from '@candor/contracts';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { openJson, sealJson } from '../../lib/profile-seal.js';
import { isUuid } from '../../lib/uuid.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type {
  DeliveryRow,
  FoundEvent,
  WebhookRow,
  WebhooksRepository,
} from './webhooks.repository.js';
import {
  type Attempt,
  type Resolve,
  RefusedTarget,
  checkTarget,
  createAddressGuard,
  send,
} from './webhooks.sender.js';

type WebhookInput = z.output<typeof WebhookInputSchema>;

/** Waits before each retry, after the 1st, 2nd… failed attempt: about 9 hours in all. */
export const RETRY_DELAYS_S = [10, 60, 300, 1800, 7200, 21_600];
const DAY_MS = 86_400_000;
/** Deliveries sent per tick, and how long one sender holds one (well past an attempt's deadline). */
const BATCH = 20;
const LEASE_MS = 120_000;
/** Events older than this when a sender first sees them are not sent (a long outage's backlog). */
const LOOKBACK_MS = DAY_MS;
/** The delivery log keeps this long. */
const KEEP_MS = 30 * DAY_MS;

const SHOWN = WEBHOOK_SECRET_PREFIX.length + 4;

/**
 * Operators' webhooks (issue 31, point 5; decision 032). Events are read from the catalogue's
 * state on each tick (a survey listed, closed, or with newly published results), so no writer
 * needs a hook and every process finds the same events; each is logged once per webhook and
 * sent signed (Standard Webhooks), retried with backoff, and may be redelivered by hand. A
 * payload holds published numbers only: the survey's results as anyone reads them.
 */
export function createWebhooksService(
  repo: WebhooksRepository,
  deps: {
    audit: Pick<AuditService, 'record'>;
    sealKey: Buffer;
    /** CIDRs a webhook may reach though private (WEBHOOK_ALLOWED_PRIVATE). */
    allowedPrivate: string[];
    publicUrl?: string;
    intervalSeconds: number;
    onError?: (err: unknown) => void;
    resolve?: Resolve;
    /** Tests shorten an attempt's deadline (sender.ts ATTEMPT_MS). */
    attemptMs?: number;
    clock?: () => Date;
  },
) {
  const clock = deps.clock ?? (() => new Date());
  const isAllowed = createAddressGuard(deps.allowedPrivate);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  function view(row: WebhookRow, last?: { status: string; at: string }): Webhook {
    return {
      id: row.gid,
      url: row.url,
      events: row.events as Webhook['events'],
      secret_prefix: row.secretPrefix,
      created_at: row.createdAt.toISOString(),
      last_delivery: last
        ? {
            status: last.status as 'pending' | 'delivered' | 'failed',
            at: new Date(last.at).toISOString(),
          }
        : null,
    };
  }

  function deliveryView(row: DeliveryRow): WebhookDelivery {
    return {
      id: row.gid,
      event: row.event as WebhookDelivery['event'],
      status: row.status as WebhookDelivery['status'],
      attempts: row.attempts,
      last_status: row.lastStatus,
      last_error: row.lastError,
      created_at: row.createdAt.toISOString(),
      next_attempt_at: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
      delivered_at: row.deliveredAt?.toISOString() ?? null,
      payload: row.payload as Record<string, unknown>,
    };
  }

  async function webhookOf(gid: string): Promise<WebhookRow> {
    const g = gid.toLowerCase();
    const row = isUuid(g) ? await repo.find(g) : undefined;
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  const surveyUrl = (gid: string) => (deps.publicUrl ? `${deps.publicUrl}/surveys/${gid}` : null);

  /**
   * The body of an event: Standard Webhooks' `type`, `timestamp` and `data`. It names the survey
   * and where its published results are; it carries no figure itself, so the delivery log keeps
   * no copy of results that a later withdrawal or deletion would change (decision 032). The time
   * is when Candor saw the event, not the release's own moment.
   */
  function payloadOf(found: FoundEvent, now: Date): Record<string, unknown> {
    const survey = { gid: found.gid, name: found.name, url: surveyUrl(found.gid) };
    const data =
      found.event === 'results.updated'
        ? { survey, results_path: `/api/v1/surveys/${found.gid}/results/` }
        : { survey };
    return { type: found.event, timestamp: now.toISOString(), data };
  }

  /** Logs every event not yet logged for each webhook made before it. */
  async function findEvents(now: Date): Promise<void> {
    const hooks = await repo.all();
    if (!hooks.length) return;
    const oldest = Math.min(...hooks.map((h) => h.createdAt.getTime()));
    const since = new Date(Math.max(oldest, now.getTime() - LOOKBACK_MS));
    const found = await repo.events(since, now);
    const known = await repo.known(found.map((f) => f.key));
    const rows = [];
    for (const f of found) {
      for (const hook of hooks) {
        if (!hook.events.includes(f.event) || f.at <= hook.createdAt) continue;
        if (known.has(`${hook.id} ${f.key}`)) continue;
        rows.push({
          webhookId: hook.id,
          eventKey: f.key,
          event: f.event,
          payload: payloadOf(f, now),
        });
      }
    }
    await repo.enqueue(rows, now);
  }

  /**
   * Sends what is due (or only delivery `only`), one at a time, each attempt recorded with its
   * next try. Each is taken under its own lease for longer than an attempt can last, so no
   * other sender takes it meanwhile; an outcome recorded after the lease was lost is dropped.
   */
  async function sendDue(now: Date, only?: number): Promise<void> {
    for (let i = 0; i < BATCH; i++) {
      const lease = crypto.randomUUID();
      const [d] = await repo.claim(now, 1, LEASE_MS, lease, only);
      if (!d) return;
      let attempt: Attempt;
      try {
        const secret = openJson(deps.sealKey, d.secretSealed) as string;
        attempt = await send(
          d.url,
          {
            id: `msg_${d.gid}`,
            body: JSON.stringify(d.payload),
            secret,
            timestamp: Math.floor(clock().getTime() / 1000),
          },
          isAllowed,
          deps.resolve,
          deps.attemptMs,
        );
      } catch (err) {
        // A secret sealed under an earlier JWT_SECRET: this one fails, the others go on.
        deps.onError?.(err);
        attempt = { ok: false, status: null, error: 'could not sign (add the webhook again)' };
      }
      const delay = RETRY_DELAYS_S[d.attempts];
      const at = clock();
      const next = attempt.ok || delay === undefined ? null : new Date(at.getTime() + delay * 1000);
      await repo.record(d.id, lease, attempt, at, next);
      if (only !== undefined) return;
    }
  }

  async function tick(): Promise<void> {
    const now = clock();
    await findEvents(now);
    await sendDue(now);
    await repo.prune(new Date(now.getTime() - KEEP_MS));
  }

  return {
    async list(): Promise<WebhookList> {
      return { results: (await repo.list()).map(({ row, last }) => view(row, last)) };
    },

    async create(input: WebhookInput, actor: Actor): Promise<CreatedWebhook> {
      try {
        await checkTarget(input.url, isAllowed, deps.resolve);
      } catch (err) {
        if (!(err instanceof RefusedTarget)) throw err;
        throw new AppError('VALIDATION_FAILED', undefined, { url: [err.message] });
      }
      if ((await repo.count()) >= WEBHOOK_MAX) {
        throw new AppError(
          'INVALID_STATE',
          `Candor keeps at most ${WEBHOOK_MAX} webhooks: delete one you no longer use.`,
        );
      }
      const secret = WEBHOOK_SECRET_PREFIX + crypto.randomBytes(24).toString('base64');
      const row = await repo.insert({
        url: input.url,
        events: input.events,
        secretSealed: sealJson(deps.sealKey, secret),
        secretPrefix: secret.slice(0, SHOWN),
        creatorUuid: actor.uuid,
        createdAt: clock(),
      });
      await deps.audit.record(actor, 'webhook.create', `webhook:${row.gid}`, {
        host: new URL(row.url).host,
        events: row.events.join(' '),
      });
      return { ...view(row), secret };
    },

    async remove(gid: string, actor: Actor): Promise<void> {
      const row = await webhookOf(gid);
      if (!(await repo.remove(row.gid))) throw new AppError('NOT_FOUND');
      await deps.audit.record(actor, 'webhook.delete', `webhook:${row.gid}`, {
        host: new URL(row.url).host,
      });
    },

    async deliveries(gid: string): Promise<WebhookDeliveryList> {
      const row = await webhookOf(gid);
      return { results: (await repo.deliveries(row.id, 50)).map(deliveryView) };
    },

    /** Sends a `ping` now, to check the receiver and its signature check. */
    async ping(gid: string, actor: Actor): Promise<WebhookDelivery> {
      const row = await webhookOf(gid);
      const now = clock();
      const key = `ping:${crypto.randomUUID()}`;
      const payload = { type: 'ping', timestamp: now.toISOString(), data: {} };
      const [made] = await repo.enqueue(
        [{ webhookId: row.id, eventKey: key, event: 'ping', payload }],
        now,
      );
      await deps.audit.record(actor, 'webhook.ping', `webhook:${row.gid}`, {
        host: new URL(row.url).host,
      });
      await sendDue(now, made!.id);
      return deliveryView((await repo.delivery(made!.id))!);
    },

    async redeliver(gid: string, deliveryGid: string, actor: Actor): Promise<WebhookDelivery> {
      const row = await webhookOf(gid);
      const d = deliveryGid.toLowerCase();
      const now = clock();
      const again = isUuid(d) ? await repo.redeliver(row.id, d, now) : undefined;
      if (!again) {
        const known = isUuid(d) && (await repo.deliveries(row.id, 50)).some((x) => x.gid === d);
        if (!known) throw new AppError('NOT_FOUND');
        throw new AppError(
          'INVALID_STATE',
          'This delivery is being sent right now; try again in a minute.',
        );
      }
      await deps.audit.record(actor, 'webhook.redeliver', `webhook:${row.gid}`, {
        host: new URL(row.url).host,
        event: again.event,
      });
      await sendDue(now, again.id);
      return deliveryView((await repo.delivery(again.id))!);
    },

    /** Finds events and sends what is due now (the background loop does this every interval). */
    tick,

    start() {
      if (deps.intervalSeconds <= 0 || timer) return;
      timer = setInterval(() => {
        if (running) return;
        running = tick()
          .catch((err: unknown) => deps.onError?.(err))
          .finally(() => (running = undefined));
      }, deps.intervalSeconds * 1000);
      timer.unref();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
