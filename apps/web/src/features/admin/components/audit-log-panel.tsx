import { useQuery } from '@tanstack/react-query';
import { PageHead } from '../../../components/page-head';
import { adminQueries } from '../api/admin';
import { ROLE_LABELS, describeAuditAction, describeAuditTarget, shortId } from '../lib/wording';
import { ListError, ListLoading } from './list-states';
import { Pager } from './pager';
import { usePageParams } from './use-page-params';
import { When } from './when';

/** Every staff action, newest first: who did what to which account or answer (admins only). */
export function AuditLogPanel() {
  const { page, set } = usePageParams();
  const list = useQuery(adminQueries.auditLog(page));

  return (
    <section className="admin-panel" aria-labelledby="audit-title">
      <PageHead title="Audit log" />
      <div className="admin-panel__head">
        <h1 id="audit-title" className="admin-panel__title">
          Audit log
        </h1>
        {list.data?.count ? (
          <p className="admin-panel__count">
            {list.data.count === 1 ? '1 action' : `${list.data.count} actions`}
          </p>
        ) : null}
      </div>
      <p className="admin-panel__lead">Every staff action, newest first.</p>
      {list.isError ? (
        <ListError what="The audit log" onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <ListLoading label="Loading the audit log" />
      ) : list.data.results.length === 0 ? (
        <div className="admin-empty">
          <p className="admin-empty__title">No staff actions yet</p>
          <p>Approvals, hidden answers, account changes and survey edits are recorded here.</p>
        </div>
      ) : (
        <table
          className={`admin-table admin-table--log${list.isPlaceholderData ? ' admin-table--stale' : ''}`}
          aria-busy={list.isPlaceholderData}
        >
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">On</th>
            </tr>
          </thead>
          <tbody>
            {list.data.results.map((entry) => (
              <tr key={entry.id}>
                <td data-label="When">
                  <When at={entry.at} />
                </td>
                <td data-label="Who">
                  {entry.actor ? (
                    <span className="actor">
                      <code title={entry.actor}>{shortId(entry.actor)}</code>
                      <span className="actor__role">{ROLE_LABELS[entry.actor_role]}</span>
                    </span>
                  ) : (
                    <span className="admin-table__muted">
                      Deleted account ({ROLE_LABELS[entry.actor_role]})
                    </span>
                  )}
                </td>
                <th scope="row" data-label="What" className="admin-table__what">
                  {describeAuditAction(entry)}
                </th>
                <td data-label="On">
                  <span title={entry.target}>{describeAuditTarget(entry.target)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        label="Audit log pages"
        page={page}
        list={list.data}
        onPage={(p) => set({ page: p })}
      />
    </section>
  );
}
