import type { ReviewAccount } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { PageHead } from '../../../components/page-head';
import { countryName } from '../../../lib/country-names';
import { adminQueries, useSignupDecision } from '../api/admin';
import { actionErrorText } from '../lib/wording';
import { ConfirmDialog } from './confirm-dialog';
import { ListError, ListLoading } from './list-states';
import { Pager } from './pager';
import { usePageParams } from './use-page-params';
import { When } from './when';

/** Accounts the risk checks held back: approve them (their answers count) or reject them. */
export function SignupsPanel() {
  const { page, set } = usePageParams();
  const list = useQuery(adminQueries.signups(page));
  const decide = useSignupDecision();
  const [rejecting, setRejecting] = useState<ReviewAccount | null>(null);

  const run = (account: ReviewAccount, decision: 'approve' | 'reject') => {
    decide.mutate(
      { uuid: account.uuid, decision },
      {
        onSuccess: () =>
          toast.success(
            decision === 'approve'
              ? `${account.phone_masked} approved: their answers count now`
              : `${account.phone_masked} rejected: they can no longer log in`,
          ),
        onError: (err) =>
          toast.error(
            actionErrorText(
              err,
              decision === 'approve'
                ? 'The signup could not be approved. Try again.'
                : 'The signup could not be rejected. Try again.',
            ),
          ),
      },
    );
  };
  const busy = (uuid: string) => decide.isPending && decide.variables.uuid === uuid;

  return (
    <section className="admin-panel" aria-labelledby="signups-title">
      <PageHead title="Signups under review" />
      <div className="admin-panel__head">
        <h1 id="signups-title" className="admin-panel__title">
          Signups under review
        </h1>
        {list.data?.count ? (
          <p className="admin-panel__count">
            {list.data.count === 1 ? '1 account waiting' : `${list.data.count} accounts waiting`}
          </p>
        ) : null}
      </div>
      <p className="admin-panel__lead">
        The risk checks held these accounts back. They can log in and answer, but their answers
        count only once approved.
      </p>
      {list.isError ? (
        <ListError what="The signups" onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <ListLoading label="Loading signups" />
      ) : list.data.results.length === 0 ? (
        <div className="admin-empty">
          <p className="admin-empty__title">No signups to review</p>
          <p>Every new account passed the risk checks. Held-back signups appear here.</p>
        </div>
      ) : (
        <table
          className={`admin-table${list.isPlaceholderData ? ' admin-table--stale' : ''}`}
          aria-busy={list.isPlaceholderData}
        >
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Country</th>
              <th scope="col">Why it was held</th>
              <th scope="col">Signed up</th>
              <th scope="col">
                <span className="visually-hidden">Decision</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.results.map((account) => (
              <tr key={account.uuid}>
                <th scope="row" data-label="Number" className="admin-table__number">
                  {account.phone_masked}
                </th>
                <td data-label="Country">{countryName(account.country)}</td>
                <td data-label="Why it was held" className="admin-table__span">
                  {account.risk_reasons.length ? (
                    <ul className="chips" aria-label="Risk reasons">
                      {account.risk_reasons.map((reason) => (
                        <li key={reason} className="chip">
                          {reason}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <span className="admin-table__muted">No reason recorded</span>
                  )}
                </td>
                <td data-label="Signed up">
                  <When at={account.created_at} />
                </td>
                <td className="admin-table__actions">
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={busy(account.uuid)}
                    aria-label={`Approve ${account.phone_masked}`}
                    onClick={() => run(account, 'approve')}
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    className="button button--danger-outline"
                    disabled={busy(account.uuid)}
                    aria-label={`Reject ${account.phone_masked}`}
                    onClick={() => setRejecting(account)}
                  >
                    Reject
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager label="Signup pages" page={page} list={list.data} onPage={(p) => set({ page: p })} />
      <ConfirmDialog
        open={rejecting !== null}
        title={`Reject ${rejecting?.phone_masked ?? 'this signup'}?`}
        confirmLabel="Reject signup"
        danger
        onCancel={() => setRejecting(null)}
        onConfirm={() => {
          if (rejecting) run(rejecting, 'reject');
          setRejecting(null);
        }}
      >
        <p>The account can no longer log in, and its answers never count in the results.</p>
      </ConfirmDialog>
    </section>
  );
}
