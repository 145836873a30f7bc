import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from './auth-store';
import { readSurveyPosition, saveSurveyPosition } from './survey-storage';
import { readTokens } from './tokens';

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('the auth store', () => {
  it.each([
    ['logging out', () => useAuthStore.getState().logout()],
    [
      'ending the session (an erased account)',
      () => Promise.resolve(useAuthStore.getState().endSession()),
    ],
  ])('forgets where the person was in a survey on %s', async (_, end) => {
    // The next person on the device would otherwise land on this one's question.
    saveSurveyPosition({ surveyId: 'g-1', activeQuestion: 'q-4', currentShuffle: { a: 1 } });
    await end();
    expect(readSurveyPosition()).toEqual({
      surveyId: null,
      activeQuestion: null,
      currentShuffle: null,
    });
    expect(useAuthStore.getState().auth).toBe(false);
  });

  it('keeps a session that started though loading the account failed on the way', async () => {
    // A reload or a link followed as the login lands aborts the account's request: the person
    // is logged in all the same, and the next page loads their account.
    const pair = { access: 'a.b.c', refresh: 'r.s.t' };
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        url.endsWith('/api/token/')
          ? Promise.resolve(new Response(JSON.stringify(pair), { status: 200 }))
          : Promise.reject(new TypeError('Failed to fetch')),
      ),
    );
    await expect(
      useAuthStore.getState().login({ phone_number: '+12025550123', password: 'long enough pw' }),
    ).rejects.toThrow();
    expect(readTokens()).toEqual(pair);
    expect(useAuthStore.getState().auth).toBe(true);
  });

  it('ends a session whose account could not be loaded for another reason, and revokes it', async () => {
    const pair = { access: 'a.b.c', refresh: 'r.s.t' };
    const fetchMock = vi.fn((url: string) =>
      Promise.resolve(
        url.endsWith('/api/token/')
          ? new Response(JSON.stringify(pair), { status: 200 })
          : url.endsWith('/user/logout/')
            ? new Response(null, { status: 204 })
            : new Response(JSON.stringify({ detail: 'Server error.', code: 'INTERNAL' }), {
                status: 500,
              }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(
      useAuthStore.getState().login({ phone_number: '+12025550123', password: 'long enough pw' }),
    ).rejects.toThrow();
    expect(readTokens()).toBeNull();
    expect(useAuthStore.getState().auth).toBe(false);
    expect(
      fetchMock.mock.calls.map(([url]) => url).filter((u) => u.endsWith('/user/logout/')),
    ).toHaveLength(1);
  });

  it('ends nothing but the attempt when the login itself is refused', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(
            JSON.stringify({ detail: 'Wrong number or password.', code: 'INVALID_CREDENTIALS' }),
            {
              status: 401,
            },
          ),
        ),
      ),
    );
    await expect(
      useAuthStore.getState().login({ phone_number: '+12025550123', password: 'long enough pw' }),
    ).rejects.toThrow();
    expect(readTokens()).toBeNull();
    expect(useAuthStore.getState().auth).toBe(false);
  });
});
