import {
  type AuditAction,
  type AuditActor,
  type AuditEntry,
  AuditActionSchema,
} from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { adminQueries } from '../../api/admin';
import {
  AUDIT_ACTION_LABELS,
  ROLE_LABELS,
  describeAuditAction,
  describeAuditTarget,
} from '../../lib/wording';
import { type Column, ListPanel, ListTable } from '../list-panel';
import { usePageParams } from '../use-page-params';
import { When } from '../when';

const COLUMNS: Array<Column<AuditEntry>> = [
  { header: 'When', cell: (entry) => <When at={entry.at} /> },
  {
    header: 'Who',
    cell: (entry) =>
      entry.actor_label ? (
        <span className="actor">
          <span className="actor__label">{entry.actor_label}</span>
          <span className="actor__role">{ROLE_LABELS[entry.actor_role]}</span>
        </span>
      ) : (
        <span className="admin-table__muted">Erased account ({ROLE_LABELS[entry.actor_role]})</span>
      ),
  },
  {
    header: 'What',
    rowHeader: true,
    className: 'admin-table__what',
    cell: (entry) => describeAuditAction(entry),
  },
  { header: 'On', className: 'admin-table__on', cell: (entry) => describeAuditTarget(entry) },
];

const ACTIONS = [...AuditActionSchema.options].sort((a, b) =>
  AUDIT_ACTION_LABELS[a].localeCompare(AUDIT_ACTION_LABELS[b]),
);

const firstDay = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/** "+44 •••• ••3456 (Admin)"; when two look alike, with when each first acted. */
function actorOption(actor: AuditActor, all: AuditActor[]): string {
  const base = `${actor.label} (${ROLE_LABELS[actor.role]})`;
  const twin = all.some((a) => a.uuid !== actor.uuid && a.label === actor.label);
  return twin ? `${base}, since ${firstDay.format(new Date(actor.first_at))}` : base;
}

const parseAction = (value: string | null): AuditAction | null =>
  AuditActionSchema.safeParse(value).data ?? null;

/** Every staff action, newest first: who did what to which account or answer (admins only). */
export function AuditLogPanel() {
  const { page, params, set } = usePageParams();
  const action = parseAction(params.get('action'));
  const actor = params.get('actor');
  const list = useQuery(adminQueries.auditLog(page, { action, actor }));
  const actors = useQuery(adminQueries.auditActors());
  const actionId = useId();
  const actorId = useId();
  const filtered = action !== null || actor !== null;

  return (
    <ListPanel
      id="audit-title"
      title="Audit log"
      count={(n) => (n === 1 ? '1 action' : `${n} actions`)}
      lead="Every staff action, newest first. Accounts show as masked numbers."
      filters={
        <div className="audit-filter" role="search" aria-label="Filter the audit log">
          <div className="field">
            <label className="field__label" htmlFor={actionId}>
              Action
            </label>
            <select
              id={actionId}
              className="input"
              value={action ?? ''}
              onChange={(e) => set({ action: e.target.value, page: null })}
            >
              <option value="">All actions</option>
              {ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {AUDIT_ACTION_LABELS[a]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={actorId}>
              Who
            </label>
            <select
              id={actorId}
              className="input"
              value={actor ?? ''}
              onChange={(e) => set({ actor: e.target.value, page: null })}
            >
              <option value="">Everyone</option>
              {actor && !actors.data?.results.some((a) => a.uuid === actor) ? (
                <option value={actor}>Someone no longer listed</option>
              ) : null}
              {actors.data?.results.map((a) => (
                <option key={a.uuid} value={a.uuid}>
                  {actorOption(a, actors.data.results)}
                </option>
              ))}
            </select>
          </div>
          {filtered ? (
            <button
              type="button"
              className="button audit-filter__clear"
              onClick={() => set({ action: null, actor: null, page: null })}
            >
              Show everything
            </button>
          ) : null}
        </div>
      }
      query={list}
      what="The audit log"
      loadingLabel="Loading the audit log"
      empty={
        filtered
          ? {
              title: 'No actions match',
              text: 'Nobody did this yet, or not this person. Change the filter to see more.',
            }
          : {
              title: 'No staff actions yet',
              text: 'Approvals, hidden answers, account changes and survey edits are recorded here.',
            }
      }
      pagerLabel="Audit log pages"
      page={page}
      onPage={(p) => set({ page: p })}
    >
      {(rows, stale) => (
        <ListTable
          rows={rows}
          columns={COLUMNS}
          rowKey={(entry) => entry.id}
          stale={stale}
          className="admin-table--log"
        />
      )}
    </ListPanel>
  );
}
