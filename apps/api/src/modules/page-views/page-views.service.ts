import type { PageViewRequest, PageViewStats } from '@candor/contracts';
import { RateLimitedError } from '../../lib/app-error.js';
import { hmacHex } from '../../lib/keys.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import type { PageViewsRepository } from './page-views.repository.js';

/** Page views one client IP may send per minute; more are refused with 429. */
export const PAGE_VIEWS_PER_IP_PER_MINUTE = 120;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const HOST = /^[a-z0-9.-]{1,253}(:\d{1,5})?$/;
/** The staff area: its views are staff's own work, never the product's traffic. */
export const isStaffArea = (path: string) => path === '/admin' || path.startsWith('/admin/');

/** A referring host as stored: lowercased, or null when it is not a plain host[:port]. */
export function referrerHostOf(value: string | null | undefined): string | null {
  const host = value?.trim().toLowerCase();
  return host && HOST.test(host) ? host : null;
}

export interface PageViewsServiceDeps {
  limits: RateLimitStore;
  /** Keys.ip: the limit's key holds an HMAC of the IP, never the IP. */
  ipKey: Buffer;
  /** ANALYTICS=off: nothing is stored. */
  enabled: boolean;
  clock?: () => Date;
}

/** First-party analytics: a route pattern, the day and the referring host. No IP, user or cookie. */
export function createPageViewsService(repo: PageViewsRepository, deps: PageViewsServiceDeps) {
  const clock = deps.clock ?? (() => new Date());
  return {
    async record(view: PageViewRequest, ip: string): Promise<void> {
      // Accepted and dropped: a view of the staff area is not counted, whoever sends it.
      if (!deps.enabled || isStaffArea(view.path)) return;
      const key = `pv:ip:${hmacHex(deps.ipKey, ip).slice(0, 32)}`;
      const hits = await deps.limits.hit(key, MINUTE_MS);
      if (hits.count > PAGE_VIEWS_PER_IP_PER_MINUTE) throw new RateLimitedError(hits.resetInMs);
      await repo.insert({
        path: view.path,
        day: clock().toISOString().slice(0, 10),
        referrerHost: referrerHostOf(view.referrer_host),
      });
    },

    /** Views over the last `days` days (today included, UTC), every day listed. */
    async stats(days: number): Promise<PageViewStats> {
      const today = clock().getTime();
      const from = dayOf(today - (days - 1) * DAY_MS);
      const { perDay, perPath, perReferrer } = await repo.stats(from, dayOf(today));
      const byDay = new Map(perDay.map((r) => [r.day, r.views]));
      const series = Array.from({ length: days }, (_, i) => {
        const day = dayOf(today - (days - 1 - i) * DAY_MS);
        return { day, views: byDay.get(day) ?? 0 };
      });
      return {
        days: series,
        paths: perPath,
        referrers: perReferrer.map((r) => ({ host: r.host!, views: r.views })),
        total: series.reduce((n, d) => n + d.views, 0),
      };
    },
  };
}

export type PageViewsService = ReturnType<typeof createPageViewsService>;
