import type { ErrorCode, TokenPair } from '@candor/contracts';
import { clearTokens, readTokens, storeTokens } from './tokens';

/** Where the API lives: same origin, under /api (tests point it at their own server). */
let apiBase = '/api';
export function setApiBase(base: string): void {
  apiBase = base;
}

/** An API failure, with the server's `code` to switch on and its body for field errors. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK',
    message: string,
    readonly body: unknown = null,
    /** A 429's or 503's `Retry-After`, in seconds, when the API said it. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }

  /** Field errors of a validation answer (`{field: [messages]}`), if any. */
  get fieldErrors(): Record<string, string[]> {
    if (this.code !== 'VALIDATION_FAILED' || !this.body || typeof this.body !== 'object') return {};
    const out: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(this.body)) {
      if (Array.isArray(v)) out[k] = v.filter((m): m is string => typeof m === 'string');
    }
    return out;
  }

  /** What to tell a person: `non_field_errors` each, else `detail`, else the first message. */
  get messages(): string[] {
    const fields = this.fieldErrors;
    if (fields.non_field_errors?.length) return fields.non_field_errors;
    return [this.message];
  }
}

function errorFrom(status: number, body: unknown, retryAfter: string | null = null): ApiError {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.detail === 'string' && typeof b.code === 'string') {
      const seconds = Number(retryAfter);
      const wait = retryAfter !== null && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
      return new ApiError(status, b.code as ErrorCode, b.detail, body, wait);
    }
    // Field errors: {"field": ["message"], "non_field_errors": [...]}.
    const first = Object.values(b)
      .flat()
      .find((m) => typeof m === 'string');
    if (first) return new ApiError(status, 'VALIDATION_FAILED', first, body);
  }
  return new ApiError(status, status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED', 'Request failed.');
}

const sessionEndedListeners = new Set<() => void>();

/** Called when the session cannot be refreshed any more (the auth store logs out). */
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

/** A request's options: fetch's, and whether it is a public read (sent without the session). */
export type ApiInit = RequestInit & {
  /**
   * A read that is the same for everyone (survey content): sent without the session, so it is
   * the very request a page preloaded (same headers) and never depends on a token's refresh.
   */
  public?: boolean;
  /** Reads the reply's headers when it succeeds (before its body is returned). */
  onHeaders?: (headers: Headers) => void | Promise<void>;
};

async function send(path: string, init: ApiInit, withToken: boolean): Promise<Response> {
  const { public: isPublic, onHeaders: _onHeaders, ...fetchInit } = init;
  const headers = new Headers(init.headers);
  // A body is JSON unless the caller names its own type (an upload); a read has no body, and no
  // Content-Type, so it matches a preloaded request.
  if (init.body != null && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }
  const access = withToken && !isPublic ? readTokens()?.access : undefined;
  if (access) headers.set('Authorization', `Bearer ${access}`);
  try {
    return await fetch(`${apiBase}${path}`, { ...fetchInit, headers });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(
      0,
      'NETWORK',
      'You seem to be offline. Check your connection and try again.',
    );
  }
}

async function parse<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw errorFrom(response.status, body, response.headers.get('Retry-After'));
  return body as T;
}

// One refresh at a time, shared by every request that failed with 401 meanwhile (spec section 7).
let refreshing: Promise<boolean> | null = null;

function refreshOnce(): Promise<boolean> {
  refreshing ??= (async () => {
    const tokens = readTokens();
    if (!tokens) return false;
    try {
      const fresh = await parse<TokenPair>(
        await send(
          '/token/refresh/',
          { method: 'POST', body: JSON.stringify({ refresh: tokens.refresh }) },
          false,
        ),
      );
      storeTokens(fresh);
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'NETWORK') throw err; // keep the session offline
      clearTokens();
      for (const listener of sessionEndedListeners) listener();
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * Calls the API with JSON (and the bearer token when one is stored) and returns the answer typed
 * by the contract; the API validates every response against the same schemas. A 401 exchanges the
 * refresh token once (shared by concurrent failures) and replays the request once; a failed
 * refresh ends the session. Throws ApiError; it never touches the UI.
 */
export async function apiRequest<T>(path: string, init: ApiInit = {}): Promise<T> {
  const response = await sendAuthorized(path, init);
  const body = await parse<T>(response);
  await init.onHeaders?.(response.headers);
  return body;
}

/** Sends with the bearer token; a 401 refreshes once (shared) and replays once. */
async function sendAuthorized(path: string, init: ApiInit): Promise<Response> {
  if (init.public) return send(path, init, false);
  const sentWith = readTokens()?.access;
  const response = await send(path, init, true);
  if (response.status === 401 && sentWith) {
    // Another request may have refreshed meanwhile: then only the replay is needed.
    const renewed = readTokens()?.access !== sentWith || (await refreshOnce());
    if (renewed && readTokens()) return send(path, init, true);
  }
  return response;
}

/** The file name of a `Content-Disposition: attachment; filename="..."` header, if any. */
export function attachmentFileName(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim().replace(/^"|"$/g, ''));
    } catch {
      // Fall back to the plain filename below.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  // Only a bare name: a path in it would be the server's mistake, not a folder to write to.
  const base = (plain?.[2] ?? plain?.[1])?.trim().split(/[\\/]/).pop();
  return base === undefined || base === '' ? null : base;
}

/**
 * Downloads a file the API serves as an attachment (CSV, JSON), with the token and the refresh
 * rule of `apiRequest`; returns its bytes and the server's file name. Throws ApiError.
 */
export async function apiDownload(
  path: string,
  init: RequestInit = {},
): Promise<{ blob: Blob; fileName: string | null }> {
  const response = await sendAuthorized(path, init);
  if (!response.ok) return parse<never>(response);
  return {
    blob: await response.blob(),
    fileName: attachmentFileName(response.headers.get('Content-Disposition')),
  };
}

/** POSTs a JSON body. */
export function apiPost<T>(path: string, body: unknown, init: ApiInit = {}): Promise<T> {
  return apiRequest<T>(path, { ...init, method: 'POST', body: JSON.stringify(body) });
}

/**
 * POSTs raw bytes (an image upload) with their own `Content-Type` instead of JSON, with the token
 * and the refresh rule of `apiRequest` (a Blob can be sent again on the replay). Throws ApiError.
 */
export function apiUpload<T>(path: string, body: Blob, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', body.type || 'application/octet-stream');
  return apiRequest<T>(path, { ...init, method: 'POST', body, headers });
}
