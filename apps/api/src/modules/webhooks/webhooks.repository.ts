import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users, webhookDeliveries, webhooks } from '../../db/schema.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A survey event found in the catalogue's state (decision 032: no hook in the writers). */
export interface FoundEvent {
  event: 'survey.published' | 'survey.closed' | 'results.updated';
  key: string;
  gid: string;
  name: string;
  at: Date;
}

/** A delivery taken by this sender, with what it needs to send it. */
export interface Claimed {
  id: number;
  gid: string;
  payload: unknown;
  attempts: number;
  url: string;
  secretSealed: string;
}

const iso = (d: Date) => d.toISOString();
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Webhooks and their delivery log: Drizzle only. */
export function createWebhooksRepository(db: Db) {
  return {
    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(webhooks);
      return row?.n ?? 0;
    },

    async insert(values: {
      url: string;
      events: string[];
      secretSealed: string;
      secretPrefix: string;
      creatorUuid: string;
      createdAt: Date;
    }): Promise<WebhookRow> {
      const [creator] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.uuid, values.creatorUuid));
      const [row] = await db
        .insert(webhooks)
        .values({
          url: values.url,
          events: values.events,
          secretSealed: values.secretSealed,
          secretPrefix: values.secretPrefix,
          createdBy: creator?.id ?? null,
          createdAt: values.createdAt,
        })
        .returning();
      return row!;
    },

    /** Every webhook (the tick's read: no delivery outcomes). */
    async all(): Promise<WebhookRow[]> {
      return db.select().from(webhooks);
    },

    /** Newest first, each with its latest delivery's outcome (the admins' list). */
    async list() {
      const rows = await db.select().from(webhooks).orderBy(desc(webhooks.createdAt));
      const latest = rowsOf<{ webhook_id: number; status: string; at: string }>(
        await db.execute(sql`
        select distinct on (webhook_id) webhook_id, status,
          coalesce(delivered_at, created_at) as at
        from webhook_deliveries order by webhook_id, created_at desc, id desc`),
      );
      const byId = new Map(latest.map((r) => [r.webhook_id, r]));
      return rows.map((row) => ({ row, last: byId.get(row.id) }));
    },

    async find(gid: string): Promise<WebhookRow | undefined> {
      const [row] = await db.select().from(webhooks).where(eq(webhooks.gid, gid));
      return row;
    },

    /** Deletes a webhook and its log; false when unknown. */
    async remove(gid: string): Promise<boolean> {
      const done = await db
        .delete(webhooks)
        .where(eq(webhooks.gid, gid))
        .returning({ id: webhooks.id });
      return done.length > 0;
    },

    /**
     * Survey events since `since`, read from the catalogue: a survey listed (published and
     * released), closed (by hand or on schedule), or with results published by the last release.
     * Each key is the event itself, so every process finds the same ones.
     */
    async events(since: Date, now: Date): Promise<FoundEvent[]> {
      const result = rowsOf<{
        event: FoundEvent['event'];
        gid: string;
        name: string;
        at: string;
      }>(
        await db.execute(sql`
        select 'survey.published' as event, gid, name,
          greatest(published_at, release_date) as at
        from surveys
        where published_at is not null
          and greatest(published_at, release_date) > ${iso(since)}::timestamptz
          and greatest(published_at, release_date) <= ${iso(now)}::timestamptz
        union all
        select 'survey.closed', gid, name, closed_at
        from surveys
        where published_at is not null and closed_at > ${iso(since)}::timestamptz
          and closed_at <= ${iso(now)}::timestamptz and release_date <= closed_at
        union all
        select 'results.updated', s.gid, s.name, max(t.published_at)
        from surveys s join questions q on q.survey_id = s.id
          join question_tallies t on t.question_id = q.id
        where s.published_at is not null and s.release_date <= ${iso(now)}::timestamptz
          and t.published_at > ${iso(since)}::timestamptz
        group by s.id`),
      );
      return result.map((r) => {
        const at = new Date(r.at);
        return {
          event: r.event,
          gid: r.gid,
          name: r.name,
          at,
          // A survey is published once: a release date moved later is not a second event.
          key:
            r.event === 'survey.published'
              ? `${r.event}:${r.gid}`
              : `${r.event}:${r.gid}:${iso(at)}`,
        };
      });
    },

    /** The (webhook, key) pairs already in the log among those given. */
    async known(keys: string[]): Promise<Set<string>> {
      if (!keys.length) return new Set();
      const rows = await db
        .select({ webhookId: webhookDeliveries.webhookId, eventKey: webhookDeliveries.eventKey })
        .from(webhookDeliveries)
        .where(inArray(webhookDeliveries.eventKey, keys));
      return new Set(rows.map((r) => `${r.webhookId} ${r.eventKey}`));
    },

    /** Adds deliveries; one already there for its webhook and key is left alone. */
    async enqueue(
      rows: Array<{ webhookId: number; eventKey: string; event: string; payload: unknown }>,
      now: Date,
    ): Promise<DeliveryRow[]> {
      if (!rows.length) return [];
      return db
        .insert(webhookDeliveries)
        .values(rows.map((r) => ({ ...r, nextAttemptAt: now, createdAt: now })))
        .onConflictDoNothing()
        .returning();
    },

    async delivery(id: number): Promise<DeliveryRow | undefined> {
      const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
      return row;
    },

    /**
     * Takes up to `limit` due deliveries for `leaseMs` (other senders skip them), oldest first.
     */
    async claim(
      now: Date,
      limit: number,
      leaseMs: number,
      lease: string,
      only?: number,
    ): Promise<Claimed[]> {
      const result = rowsOf<{
        id: number;
        gid: string;
        payload: unknown;
        attempts: number;
        url: string;
        secret_sealed: string;
      }>(
        await db.execute(sql`
        with due as (
          select id from webhook_deliveries
          where status = 'pending' and next_attempt_at <= ${iso(now)}::timestamptz
            and (locked_until is null or locked_until <= ${iso(now)}::timestamptz)
            ${only === undefined ? sql`` : sql`and id = ${only}`}
          order by next_attempt_at, id limit ${limit}
          for update skip locked)
        update webhook_deliveries d
        set locked_until = ${iso(new Date(now.getTime() + leaseMs))}::timestamptz, lease = ${lease}
        from due, webhooks w
        where d.id = due.id and w.id = d.webhook_id
        returning d.id, d.gid, d.payload, d.attempts, w.url, w.secret_sealed`),
      );
      return result.map((r) => ({
        id: r.id,
        gid: r.gid,
        payload: r.payload,
        attempts: r.attempts,
        url: r.url,
        secretSealed: r.secret_sealed,
      }));
    },

    /**
     * One attempt's outcome: delivered, or failed with its next try (null: given up). Only
     * under the lease it was sent with: a sender whose lease ran out (a slow receiver) while
     * another sent it again, or a redelivery reset it, changes nothing.
     */
    async record(
      id: number,
      lease: string,
      outcome: { ok: boolean; status: number | null; error: string | null },
      now: Date,
      next: Date | null,
    ): Promise<void> {
      await db
        .update(webhookDeliveries)
        .set({
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          status: outcome.ok ? 'delivered' : next ? 'pending' : 'failed',
          lastStatus: outcome.status,
          lastError: outcome.error,
          deliveredAt: outcome.ok ? now : null,
          nextAttemptAt: outcome.ok ? null : next,
          lockedUntil: null,
          lease: null,
        })
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.lease, lease)));
    },

    /** A webhook's latest deliveries, newest first. */
    async deliveries(webhookId: number, limit: number): Promise<DeliveryRow[]> {
      return db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, webhookId))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(limit);
    },

    /** Sends a logged delivery again from its first try; undefined when unknown. */
    async redeliver(webhookId: number, gid: string, now: Date): Promise<DeliveryRow | undefined> {
      // Not one being sent right now (its outcome would overwrite this).
      const [row] = await db
        .update(webhookDeliveries)
        .set({ status: 'pending', attempts: 0, nextAttemptAt: now, lockedUntil: null, lease: null })
        .where(
          and(
            eq(webhookDeliveries.webhookId, webhookId),
            eq(webhookDeliveries.gid, gid),
            sql`(${webhookDeliveries.lockedUntil} is null or ${webhookDeliveries.lockedUntil} <= ${iso(now)}::timestamptz)`,
          ),
        )
        .returning();
      return row;
    },

    /** Forgets deliveries made before `before` (the log keeps 30 days). */
    async prune(before: Date): Promise<void> {
      await db.execute(
        sql`delete from webhook_deliveries where created_at < ${iso(before)}::timestamptz`,
      );
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
