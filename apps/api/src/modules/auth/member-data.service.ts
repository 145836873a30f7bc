import type { MyData, User } from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import { burnPasswordCheck, verifyPassword } from '../../lib/passwords.js';
import type { AuthRepository } from './auth.repository.js';
import type { PasswordLimits } from './password-limits.js';
import { SESSION_STATUSES } from './session-gate.js';
import { reviewReasonKinds } from './signup-risk.js';

export interface MemberDataServiceDeps {
  passwordLimits: PasswordLimits;
  /** Vacuums what an erasure deleted, in the background (db/erasure-vacuum.ts). */
  vacuum?: { erased(): void };
  clock: () => Date;
}

/** The member's own data: their record, an export of everything stored, and erasure. */
export function createMemberDataService(
  repo: Pick<AuthRepository, 'findUserByUuid' | 'listSessions' | 'listChallenges' | 'deleteUser'>,
  { passwordLimits, vacuum, clock }: MemberDataServiceDeps,
) {
  return {
    /** The logged-in user's own record; 401 once the account cannot hold a session. */
    async me(uuid: string): Promise<User> {
      const user = await repo.findUserByUuid(uuid);
      if (!user || !SESSION_STATUSES.has(user.status)) throw new AppError('UNAUTHENTICATED');
      return {
        uuid: user.uuid,
        name: user.name,
        phone_number: user.phoneE164,
        country: user.country,
        role: user.role,
        status: user.status as User['status'],
        review_reasons: user.status === 'under_review' ? reviewReasonKinds(user.riskReasons) : [],
      };
    },

    /**
     * Every stored field about the member: account, sessions and code challenges. Nothing of
     * their answers: the server cannot tell which are theirs (decision 020), so the answer
     * fields are empty; the web app adds what the member's devices hold.
     */
    async exportMine(uuid: string): Promise<MyData> {
      const user = await repo.findUserByUuid(uuid);
      if (!user || !SESSION_STATUSES.has(user.status)) throw new AppError('UNAUTHENTICATED');
      const [sessions, challenges] = await Promise.all([
        repo.listSessions(user.id),
        repo.listChallenges(user.phoneE164),
      ]);
      const iso = (d: Date | null) => (d ? d.toISOString() : null);
      return {
        exported_at: clock().toISOString(),
        account: {
          uuid: user.uuid,
          name: user.name,
          phone_number: user.phoneE164,
          country: user.country,
          role: user.role,
          status: user.status as MyData['account']['status'],
          phone_verified_at: iso(user.phoneVerifiedAt),
          risk_reasons: user.riskReasons,
          created_at: user.createdAt.toISOString(),
          updated_at: user.updatedAt.toISOString(),
        },
        sessions: sessions.map((t) => ({
          family: t.family,
          created_at: t.createdAt.toISOString(),
          expires_at: t.expiresAt.toISOString(),
          used_at: iso(t.usedAt),
          revoked_at: iso(t.revokedAt),
        })),
        code_challenges: challenges.map((c) => ({
          purpose: c.purpose,
          created_at: c.createdAt.toISOString(),
          expires_at: c.expiresAt.toISOString(),
          wrong_tries: c.wrongTries,
          used_at: iso(c.usedAt),
        })),
        respondent: null,
        answers: [],
        ratings: [],
        timings: [],
      };
    },

    /**
     * Erases the member after checking their password: sessions, code challenges and the
     * account itself are deleted, and the tables are vacuumed at once (not awaited), so the dead
     * row versions holding the number do not wait for autovacuum. Their answers are anonymous
     * and stay (decision 020): a device can withdraw them with the survey's credential first.
     */
    async eraseMine(uuid: string, password: string): Promise<void> {
      const user = await repo.findUserByUuid(uuid);
      if (!user || !SESSION_STATUSES.has(user.status)) throw new AppError('UNAUTHENTICATED');
      // A password check like a login's: it takes a slot of the number's failure window first,
      // so a stolen access token is no way around the login limit.
      // The session is the client: its own window, counted in the account's streak and cap.
      const client = { device: `session:${uuid}`, ip: '' };
      const keys = passwordLimits.keysOf(user.phoneE164, client);
      await passwordLimits.reserve(keys, client);
      const ok = user.passwordHash
        ? await verifyPassword(password, user.passwordHash)
        : await burnPasswordCheck(password);
      if (ok) await passwordLimits.succeeded(keys);
      if (!ok) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          password: ['That is not your password.'],
        });
      }
      await repo.deleteUser(user);
      vacuum?.erased();
    },
  };
}

export type MemberDataService = ReturnType<typeof createMemberDataService>;
