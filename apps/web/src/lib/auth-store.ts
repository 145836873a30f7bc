import {
  type LoginRequest,
  type LoginResponse,
  type SecondFactorRequired,
  type TokenPair,
  type User,
  needsSecondFactor,
} from '@candor/contracts';
import { create } from 'zustand';
import type { VaultSecret } from './vault';
import { ApiError, apiPost, apiRequest, onSessionEnded } from './api-client';
import { deviceHeaders, keepDeviceToken } from './device-token';
import { forgetAccountOnDevice } from './local-answers';
import { secretsFor } from './password-secrets';
import { clearSurveyPosition, forgetPairArms } from './survey-storage';
import { clearTokens, readTokens, storeTokens, tokenSubject } from './tokens';

// The vault (Dexie, its crypto) loads after the first paint, when a session needs it: a first
// visit downloads none of it.
const vault = () => import('./vault');

interface AuthState {
  user: User | null;
  /** True while a session (tokens) is held. */
  auth: boolean;
  /** A login is under way. */
  loading: boolean;
  /** The session is being restored at start; screens that depend on it wait. */
  initialLoading: boolean;
  restore: () => Promise<void>;
  /**
   * Phone and password as typed: the API gets the password's login secret, never the password
   * (decision 020). A member is logged in (the user); staff get their second step (decision
   * 024), and the password's vault secret is held in memory for the session that follows it.
   */
  login: (credentials: LoginRequest) => Promise<User | SecondFactorRequired>;
  /**
   * Stores tokens from signup/verify/reset and loads the user. With the secret of the password
   * just typed (set-password) the member's vault is opened with it; without, with a held
   * secret (staff's second step) or this device's own key.
   */
  startSession: (tokens: TokenPair, opts?: { secret?: VaultSecret }) => Promise<User>;
  /** Holds a password's vault secret in memory only, for the session after a second step. */
  holdVaultSecret: (secret: VaultSecret) => Promise<void>;
  logout: () => Promise<void>;
  /** Forgets the session in this browser only (the account is gone: nothing to revoke). */
  endSession: () => void;
  refreshUser: () => Promise<void>;
}

const fetchUser = () => apiRequest<User>('/v1/user/detail/');

/**
 * Opens the member's vault (decision 020) in the background: with the secret of the password
 * just typed, a held one, or this device's key after a reload; then syncs once and keeps the
 * sync schedule. A session never waits for it, nor fails with it (useVaultStore says how it
 * went).
 */
function openVault(uuid: string, typed?: VaultSecret): void {
  vault()
    .then(async (v) => {
      const secret = typed ?? v.takeHeldSecret();
      await (secret ? v.unlockVault(uuid, secret) : v.resumeVault(uuid));
      await v.startVaultSchedule();
    })
    .catch(() => undefined);
}

/** Ends the vault on this device: the schedule stops and the account's key is deleted. */
async function closeVault(uuid: string | null | undefined): Promise<void> {
  try {
    const v = await vault();
    v.stopVaultSchedule();
    await v.forgetVaultKey(uuid ?? null);
  } catch {
    // No IndexedDB (a private window that refuses it): no key was kept either.
  }
}

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
      const user = await fetchUser();
      set({ user });
      openVault(user.uuid);
    } catch {
      // A failed refresh already ended the session; a network error keeps it for later.
      if (!readTokens()) set({ auth: false, user: null });
    } finally {
      set({ initialLoading: false });
    }
  },

  async login(credentials) {
    set({ loading: true });
    let started = false;
    try {
      const { login, vaultRoot } = await secretsFor(credentials.password, credentials.phone_number);
      const typed = { vaultRoot, password: credentials.password };
      // With this device's token for the number, and keeping the one the login returns.
      const body: LoginRequest = { phone_number: credentials.phone_number, password: login };
      const signedIn = await apiPost<LoginResponse>('/token/', body, {
        headers: await deviceHeaders(credentials.phone_number),
        onHeaders: (headers) => keepDeviceToken(credentials.phone_number, headers),
      });
      if (needsSecondFactor(signedIn)) {
        // No session yet: the vault opens with this password once the second step gives one.
        await get().holdVaultSecret(typed);
        return signedIn;
      }
      started = true;
      return await get().startSession(signedIn, { secret: typed });
    } catch (err) {
      // A session that started stays when loading the account only failed on the way (the
      // person reloads or follows a link at once, the network drops): restore() loads it then,
      // as after any reload. Ending it logged people out who had just logged in. Any other
      // failure ends it, so nobody walks away from a "failed" login still logged in.
      const onTheWay =
        (err instanceof ApiError && err.code === 'NETWORK') ||
        (err instanceof DOMException && err.name === 'AbortError');
      if (!started || !onTheWay) {
        const tokens = readTokens();
        clearTokens();
        set({ auth: false, user: null });
        if (started && tokens) {
          await apiPost('/v1/user/logout/', { refresh: tokens.refresh }).catch(() => undefined);
        }
      }
      throw err;
    } finally {
      set({ loading: false });
    }
  },

  async startSession(tokens, opts) {
    storeTokens(tokens);
    set({ auth: true });
    const user = await fetchUser();
    set({ user });
    openVault(user.uuid, opts?.secret);
    return user;
  },

  async holdVaultSecret(secret) {
    (await vault()).holdVaultSecret(secret);
  },

  async logout() {
    // What changed since the vault's last write goes first (logout deletes the device's record
    // of the member's answers; bounded: offline it gives up), then the key.
    await vault()
      .then((v) => v.flushVault())
      .catch(() => undefined);
    await closeVault(get().user?.uuid ?? tokenSubject());
    const tokens = readTokens();
    // The next person on this device must not land where this one was in a survey, nor read
    // which surveys' pairs they were drawn for (forgotten while the session still names them).
    forgetPairArms();
    clearTokens();
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
    void closeVault(tokenSubject());
    forgetPairArms();
    clearTokens();
    clearSurveyPosition();
    set({ auth: false, user: null });
  },

  async refreshUser() {
    if (readTokens()) set({ user: await fetchUser() });
  },
}));

onSessionEnded(() => {
  // A session that cannot be refreshed is over as if logged out: its vault key goes too.
  void closeVault(useAuthStore.getState().user?.uuid);
  useAuthStore.setState({ auth: false, user: null });
});
