import type { AuditAction, AuditEntry, Role } from '@candor/contracts';
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

/** A name an admin typed, in quotes and cut short: it is shown in a table cell. */
const quoted = (name: string): string =>
  `“${name.length > 60 ? `${name.slice(0, 59).trimEnd()}…` : name}”`;

const withName = (phrase: string, plain: string, name: unknown): string =>
  typeof name === 'string' && name.trim() ? `${phrase} ${quoted(name.trim())}` : plain;

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
    case 'user.second_factor_reset':
      return "reset a staff member's second factor";
    case 'user.number_revealed':
      return withName(
        'revealed a whole number, for the reason',
        'revealed a whole number',
        entry.details.reason,
      );
    case 'user.passkey_add':
      return 'added a passkey to their account';
    case 'user.passkey_remove':
      return 'removed a passkey from their account';
    case 'results.export':
      if (entry.details.format === 'panel-csv') return "exported a survey's panel completions";
      return `${
        entry.details.format === 'csv'
          ? "exported a survey's results as CSV"
          : "exported a survey's results as JSON"
      }${typeof entry.details.token === 'string' ? ` with the research token ${quoted(entry.details.token)}` : ''}`;
    case 'survey.create':
      return withName('created the survey', 'created a survey', entry.details.name);
    case 'survey.update':
      return withName('edited the survey', 'edited a survey', entry.details.name);
    case 'survey.publish':
      return 'published a survey';
    case 'survey.close':
      return 'closed a survey';
    case 'survey.reopen':
      return 'reopened a survey';
    case 'survey.archive':
      return 'archived a survey';
    case 'survey.unarchive':
      return 'took a survey out of the archive';
    case 'survey.delete':
      return entry.details.answered === true
        ? `${withName('deleted the survey', 'deleted a survey', entry.details.name)} with its answers`
        : withName('deleted the draft', 'deleted a draft', entry.details.name);
    case 'survey.order':
      return 'reordered the surveys on the home page';
    case 'question.create':
      return entry.details.type === 'Open'
        ? 'added a written-answer question'
        : entry.details.type === 'Closed'
          ? 'added a multiple-choice question'
          : 'added a question';
    case 'question.update':
      return 'edited a question';
    case 'question.delete':
      return 'deleted a question';
    case 'question.order':
      return "reordered a survey's questions";
    case 'genre.create':
      return withName('added the genre', 'added a genre', entry.details.name);
    case 'genre.rename': {
      const { from, to } = entry.details;
      return typeof from === 'string' && typeof to === 'string'
        ? `renamed a genre from ${quoted(from)} to ${quoted(to)}`
        : 'renamed a genre';
    }
    case 'genre.delete': {
      const n = entry.details.surveys;
      const what = withName('deleted the genre', 'deleted a genre', entry.details.name);
      return typeof n === 'number' && n > 0
        ? `${what} (used by ${n === 1 ? '1 survey' : `${n} surveys`})`
        : what;
    }
    case 'image.upload': {
      const { width, height } = entry.details;
      return typeof width === 'number' && typeof height === 'number'
        ? `uploaded an image (${width}×${height})`
        : 'uploaded an image';
    }
    case 'token.create':
      return withName('made the research token', 'made a research token', entry.details.name);
    case 'token.revoke':
      return withName('revoked the research token', 'revoked a research token', entry.details.name);
    case 'token.use': {
      // What the token read (exports are `results.export` entries of their own).
      const read =
        entry.details.read === 'codebook'
          ? 'read a codebook'
          : entry.details.read === 'reach'
            ? 'read how far people got'
            : 'listed surveys';
      return withName(
        `${read} with the research token`,
        `${read} with a research token`,
        entry.details.name,
      );
    }
    case 'webhook.create':
      return withName('added a webhook to', 'added a webhook', entry.details.host);
    case 'webhook.delete':
      return withName('deleted the webhook to', 'deleted a webhook', entry.details.host);
    case 'webhook.ping':
      return withName('sent a test event to', 'sent a webhook test event', entry.details.host);
    case 'webhook.redeliver':
      return withName(
        'sent a delivery again to',
        'sent a webhook delivery again',
        entry.details.host,
      );
  }
}

/** A question's text cut short for a table cell. */
const clipped = (text: string): string =>
  text.length > 90 ? `${text.slice(0, 89).trimEnd()}…` : text;

/**
 * The object of an action in words: its name as the API gives it (a survey's or genre's name, a
 * question's text, an account's masked number), else what it was: "Written answer #12", "An
 * erased account", "Image 9b1c2d3e". Never a bare id.
 */
export function describeAuditTarget(
  entry: Pick<AuditEntry, 'target' | 'target_label' | 'details'>,
): string {
  const { target } = entry;
  // The home page's order concerns every survey at once.
  if (target === 'surveys') return 'All surveys';
  const [kind, ...rest] = target.split(':');
  const ref = rest.join(':');
  if (!ref) return target;
  const label = entry.target_label?.trim();
  const named = typeof entry.details.name === 'string' ? entry.details.name.trim() : '';
  switch (kind) {
    case 'user':
      return label ?? 'An erased account';
    case 'survey':
      return label ?? (named ? `The survey ${quoted(named)} (deleted)` : 'A deleted survey');
    case 'question':
      return label ? clipped(label) : 'A deleted question';
    case 'genre':
      return label ?? (named ? `The genre ${quoted(named)} (deleted)` : 'A deleted genre');
    case 'answer':
      return `Written answer #${ref}`;
    case 'image':
      // Stored images are named by their hash: its first characters tell them apart.
      return `Image ${ref.replace(/\.\w+$/, '').slice(0, 8)}`;
    default:
      return target;
  }
}

/** Each kind of action as the audit log's filter offers it. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'signup.approve': 'Approved a signup',
  'signup.reject': 'Rejected a signup',
  'answer.approve': 'Approved a written answer',
  'answer.hide': 'Hid a written answer',
  'user.role': 'Changed a role',
  'user.suspend': 'Suspended an account',
  'user.unsuspend': 'Lifted a suspension',
  'user.second_factor_reset': 'Reset a second factor',
  'user.number_revealed': 'Revealed a number',
  'user.passkey_add': 'Added a passkey',
  'user.passkey_remove': 'Removed a passkey',
  'results.export': 'Exported results',
  'survey.create': 'Created a survey',
  'survey.update': 'Edited a survey',
  'survey.publish': 'Published a survey',
  'survey.close': 'Closed a survey',
  'survey.reopen': 'Reopened a survey',
  'survey.archive': 'Archived a survey',
  'survey.unarchive': 'Unarchived a survey',
  'survey.delete': 'Deleted a survey or draft',
  'survey.order': 'Reordered the surveys',
  'question.create': 'Added a question',
  'question.update': 'Edited a question',
  'question.delete': 'Deleted a question',
  'question.order': 'Reordered questions',
  'genre.create': 'Added a genre',
  'genre.rename': 'Renamed a genre',
  'genre.delete': 'Deleted a genre',
  'image.upload': 'Uploaded an image',
  'token.create': 'Made a research token',
  'token.revoke': 'Revoked a research token',
  'token.use': 'Used a research token',
  'webhook.create': 'Added a webhook',
  'webhook.delete': 'Deleted a webhook',
  'webhook.ping': 'Sent a webhook test event',
  'webhook.redeliver': 'Sent a webhook delivery again',
};

/** A staff action failed: what to tell the operator, by the error's code. */
export function actionErrorText(err: unknown, fallback: string): string {
  if (!(err instanceof ApiError)) return fallback;
  switch (err.code) {
    // The server's detail is written for people (e.g. "Ask another admin to change your own
    // account."); authoring refusals say what blocks the change ("This choice has answers...").
    case 'FORBIDDEN':
    case 'REAUTH_REQUIRED':
    case 'RATE_LIMITED':
    case 'NETWORK':
    case 'ANSWERS_EXIST':
    case 'INVALID_STATE':
      return err.message;
    case 'VALIDATION_FAILED':
      return err.fieldErrors.non_field_errors?.[0] ?? fallback;
    case 'NOT_FOUND':
      return 'It no longer exists: someone may have handled it already.';
    case 'UNAUTHENTICATED':
    case 'TOKEN_INVALID':
      return 'Your session has ended. Log in again to go on.';
    default:
      return fallback;
  }
}
