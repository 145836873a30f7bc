import type { AuditEntry } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { adminQueries } from '../../api/admin';
import { ROLE_LABELS, describeAuditAction, describeAuditTarget, shortId } from '../../lib/wording';
import { type Column, ListPanel, ListTable } from '../list-panel';
import { usePageParams } from '../use-page-params';
import { When } from '../when';

const COLUMNS: Array<Column<AuditEntry>> = [
  { header: 'When', cell: (entry) => <When at={entry.at} /> },
  {
    header: 'Who',
    cell: (entry) =>
      entry.actor ? (
        <span className="actor">
          <code title={entry.actor}>{shortId(entry.actor)}</code>
          <span className="actor__role">{ROLE_LABELS[entry.actor_role]}</span>
        </span>
      ) : (
        <span className="admin-table__muted">
          Deleted account ({ROLE_LABELS[entry.actor_role]})
        </span>
      ),
  },
  {
    header: 'What',
    rowHeader: true,
    className: 'admin-table__what',
    cell: (entry) => describeAuditAction(entry),
  },
  {
    header: 'On',
    cell: (entry) => <span title={entry.target}>{describeAuditTarget(entry.target)}</span>,
  },
];

/** Every staff action, newest first: who did what to which account or answer (admins only). */
export function AuditLogPanel() {
  const { page, set } = usePageParams();
  const list = useQuery(adminQueries.auditLog(page));

  return (
    <ListPanel
      id="audit-title"
      title="Audit log"
      count={(n) => (n === 1 ? '1 action' : `${n} actions`)}
      lead="Every staff action, newest first."
      query={list}
      what="The audit log"
      loadingLabel="Loading the audit log"
      empty={{
        title: 'No staff actions yet',
        text: 'Approvals, hidden answers, account changes and survey edits are recorded here.',
      }}
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
