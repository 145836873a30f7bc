import type { Role } from '@candor/contracts';
import type { AccessClaims } from '../../lib/tokens.js';
import type { AuthRepository, UserStatus } from './auth.repository.js';

/**
 * How long a process trusts what it read about a session while it hears every change through
 * the database's notifications. A bound for writes made behind the API's back (SQL by hand).
 */
export const SESSION_CACHE_MS = 60_000;
const MAX_CACHED_USERS = 50_000;

/** Statuses that may hold a session (the sessions service refuses logins and refreshes alike). */
export const SESSION_STATUSES: ReadonlySet<UserStatus> = new Set(['active', 'under_review']);

/**
 * How long after its last answered probe (db/client.ts `caughtUp`) a process on PostgreSQL
 * still trusts what it cached: a change committed before that probe was sent has been heard.
 * A change that lets tokens do less waits this long after its commit before it is answered
 * (session-changes.ts), so by then every process has heard it or stopped trusting its cache
 * (decision 023).
 */
export const SESSION_LEASE_MS = 250;
/** How often the notification connection is probed; several probes fit in one lease. */
export const SESSION_PROBE_MS = 50;

export interface SessionGateOptions {
  cacheMs?: number;
  /** The app's clock (ms), for the cache's lifetime. */
  now?: () => number;
  /**
   * Cached answers need a probe of the notification connection answered within `ms` (on
   * PostgreSQL, where other processes write). Without it (PGlite: one process, notified before
   * the change's statement returns), being subscribed is enough.
   */
  lease?: { ms: number; monotonic?: () => number };
}

/**
 * The per-request revocation check of access tokens (decisions 005 and 023): a token is good
 * only while its account may log in with the role the token names and its session (refresh
 * family) is not revoked. Answers come from a small per-process cache that is dropped for a
 * user as soon as a change is committed (in this process at once, in every other through
 * NOTIFY), and used only while this process demonstrably hears every change: subscribed, and on
 * PostgreSQL a probe sent less than a lease ago answered behind every notification before it.
 */
export function createSessionGate(
  repo: Pick<AuthRepository, 'sessionStanding'>,
  opts: SessionGateOptions = {},
) {
  const cacheMs = opts.cacheMs ?? SESSION_CACHE_MS;
  const now = opts.now ?? Date.now;
  const lease = opts.lease;
  const monotonic = lease?.monotonic ?? (() => performance.now());
  /** uuid -> session id -> role it was good for, until when. */
  const cache = new Map<string, Map<string, { role: Role; until: number }>>();
  let listening = false;
  /** When the latest probe answered was sent (monotonic ms). */
  let caughtUpAt = Number.NEGATIVE_INFINITY;
  // Bumped by every invalidation: a read that started before one may not fill the cache with
  // what it saw (the change may have been committed after the read's snapshot).
  let epoch = 0;

  function forget(uuid: string): void {
    epoch += 1;
    cache.delete(uuid);
  }

  /** Whether every change committed until shortly before now has reached this process. */
  function hearsEverything(): boolean {
    return listening && (lease === undefined || monotonic() - caughtUpAt < lease.ms);
  }

  /** True when what this process knows (cached, still fresh, heard of every change) admits it. */
  function admitsKnown(claims: AccessClaims): boolean {
    const known = cache.get(claims.sub)?.get(claims.sid);
    return (
      known !== undefined && known.until > now() && known.role === claims.role && hearsEverything()
    );
  }

  return {
    /**
     * True when the cache alone admits the token (see admits); false means "ask admits", not
     * "refused". Synchronous: the hot path of every authenticated request.
     */
    admitsKnown,

    /** True when the token's account and session still allow what the token says. */
    async admits(claims: AccessClaims): Promise<boolean> {
      if (admitsKnown(claims)) return true;
      const seen = epoch;
      const standing = await repo.sessionStanding(claims.sub, claims.sid);
      const good =
        standing !== undefined &&
        standing.live &&
        SESSION_STATUSES.has(standing.status) &&
        standing.role === claims.role;
      if (good && listening && seen === epoch) {
        let sessions = cache.get(claims.sub);
        if (!sessions) {
          // The oldest user leaves first when the cache is full.
          if (cache.size >= MAX_CACHED_USERS) cache.delete(cache.keys().next().value!);
          sessions = new Map();
          cache.set(claims.sub, sessions);
        }
        sessions.set(claims.sid, { role: standing.role, until: now() + cacheMs });
      }
      return good;
    },

    /** Drops what this process knows about `uuid`'s tokens (a change was just written). */
    invalidate: forget,

    /** Whether change notifications are arriving; while they are not, every request reads. */
    setListening(value: boolean): void {
      listening = value;
      caughtUpAt = Number.NEGATIVE_INFINITY;
      epoch += 1;
      cache.clear();
    },

    /**
     * A probe sent at `sentAt` (monotonic ms) was answered on the notification connection: every
     * change committed before then has been heard (db/client.ts `caughtUp`).
     */
    caughtUp(sentAt: number): void {
      if (sentAt > caughtUpAt) caughtUpAt = sentAt;
    },

    /** Users with cached sessions (for tests). */
    get cachedUsers(): number {
      return cache.size;
    },
  };
}

export type SessionGate = ReturnType<typeof createSessionGate>;
