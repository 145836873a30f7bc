import {
  type AdminUser,
  type Role,
  RoleSchema,
  WHOLE_NUMBER_MESSAGE,
  maskPhoneNumber,
} from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { successToast } from '../../../../lib/toasts';
import { countryName } from '../../../../lib/country-names';
import { useAuthStore } from '../../../../lib/auth-store';
import { ApiError } from '../../../../lib/api-client';
import { type UserChange, adminQueries, useRevealNumber, useUserChange } from '../../api/admin';
import { ROLE_LABELS, actionErrorText } from '../../lib/wording';
import { ConfirmDialog } from '../confirm-dialog';
import { type Column, ListPanel, ListTable } from '../list-panel';
import { usePageParams } from '../use-page-params';
import { When } from '../when';
import { RevealNumberDialog } from './reveal-number-dialog';

const STATUS_LABELS: Record<AdminUser['status'], string> = {
  active: 'Active',
  under_review: 'Under review',
  pending: 'Not verified',
  rejected: 'Rejected',
  suspended: 'Suspended',
};

const ROLE_NOTES: Record<Role, string> = {
  member: 'They lose access to the staff area.',
  moderator: 'They can review signups and written answers.',
  admin: 'They can also manage accounts and read the audit log.',
};

/**
 * An account as dialogs, toasts and button labels name it: always masked, even when the list
 * shows its whole number (an exact search), so a whole number is shown in one place only.
 */
const named = (user: AdminUser): string =>
  user.phone_whole ? maskPhoneNumber(user.phone_number) : user.phone_number;

/** The id of an account's number in the table, to focus it once revealed. */
const numberId = (uuid: string) => `number-${uuid}`;

function StatusBadge({ status }: { status: AdminUser['status'] }) {
  return <span className={`status-badge status-badge--${status}`}>{STATUS_LABELS[status]}</span>;
}

/** The digits of a number as people type them: country code first, with +, spaces, dots or dashes. */
const NUMBER_TYPED = /^\+?[\d\s().-]*$/;

function SearchForm({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  return (
    <form
      className="admin-search"
      role="search"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const typed = value.trim();
        // Punctuation alone ("+", "( )") is not an empty search either.
        if (!NUMBER_TYPED.test(typed) || (typed !== '' && !/\d/.test(typed))) {
          // Said, not stripped: "hello" searched as nothing would list every account.
          setError('Search by the digits of a phone number.');
          return;
        }
        const digits = value.replace(/\D/g, '').length;
        if (digits > 0 && (digits < 7 || digits > 15)) {
          setError(WHOLE_NUMBER_MESSAGE);
          return;
        }
        setError(null);
        onSearch(value.replace(/\D/g, ''));
      }}
    >
      <label htmlFor={id} className="field__label">
        Phone number
      </label>
      <p id={`${id}-hint`} className="field__hint admin-search__hint">
        The whole number, country code first. Press Enter to search.
      </p>
      <div className="admin-search__row">
        <input
          id={id}
          className="input"
          type="search"
          inputMode="tel"
          autoComplete="off"
          placeholder="e.g. +1 202 555 0143"
          aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
          aria-invalid={error ? true : undefined}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" className="button button--primary">
          Search
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** What the dialog asks about: a role change or a suspension, for one account. */
interface Pending {
  user: AdminUser;
  change: UserChange;
}

/**
 * Accounts by phone number, masked as the API sends them: reveal one for a reason, change a role,
 * suspend, lift a suspension (admins only). Dialogs and toasts name accounts by masked number.
 */
export function UsersPanel() {
  const { page, set } = usePageParams();
  // The search stays in the page, never in its URL (history, Referer): numbers are personal.
  const [phone, setPhone] = useState('');
  const list = useQuery(adminQueries.users(phone, page));
  const change = useUserChange();
  const me = useAuthStore((s) => s.user?.uuid);
  const [asking, setAsking] = useState<Pending | null>(null);
  // Whole numbers revealed on this page, by account: kept only while the page is open.
  const [revealed, setRevealed] = useState<Record<string, string>>({});
  const [revealing, setRevealing] = useState<AdminUser | null>(null);
  const reveal = useRevealNumber();
  const revealError =
    reveal.error instanceof ApiError ? reveal.error.fieldErrors.reason?.[0] : undefined;

  const askReveal = (user: AdminUser) => {
    reveal.reset();
    setRevealing(user);
  };
  const runReveal = (user: AdminUser, reason: string) =>
    reveal.mutate(
      { uuid: user.uuid, reason },
      {
        onSuccess: (shown) => {
          setRevealed((r) => ({ ...r, [shown.uuid]: shown.phone_number }));
          setRevealing(null);
          // The Reveal button is gone: focus goes to the number it revealed, not the page.
          requestAnimationFrame(() => document.getElementById(numberId(shown.uuid))?.focus());
        },
        onError: (err) => {
          if (err instanceof ApiError && err.fieldErrors.reason) return;
          setRevealing(null);
          toast.error(
            actionErrorText(err, `The number of ${named(user)} could not be shown. Try again.`),
          );
        },
      },
    );

  const run = ({ user, change: c }: Pending) =>
    change.mutate(c, {
      onSuccess: (updated) =>
        successToast(
          c.kind === 'role'
            ? `${named(updated)} is now ${ROLE_LABELS[updated.role].toLowerCase()}`
            : c.kind === 'suspend'
              ? `${named(updated)} is suspended`
              : c.kind === 'second-factor/reset'
                ? `${named(updated)} sets up a new authenticator at their next login`
                : `${named(updated)} can log in again`,
        ),
      onError: (err) =>
        toast.error(
          actionErrorText(
            err,
            c.kind === 'role'
              ? `The role of ${named(user)} could not be changed. Try again.`
              : `${named(user)} could not be updated. Try again.`,
          ),
        ),
    });
  const busy = (uuid: string) => change.isPending && change.variables.uuid === uuid;

  const dialog = (() => {
    if (!asking) return { title: '', note: '', confirm: '', danger: false };
    const { user, change: c } = asking;
    if (c.kind === 'role') {
      return {
        title: `Make ${named(user)} ${c.role === 'admin' ? 'an' : 'a'} ${c.role}?`,
        note: `${ROLE_NOTES[c.role]} Their sessions end, so the new role applies when they next log in.`,
        confirm: `Make ${c.role}`,
        danger: c.role === 'admin',
      };
    }
    if (c.kind === 'second-factor/reset') {
      return {
        title: `Reset the second factor of ${named(user)}?`,
        note: 'For a staff member who lost their authenticator. Their sessions end, and their next login with their password sets up a new one. Make sure it is really them asking.',
        confirm: 'Reset second factor',
        danger: true,
      };
    }
    return {
      title: `Suspend ${named(user)}?`,
      note: 'They are logged out everywhere, cannot log in, and their answers leave the results until you lift the suspension.',
      confirm: 'Suspend account',
      danger: true,
    };
  })();

  const columns: Array<Column<AdminUser>> = [
    {
      header: 'Number',
      rowHeader: true,
      className: 'admin-table__number',
      cell: (user) => {
        const whole = revealed[user.uuid] ?? (user.phone_whole ? user.phone_number : null);
        return (
          <span className="admin-number">
            <span id={numberId(user.uuid)} className="admin-number__value" tabIndex={-1}>
              {whole ?? user.phone_number}
            </span>
            {user.uuid === me ? <span className="you-badge">You</span> : null}
            {whole || user.uuid === me ? null : (
              <button
                type="button"
                className="button admin-number__reveal"
                aria-label={`Reveal the number ${named(user)}`}
                aria-haspopup="dialog"
                onClick={() => askReveal(user)}
              >
                Reveal
              </button>
            )}
          </span>
        );
      },
    },
    { header: 'Country', cell: (user) => countryName(user.country) },
    {
      header: 'Role',
      cell: (user) => (
        <select
          className="input input--compact"
          aria-label={`Role of ${named(user)}`}
          value={user.role}
          disabled={busy(user.uuid)}
          onChange={(e) => {
            const role = RoleSchema.parse(e.target.value);
            setAsking({ user, change: { uuid: user.uuid, kind: 'role', role } });
          }}
        >
          {RoleSchema.options.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      ),
    },
    { header: 'Status', cell: (user) => <StatusBadge status={user.status} /> },
    { header: 'Joined', cell: (user) => <When at={user.created_at} /> },
    {
      header: 'Suspension',
      hideHeader: true,
      className: 'admin-table__actions',
      cell: (user) => (
        <span className="admin-table__buttons">
          {user.role !== 'member' && user.uuid !== me ? (
            <button
              type="button"
              className="button"
              disabled={busy(user.uuid)}
              aria-label={`Reset second factor of ${named(user)}`}
              onClick={() =>
                setAsking({ user, change: { uuid: user.uuid, kind: 'second-factor/reset' } })
              }
            >
              Reset second factor
            </button>
          ) : null}
          {user.status === 'suspended' ? (
            <button
              type="button"
              className="button"
              disabled={busy(user.uuid)}
              aria-label={`Lift the suspension of ${named(user)}`}
              onClick={() => run({ user, change: { uuid: user.uuid, kind: 'unsuspend' } })}
            >
              Lift suspension
            </button>
          ) : (
            <button
              type="button"
              className="button button--danger-outline"
              disabled={busy(user.uuid)}
              aria-label={`Suspend ${named(user)}`}
              onClick={() => setAsking({ user, change: { uuid: user.uuid, kind: 'suspend' } })}
            >
              Suspend
            </button>
          )}
        </span>
      ),
    },
  ];

  return (
    <ListPanel
      id="users-title"
      title="Users"
      count={(n) =>
        `${n === 1 ? '1 account' : `${n} accounts`}${phone ? ` with the number +${phone}` : ''}`
      }
      filters={
        <SearchForm
          initial={phone}
          onSearch={(q) => {
            setPhone(q);
            set({ page: null });
          }}
        />
      }
      query={list}
      what="The accounts"
      loadingLabel="Loading accounts"
      empty={{
        title: 'No account found',
        text: phone
          ? `No number starts with +${phone}. Check the country code and the digits.`
          : 'There are no accounts yet.',
      }}
      pagerLabel="Account pages"
      page={page}
      onPage={(p) => set({ page: p })}
      after={
        <>
          <RevealNumberDialog
            key={revealing?.uuid ?? 'none'}
            masked={revealing ? named(revealing) : ''}
            open={revealing !== null}
            busy={reveal.isPending}
            error={revealError}
            onReveal={(reason) => {
              if (revealing) runReveal(revealing, reason);
            }}
            onCancel={() => setRevealing(null)}
          />
          <ConfirmDialog
            open={asking !== null}
            title={dialog.title}
            confirmLabel={dialog.confirm}
            danger={dialog.danger}
            onCancel={() => setAsking(null)}
            onConfirm={() => {
              if (asking) run(asking);
              setAsking(null);
            }}
          >
            <p>{dialog.note}</p>
          </ConfirmDialog>
        </>
      }
    >
      {(rows, stale) => (
        <ListTable rows={rows} columns={columns} rowKey={(user) => user.uuid} stale={stale} />
      )}
    </ListPanel>
  );
}
