/**
 * This tab's visitor session (issue 28, shared devices): answers given logged out, and the
 * survey place they were at, belong to it. A random id kept in sessionStorage, so it lives as
 * long as the tab (reloads included) and no other tab or later visit shares it. While the tab
 * lives it holds a Web Lock named after the session: another tab can tell a live session from
 * one that ended (whose answers are deleted, never offered to whoever logs in next).
 */
export const VISITOR = 'visitor';
export const VISITOR_SESSION_KEY = 'candor.visitorSession';
const LOCK_PREFIX = 'candor-';

// Where sessionStorage is refused: the page's life instead.
let memory: string | null = null;
let held: { owner: string; release: () => void } | null = null;

/** The browser's Web Locks (not in older browsers, nor in the unit tests' jsdom). */
const lockManager = (): LockManager | undefined =>
  typeof navigator === 'undefined' ? undefined : navigator.locks;

function storedId(): string | null {
  try {
    return sessionStorage.getItem(VISITOR_SESSION_KEY);
  } catch {
    return memory;
  }
}

/** `visitor:<id>` of this tab, made on first use, and marked live. */
export function visitorSessionOwner(): string {
  let id = storedId();
  if (!id) {
    id = crypto.randomUUID();
    try {
      sessionStorage.setItem(VISITOR_SESSION_KEY, id);
    } catch {
      memory = id;
    }
  }
  const owner = `${VISITOR}:${id}`;
  if (held?.owner !== owner) holdLock(owner);
  return owner;
}

/** `visitor:<id>` of this tab if it has a session already (never makes one), else null. */
export function existingVisitorOwner(): string | null {
  const id = storedId();
  return id ? `${VISITOR}:${id}` : null;
}

/** At start: a tab that has a visitor session (a reload) marks it live at once. */
export function keepVisitorSessionLive(): void {
  if (storedId()) visitorSessionOwner();
}

/** Ends this tab's visitor session (a logout, "this is not my device"): the next use makes a new one. */
export function endVisitorSession(): void {
  held?.release();
  held = null;
  memory = null;
  try {
    sessionStorage.removeItem(VISITOR_SESSION_KEY);
  } catch {
    // Memory only: already forgotten.
  }
}

function holdLock(owner: string) {
  held?.release();
  held = null;
  const locks = lockManager();
  if (!locks) return;
  let release: (() => void) | null = null;
  let released = false;
  held = {
    owner,
    release: () => {
      released = true;
      release?.();
    },
  };
  void locks
    .request(
      `${LOCK_PREFIX}${owner}`,
      () =>
        new Promise<void>((resolve) => {
          if (released) resolve();
          else release = resolve;
        }),
    )
    .catch(() => undefined);
}

/** The visitor sessions some tab of this browser holds live, or null where it cannot tell. */
export async function liveVisitorSessions(): Promise<Set<string> | null> {
  const locks = lockManager();
  // Older browsers: no tab can be told alive, so every other session counts as ended.
  if (!locks) return null;
  const { held: all = [] } = await locks.query();
  return new Set(
    all
      .map((l) => l.name ?? '')
      .filter((name) => name.startsWith(`${LOCK_PREFIX}${VISITOR}:`))
      .map((name) => name.slice(LOCK_PREFIX.length)),
  );
}
