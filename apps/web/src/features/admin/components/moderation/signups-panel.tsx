import type { ReviewAccount } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { successToast } from '../../../../lib/toasts';
import { countryName } from '../../../../lib/country-names';
import { adminQueries, useSignupDecision } from '../../api/admin';
import { actionErrorText } from '../../lib/wording';
import { ConfirmDialog } from '../confirm-dialog';
import { type Column, ListPanel, ListTable } from '../list-panel';
import { usePageParams } from '../use-page-params';
import { When } from '../when';

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
          successToast(
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

  const columns: Array<Column<ReviewAccount>> = [
    {
      header: 'Number',
      rowHeader: true,
      className: 'admin-table__number',
      cell: (account) => account.phone_masked,
    },
    { header: 'Country', cell: (account) => countryName(account.country) },
    {
      header: 'Why it was held',
      className: 'admin-table__span',
      cell: (account) =>
        account.risk_reasons.length ? (
          <ul className="chips" aria-label="Risk reasons">
            {account.risk_reasons.map((reason) => (
              <li key={reason} className="chip">
                {reason}
              </li>
            ))}
          </ul>
        ) : (
          <span className="admin-table__muted">No reason recorded</span>
        ),
    },
    { header: 'Signed up', cell: (account) => <When at={account.created_at} /> },
    {
      header: 'Decision',
      hideHeader: true,
      className: 'admin-table__actions',
      cell: (account) => (
        <>
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
        </>
      ),
    },
  ];

  return (
    <ListPanel
      id="signups-title"
      title="Signups under review"
      count={(n) => (n === 1 ? '1 account waiting' : `${n} accounts waiting`)}
      lead="The risk checks held these accounts back. They can log in and answer, but their answers count only once approved."
      query={list}
      what="The signups"
      loadingLabel="Loading signups"
      empty={{
        title: 'No signups to review',
        text: 'Every new account passed the risk checks. Held-back signups appear here.',
      }}
      pagerLabel="Signup pages"
      page={page}
      onPage={(p) => set({ page: p })}
      after={
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
      }
    >
      {(rows, stale) => (
        <ListTable rows={rows} columns={columns} rowKey={(account) => account.uuid} stale={stale} />
      )}
    </ListPanel>
  );
}
