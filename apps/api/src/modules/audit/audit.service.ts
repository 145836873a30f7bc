import {
  type AuditAction,
  type AuditActorList,
  type AuditEntry,
  type AuditEntryList,
  type AuditLogQuery,
  type Role,
  maskPhoneNumber,
} from '@candor/contracts';
import { pageLinks } from '../../lib/paging.js';
import type { AuditRefs, AuditRepository } from './audit.repository.js';

/** The staff member acting: the request's user. */
export interface Actor {
  uuid: string;
  role: Role;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `kind:ref` of a target (`user:<uuid>`...), or null for one without a ref (`surveys`). */
function split(target: string): { kind: string; ref: string } | null {
  const at = target.indexOf(':');
  return at < 0 ? null : { kind: target.slice(0, at), ref: target.slice(at + 1) };
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

    /**
     * A page of the log, newest first, filtered by action and actor: each entry with readable
     * labels (masked numbers, names, question texts) beside its ids.
     */
    async list(query: AuditLogQuery, listUrl: string): Promise<AuditEntryList> {
      const { rows, total } = await repo.list((query.page - 1) * query.page_size, query.page_size, {
        action: query.action,
        actor: query.actor,
      });
      const refs: AuditRefs = { users: [], surveys: [], questions: [], genres: [] };
      for (const row of rows) {
        const t = split(row.target);
        if (!t || !UUID.test(t.ref)) continue;
        if (t.kind === 'user') refs.users.push(t.ref);
        else if (t.kind === 'survey') refs.surveys.push(t.ref);
        else if (t.kind === 'question') refs.questions.push(t.ref);
        else if (t.kind === 'genre') refs.genres.push(t.ref);
      }
      const names = await repo.namesOf(refs);
      const labelOf = (target: string): string | null => {
        const t = split(target);
        if (!t) return null;
        switch (t.kind) {
          case 'user': {
            const phone = names.phones.get(t.ref);
            return phone ? maskPhoneNumber(phone) : null;
          }
          case 'survey':
            return names.surveys.get(t.ref) ?? null;
          case 'question':
            return names.questions.get(t.ref) ?? null;
          case 'genre':
            return names.genres.get(t.ref) ?? null;
          default:
            return null;
        }
      };
      const url = new URL(listUrl);
      if (query.action) url.searchParams.set('action', query.action);
      if (query.actor) url.searchParams.set('actor', query.actor);
      return {
        count: total,
        ...pageLinks(url.toString(), query, total),
        results: rows.map((r) => ({
          id: r.id,
          actor: r.actor,
          actor_label: r.actorPhone ? maskPhoneNumber(r.actorPhone) : null,
          actor_role: r.actorRole,
          action: r.action as AuditAction,
          target: r.target,
          target_label: labelOf(r.target),
          details: r.details,
          at: r.at.toISOString(),
        })),
      };
    },

    /** Everyone who appears in the log, for its filter: masked numbers, never whole ones. */
    async actors(): Promise<AuditActorList> {
      const rows = await repo.actors();
      return {
        results: rows.map((r) => ({
          uuid: r.uuid,
          label: maskPhoneNumber(r.phone),
          role: r.role,
          first_at: (r.firstAt ?? new Date(0)).toISOString(),
        })),
      };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
