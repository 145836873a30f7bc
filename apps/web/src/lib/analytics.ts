/**
 * First-party page views (no cookie, no third party, no ids): the route pattern of each completed
 * navigation and the referring host. Off in development mode, as the spec asks.
 */

/** `/surveys/3f2c...` with params `{surveyId: '3f2c...'}` becomes `/surveys/:surveyId`. */
export function routePattern(pathname: string, params: Record<string, string | undefined>): string {
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) {
    if (value && name !== '*') names.set(value, name);
  }
  return pathname
    .split('/')
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // A malformed escape is sent as it is.
      }
      const name = names.get(decoded);
      return name ? `:${name}` : segment;
    })
    .join('/');
}

/** The referrer's host when it is another site; null for none or for Candor itself. */
export function referrerHost(referrer: string, ownHost: string): string | null {
  try {
    const host = new URL(referrer).host;
    return host && host !== ownHost ? host : null;
  } catch {
    return null;
  }
}

/** Sends one page view; never fails, never retries (a lost view is no reason to bother anyone). */
export function sendPageView(path: string, referrer: string | null, apiBase = '/api'): void {
  if (import.meta.env.DEV) return;
  void fetch(`${apiBase}/v1/page-views/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path, referrer_host: referrer }),
    keepalive: true,
    credentials: 'omit',
  }).catch(() => undefined);
}
