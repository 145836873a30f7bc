import type { AuditAction, AuditEntry, AuditEntryList, PageQuery, Role } from '@candor/contracts';
import { pageLinks } from '../../lib/paging.js';
import type { AuditRepository } from './audit.repository.js';

/** The staff member acting: the request's user. */
export interface Actor {
  uuid: string;
  role: Role;
}

/** Records staff actions and lists them for admins. */
export function createAuditService(repo: AuditRepository) {
  return {
    /** Writes one entry; details never carry answers' authors, phone numbers or secrets. */
    async record(
      actor: Actor,
      action: AuditAction,
      target: string,
      details: AuditEntry['details'] = {},
    ): Promise<void> {
      await repo.insert({ actorUuid: actor.uuid, actorRole: actor.role, action, target, details });
    },

    async list(page: PageQuery, listUrl: string): Promise<AuditEntryList> {
      const { rows, total } = await repo.list((page.page - 1) * page.page_size, page.page_size);
      return {
        count: total,
        ...pageLinks(listUrl, page, total),
        results: rows.map((r) => ({
          id: r.id,
          actor: r.actor,
          actor_role: r.actorRole,
          action: r.action as AuditAction,
          target: r.target,
          details: r.details,
          at: r.at.toISOString(),
        })),
      };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
