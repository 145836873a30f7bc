import {
  type AdminUser,
  type AdminUserList,
  type RevealedNumber,
  type Role,
  type UserSearchQuery,
  maskPhoneNumber,
} from '@candor/contracts';
import { AppError, RateLimitedError } from '../../lib/app-error.js';
import { pageLinks } from '../../lib/paging.js';
import { isUuid } from '../../lib/uuid.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { UserRow, UsersRepository } from './users.repository.js';

/**
 * How many whole numbers one staff member may reveal in an hour: enough for the support work a
 * reveal is for, too few to copy the list one account at a time.
 */
export const REVEALS_PER_HOUR = 10;

/**
 * An account as admins see it: the number masked (PRODUCT.md), unless `whole` is the number
 * itself, the one the admin searched for and so already knows.
 */
function toAdminUser(u: UserRow, whole?: string): AdminUser {
  const shown = whole !== undefined && whole !== '' && u.phoneE164 === whole;
  return {
    uuid: u.uuid,
    phone_number: shown ? u.phoneE164 : maskPhoneNumber(u.phoneE164),
    phone_whole: shown,
    country: u.country,
    role: u.role,
    status: u.status,
    created_at: u.createdAt.toISOString(),
  };
}

export interface UsersServiceDeps {
  audit: Pick<AuditService, 'record'>;
  clock?: () => Date;
}

/**
 * Admins' view of accounts: search by number (masked), an audited reveal, roles, suspension.
 * Every change is audited.
 */
export function createUsersService(repo: UsersRepository, deps: UsersServiceDeps) {
  const clock = deps.clock ?? (() => new Date());

  async function userOf(uuid: string): Promise<UserRow> {
    const user = isUuid(uuid) ? await repo.findByUuid(uuid.toLowerCase()) : undefined;
    if (!user) throw new AppError('NOT_FOUND');
    return user;
  }

  /** Staff may not change their own role or standing: another admin has to. */
  function notSelf(actor: Actor, user: UserRow) {
    if (user.uuid === actor.uuid) {
      throw new AppError('FORBIDDEN', 'Ask another admin to change your own account.');
    }
  }

  return {
    /**
     * The account of the whole number searched (shown whole: the searcher typed it), or every
     * account when none is, newest first, masked.
     */
    async search(query: UserSearchQuery, listUrl: string): Promise<AdminUserList> {
      const digits = (query.phone ?? '').replace(/\D/g, '');
      const whole = digits ? `+${digits}` : '';
      const { rows, total } = await repo.searchByPhone(
        whole,
        (query.page - 1) * query.page_size,
        query.page_size,
      );
      const links = pageLinks(listUrl, query, total);
      return { count: total, ...links, results: rows.map((u) => toAdminUser(u, whole)) };
    },

    /**
     * The whole number of an account, for a reason the admin gives: audited as
     * `user.number_revealed` (who, whose, why) in the same transaction, at most
     * REVEALS_PER_HOUR per admin.
     */
    async revealNumber(uuid: string, reason: string, actor: Actor): Promise<RevealedNumber> {
      if (!isUuid(uuid)) throw new AppError('NOT_FOUND');
      const target = uuid.toLowerCase();
      const outcome = await repo.revealNumber(
        target,
        {
          actorUuid: actor.uuid,
          actorRole: actor.role,
          action: 'user.number_revealed',
          target: `user:${target}`,
          details: { reason },
        },
        { max: REVEALS_PER_HOUR, windowSeconds: 3600 },
      );
      if (outcome.kind === 'not_found') throw new AppError('NOT_FOUND');
      if (outcome.kind === 'limited') {
        throw new RateLimitedError(
          outcome.retryAfterMs,
          `You have revealed ${REVEALS_PER_HOUR} numbers in the last hour. Try again later.`,
        );
      }
      // Its key is gone (a key folder lost without its mirror): nothing opens the number.
      if (!outcome.phoneE164) {
        throw new AppError(
          'NOT_FOUND',
          'This account’s number can no longer be read: its key is gone.',
        );
      }
      return { uuid: target, phone_number: outcome.phoneE164 };
    },

    async setRole(uuid: string, role: Role, actor: Actor): Promise<AdminUser> {
      const user = await userOf(uuid);
      notSelf(actor, user);
      const updated = (await repo.setStanding(user.id, { role }))!;
      // Tokens carry the role: end the sessions so the new role applies at the next login.
      await repo.endSessions(user.id, clock());
      await deps.audit.record(actor, 'user.role', `user:${user.uuid}`, {
        from: user.role,
        to: role,
      });
      return toAdminUser(updated);
    },

    /**
     * Recovery of a staff member who lost their authenticator (decision 024): their second
     * factor goes and their sessions end; the next login with their password enrols a new one.
     * Never one's own: another admin does it, and it is audited.
     */
    async resetSecondFactor(uuid: string, actor: Actor): Promise<AdminUser> {
      const user = await userOf(uuid);
      notSelf(actor, user);
      await repo.resetSecondFactor(user.id);
      await repo.endSessions(user.id, clock());
      await deps.audit.record(actor, 'user.second_factor_reset', `user:${user.uuid}`);
      return toAdminUser(user);
    },

    /**
     * Suspends (or lifts a suspension): a suspended account cannot log in and gets no new
     * credentials; answers it gave are anonymous and stay (decision 020).
     */
    async setSuspended(uuid: string, suspended: boolean, actor: Actor): Promise<AdminUser> {
      const user = await userOf(uuid);
      notSelf(actor, user);
      if (suspended ? user.status === 'suspended' : user.status !== 'suspended') {
        return toAdminUser(user);
      }
      const updated = (await repo.setStanding(user.id, {
        status: suspended ? 'suspended' : 'active',
      }))!;
      if (suspended) await repo.endSessions(user.id, clock());
      await deps.audit.record(
        actor,
        suspended ? 'user.suspend' : 'user.unsuspend',
        `user:${user.uuid}`,
      );
      return toAdminUser(updated);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
