import type { AuditEntry, Role } from '@candor/contracts';
import { ApiError } from '../../../lib/api-client';

/** Moderators and admins: the people the operators' area is for. */
export const isStaff = (role: Role | undefined): boolean =>
  role === 'moderator' || role === 'admin';

export const ROLE_LABELS: Record<Role, string> = {
  member: 'Member',
  moderator: 'Moderator',
  admin: 'Admin',
};

const roleWord = (value: unknown): string | null =>
  typeof value === 'string' && value in ROLE_LABELS ? value : null;

/** What a staff member did, as a phrase after their name: "hid a written answer". */
export function describeAuditAction(entry: Pick<AuditEntry, 'action' | 'details'>): string {
  switch (entry.action) {
    case 'signup.approve':
      return 'approved a signup';
    case 'signup.reject':
      return 'rejected a signup';
    case 'answer.approve':
      return 'approved a written answer';
    case 'answer.hide':
      return 'hid a written answer';
    case 'user.role': {
      const from = roleWord(entry.details.from);
      const to = roleWord(entry.details.to);
      if (from && to) return `changed a role from ${from} to ${to}`;
      return to ? `changed a role to ${to}` : 'changed a role';
    }
    case 'user.suspend':
      return 'suspended an account';
    case 'user.unsuspend':
      return 'lifted a suspension';
    case 'results.export':
      return entry.details.format === 'csv'
        ? "exported a survey's results as CSV"
        : "exported a survey's results as JSON";
  }
}

/** The object of an action in words: "Account 3f2a9c1e" or "Written answer #12". */
export function describeAuditTarget(target: string): string {
  const [kind, ...rest] = target.split(':');
  const ref = rest.join(':');
  if (kind === 'user' && ref) return `Account ${shortId(ref)}`;
  if (kind === 'survey' && ref) return `Survey ${shortId(ref)}`;
  if (kind === 'answer' && ref) return `Written answer #${ref}`;
  return target;
}

/** The first block of a uuid: enough to tell accounts apart on one screen. */
export const shortId = (uuid: string): string => uuid.split('-')[0] ?? uuid;

/** A staff action failed: what to tell the operator, by the error's code. */
export function actionErrorText(err: unknown, fallback: string): string {
  if (!(err instanceof ApiError)) return fallback;
  switch (err.code) {
    // The server's detail is written for people (e.g. "Ask another admin to change your own account.").
    case 'FORBIDDEN':
    case 'RATE_LIMITED':
    case 'NETWORK':
      return err.message;
    case 'NOT_FOUND':
      return 'It no longer exists: someone may have handled it already.';
    case 'UNAUTHENTICATED':
    case 'TOKEN_INVALID':
      return 'Your session has ended. Log in again to go on.';
    default:
      return fallback;
  }
}
