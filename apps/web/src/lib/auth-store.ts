import type { LoginRequest, TokenPair, User } from '@candor/contracts';
import { create } from 'zustand';
import { apiPost, apiRequest, onSessionEnded } from './api-client';
import { forgetAccountOnDevice } from './local-answers';
import { clearSurveyPosition } from './survey-storage';
import { clearTokens, readTokens, storeTokens, tokenSubject } from './tokens';

interface AuthState {
  user: User | null;
  /** True while a session (tokens) is held. */
  auth: boolean;
  /** A login is under way. */
  loading: boolean;
  /** The session is being restored at start; screens that depend on it wait. */
  initialLoading: boolean;
  restore: () => Promise<void>;
  login: (credentials: LoginRequest) => Promise<User>;
  /** Stores tokens from signup/verify/reset and loads the user. */
  startSession: (tokens: TokenPair) => Promise<User>;
  logout: () => Promise<void>;
  /** Forgets the session in this browser only (the account is gone: nothing to revoke). */
  endSession: () => void;
  refreshUser: () => Promise<void>;
}

const fetchUser = () => apiRequest<User>('/v1/user/detail/');

/** The auth store of the spec: user, auth, loading, initialLoading (starts true). */
export const useAuthStore = create<AuthState>()((set, get) => ({
  user: null,
  auth: false,
  loading: false,
  initialLoading: true,

  async restore() {
    if (!readTokens()) {
      set({ initialLoading: false, auth: false, user: null });
      return;
    }
    set({ auth: true });
    try {
      set({ user: await fetchUser() });
    } catch {
      // A failed refresh already ended the session; a network error keeps it for later.
      if (!readTokens()) set({ auth: false, user: null });
    } finally {
      set({ initialLoading: false });
    }
  },

  async login(credentials) {
    set({ loading: true });
    try {
      const tokens = await apiPost<TokenPair>('/token/', credentials);
      return await get().startSession(tokens);
    } catch (err) {
      clearTokens();
      set({ auth: false, user: null });
      throw err;
    } finally {
      set({ loading: false });
    }
  },

  async startSession(tokens) {
    storeTokens(tokens);
    set({ auth: true });
    const user = await fetchUser();
    set({ user });
    return user;
  },

  async logout() {
    const tokens = readTokens();
    clearTokens();
    // The next person on this device must not land where this one was in a survey.
    clearSurveyPosition();
    set({ auth: false, user: null });
    if (tokens) {
      // Revoke server-side too; the local session is gone whatever happens.
      await apiPost('/v1/user/logout/', { refresh: tokens.refresh }).catch(() => undefined);
    }
  },

  endSession() {
    // The account is gone: what this browser still holds of it (unsent answers too) goes.
    void forgetAccountOnDevice(tokenSubject());
    clearTokens();
    clearSurveyPosition();
    set({ auth: false, user: null });
  },

  async refreshUser() {
    if (readTokens()) set({ user: await fetchUser() });
  },
}));

onSessionEnded(() => useAuthStore.setState({ auth: false, user: null }));
