import {
  type CreatedResearchToken,
  type ResearchToken,
  ResearchTokenInputSchema,
} from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { Field } from '../../../../components/form';
import { PageHead } from '../../../../components/page-head';
import { copyLink } from '../../../../lib/copy-link';
import { successToast } from '../../../../lib/toasts';
import {
  adminQueries,
  researchTokenQueries,
  useCreateResearchToken,
  useRevokeResearchToken,
} from '../../api/admin';
import { problemsFromError, problemsFromIssues } from '../../lib/form-problems';
import { actionErrorText } from '../../lib/wording';
import { DateTime } from '../authoring/survey-bits';
import { ConfirmDialog } from '../confirm-dialog';
import { ListError, ListLoading } from '../list-states';
import { When } from '../when';
import './research-tokens.css';

/** How long a new token lasts: the choices offered (days; null: until revoked). */
const LIFETIMES: Array<{ days: number | null; label: string }> = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: 'A year' },
  { days: null, label: 'Until revoked' },
];

const STATE_LABELS: Record<ResearchToken['state'], string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
};
const STATE_CLASSES: Record<ResearchToken['state'], string> = {
  active: 'status-badge--active',
  expired: 'status-badge--survey-closed',
  revoked: 'status-badge--rejected',
};

type Problems = Partial<Record<'name' | 'surveys' | 'expires_in_days', string>>;

/** The new token, shown this once, with how to use it. */
function NewToken({ created, onDone }: { created: CreatedResearchToken; onDone: () => void }) {
  const example = `curl -H "Authorization: Bearer ${created.token}" ${window.location.origin}/api/v1/research/surveys/`;
  return (
    <div className="research-tokens__new" role="status">
      <h2 className="research-tokens__new-title">“{created.name}” is ready</h2>
      <p>
        Copy the token now and give it to the researcher over a safe channel: it is not shown again.
        Anyone holding it can read the results it allows until it expires or you revoke it.
      </p>
      <label className="field__label" htmlFor="research-token-value">
        Token
      </label>
      <div className="share__row">
        <input
          id="research-token-value"
          className="input research-tokens__secret"
          readOnly
          value={created.token}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="button" onClick={() => copyLink(created.token, 'token')}>
          Copy token
        </button>
      </div>
      <p className="field__hint">For example, the surveys it can read:</p>
      <pre className="research-tokens__example">{example}</pre>
      <button type="button" className="button button--primary" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}

/** Making a token: who it is for, which published surveys, for how long. */
function TokenForm({ onMade }: { onMade: (created: CreatedResearchToken) => void }) {
  const surveys = useQuery(adminQueries.surveys());
  const create = useCreateResearchToken();
  const [name, setName] = useState('');
  const [every, setEvery] = useState(true);
  const [picked, setPicked] = useState<string[]>([]);
  const [days, setDays] = useState<number | null>(90);
  const [problems, setProblems] = useState<Problems>({});
  const [other, setOther] = useState<string | null>(null);
  const published = surveys.data?.results ?? [];

  const submit = () => {
    const input = { name, surveys: every ? null : picked, expires_in_days: days };
    const parsed = ResearchTokenInputSchema.safeParse(input);
    if (!parsed.success) {
      setProblems(problemsFromIssues(parsed.error.issues));
      setOther(null);
      return;
    }
    setProblems({});
    setOther(null);
    create.mutate(parsed.data, {
      onSuccess: (created) => {
        setName('');
        setPicked([]);
        onMade(created);
        // The token lives in the panel's state until "I have copied it", not in the cache.
        create.reset();
      },
      onError: (err) => {
        const { fields, other: rest } = problemsFromError(
          err,
          ['name', 'surveys', 'expires_in_days'] as const,
          'The token could not be made. Try again.',
        );
        setProblems(fields);
        setOther(rest);
      },
    });
  };

  return (
    <form
      className="research-tokens__form"
      aria-labelledby="research-token-form-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2 id="research-token-form-title" className="research-tokens__subtitle">
        New token
      </h2>
      <Field
        label="Who is it for?"
        hint="A name you will recognise in the audit log, such as the lab or the study."
        error={problems.name}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input"
            value={name}
            maxLength={120}
            autoComplete="off"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>
      <fieldset className="research-tokens__surveys">
        <legend className="field__label">What may it read?</legend>
        <label className="research-tokens__choice">
          <input type="radio" checked={every} onChange={() => setEvery(true)} />
          Every published survey, including those published later
        </label>
        <label className="research-tokens__choice">
          <input type="radio" checked={!every} onChange={() => setEvery(false)} />
          Only the surveys I pick
        </label>
        {!every ? (
          surveys.isError ? (
            <ListError what="The surveys" onRetry={() => void surveys.refetch()} />
          ) : !surveys.data ? (
            <ListLoading label="Loading the surveys" />
          ) : (
            <ul className="research-tokens__picks" aria-label="Published surveys">
              {published.map((s) => (
                <li key={s.gid}>
                  <label className="research-tokens__choice">
                    <input
                      type="checkbox"
                      checked={picked.includes(s.gid)}
                      onChange={(e) =>
                        setPicked((now) =>
                          e.target.checked ? [...now, s.gid] : now.filter((g) => g !== s.gid),
                        )
                      }
                    />
                    {s.name}
                  </label>
                </li>
              ))}
            </ul>
          )
        ) : null}
        {problems.surveys ? (
          <p className="field__error" role="alert">
            {problems.surveys}
          </p>
        ) : null}
      </fieldset>
      <Field label="Valid for" error={problems.expires_in_days}>
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            className="input research-tokens__lifetime"
            value={days === null ? 'never' : String(days)}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            onChange={(e) => setDays(e.target.value === 'never' ? null : Number(e.target.value))}
          >
            {LIFETIMES.map((l) => (
              <option key={l.label} value={l.days === null ? 'never' : String(l.days)}>
                {l.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {other ? (
        <p className="form-alert" role="alert">
          {other}
        </p>
      ) : null}
      <button type="submit" className="button button--primary" disabled={create.isPending}>
        {create.isPending ? 'Making the token…' : 'Make token'}
      </button>
    </form>
  );
}

/**
 * Researchers' API tokens (issue 31): read-only access by script to published results and
 * their exports, each token shown once, every use in the audit log, revocable at once.
 */
export function ResearchTokensPanel() {
  const list = useQuery(researchTokenQueries.list());
  const revoke = useRevokeResearchToken();
  const [created, setCreated] = useState<CreatedResearchToken | null>(null);
  const [revoking, setRevoking] = useState<ResearchToken | null>(null);
  const tokens = list.data?.results;

  return (
    <section className="admin-panel research-tokens" aria-labelledby="research-tokens-title">
      <PageHead title="API tokens" />
      <div className="admin-panel__head">
        <h1 id="research-tokens-title" className="admin-panel__title">
          API tokens
        </h1>
      </div>
      <p className="admin-panel__lead">
        Researchers read published results and exports by script with a token: read only, under the
        same privacy rules as every graph. Each use is in the audit log.
      </p>
      {created ? (
        <NewToken created={created} onDone={() => setCreated(null)} />
      ) : (
        <TokenForm onMade={setCreated} />
      )}
      <h2 className="research-tokens__subtitle">Tokens</h2>
      {list.isError ? (
        <ListError what="The tokens" onRetry={() => void list.refetch()} />
      ) : !tokens ? (
        <ListLoading label="Loading the tokens" />
      ) : tokens.length === 0 ? (
        <div className="admin-empty">
          <p className="admin-empty__title">No tokens yet</p>
          <p>Make one above when a researcher needs the results by script.</p>
        </div>
      ) : (
        <ul className="research-tokens__list" aria-label="Tokens">
          {tokens.map((t) => (
            <li key={t.id} className="research-tokens__item">
              <div className="research-tokens__about">
                <p className="research-tokens__name">
                  {t.name}{' '}
                  <span className={`status-badge ${STATE_CLASSES[t.state]}`}>
                    {STATE_LABELS[t.state]}
                  </span>
                </p>
                <p className="research-tokens__meta">
                  <code>{t.prefix}…</code>
                  {' · '}
                  {t.surveys === null
                    ? 'every published survey'
                    : t.surveys.length === 0
                      ? 'no survey left (its surveys were deleted)'
                      : t.surveys.map((s) => s.name).join(', ')}
                </p>
                <p className="research-tokens__meta">
                  Made <When at={t.created_at} />
                  {t.revoked_at ? (
                    <>
                      {' · '}revoked <DateTime at={t.revoked_at} />
                    </>
                  ) : t.expires_at ? (
                    <>
                      {' · '}
                      {t.state === 'expired' ? 'expired' : 'expires'} <DateTime at={t.expires_at} />
                    </>
                  ) : (
                    ' · no expiry'
                  )}
                  {t.last_used_at ? (
                    <>
                      {' · '}last used <When at={t.last_used_at} />
                    </>
                  ) : (
                    ' · not used yet'
                  )}
                </p>
              </div>
              {t.state === 'active' ? (
                <button
                  type="button"
                  className="button button--danger-outline"
                  disabled={revoke.isPending}
                  aria-label={`Revoke ${t.name}`}
                  onClick={() => setRevoking(t)}
                >
                  Revoke
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={revoking ? `Revoke “${revoking.name}”?` : ''}
        confirmLabel="Revoke token"
        danger
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          const t = revoking;
          setRevoking(null);
          if (!t) return;
          revoke.mutate(t.id, {
            onSuccess: () => successToast(`“${t.name}” is revoked`),
            onError: (err) =>
              toast.error(actionErrorText(err, 'The token could not be revoked. Try again.')),
          });
        }}
      >
        <p>
          Its next request is refused. A revoked token cannot be turned back on: make a new one.
        </p>
      </ConfirmDialog>
    </section>
  );
}
