import type { TokenPair } from '@candor/contracts';

// Storage names fixed by the spec.
export const ACCESS_KEY = 'AuthToken';
export const REFRESH_KEY = 'RefreshToken';

/** The stored session tokens, both or none. */
export function readTokens(): TokenPair | null {
  const access = localStorage.getItem(ACCESS_KEY);
  const refresh = localStorage.getItem(REFRESH_KEY);
  return access && refresh ? { access, refresh } : null;
}

export function storeTokens(tokens: TokenPair): void {
  localStorage.setItem(ACCESS_KEY, tokens.access);
  localStorage.setItem(REFRESH_KEY, tokens.refresh);
}

export function clearTokens(): void {
  localStorage.removeItem(ACCESS_KEY);
  localStorage.removeItem(REFRESH_KEY);
}

/** The user uuid (`sub`) of the stored access token, read without verifying: the API verifies. */
export function tokenSubject(): string | null {
  const access = readTokens()?.access;
  const payload = access?.split('.')[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as unknown;
    const sub = (json as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}
