import type { AdminUser, AdminUserList, Role, UserSearchQuery } from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import { pageLinks } from '../../lib/paging.js';
import { isUuid } from '../../lib/uuid.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { RespondentsService } from '../respondents/respondents.service.js';
import type { UserRow, UsersRepository } from './users.repository.js';

function toAdminUser(u: UserRow): AdminUser {
  return {
    uuid: u.uuid,
    phone_number: u.phoneE164,
    country: u.country,
    role: u.role,
    status: u.status,
    created_at: u.createdAt.toISOString(),
  };
}

export interface UsersServiceDeps {
  respondents: Pick<RespondentsService, 'accountStatusChanged'>;
  audit: Pick<AuditService, 'record'>;
  clock?: () => Date;
}

/** Admins' view of accounts: search by number, roles, suspension. Every change is audited. */
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
    /** Accounts whose number starts with the digits searched, newest first. */
    async search(query: UserSearchQuery, listUrl: string): Promise<AdminUserList> {
      const digits = (query.phone ?? '').replace(/\D/g, '');
      const { rows, total } = await repo.searchByPhone(
        digits ? `+${digits}` : '',
        (query.page - 1) * query.page_size,
        query.page_size,
      );
      const links = pageLinks(listUrl, query, total);
      return { count: total, ...links, results: rows.map(toAdminUser) };
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

    /** Suspends (or lifts a suspension): a suspended account cannot log in and does not count. */
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
      await deps.respondents.accountStatusChanged(
        updated.uuid,
        updated.status,
        updated.phoneVerifiedAt,
      );
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
