import {
  type CreatedWebhook,
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  WebhookInputSchema,
} from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { Field } from '../../../../components/form';
import { PageHead } from '../../../../components/page-head';
import { copyLink } from '../../../../lib/copy-link';
import { successToast } from '../../../../lib/toasts';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useSendWebhook,
  webhookQueries,
} from '../../api/admin';
import { problemsFromError, problemsFromIssues } from '../../lib/form-problems';
import { actionErrorText } from '../../lib/wording';
import { ConfirmDialog } from '../confirm-dialog';
import { ListError, ListLoading } from '../list-states';
import { When } from '../when';
import './research-tokens.css';
import './webhooks.css';

const EVENT_LABELS: Record<WebhookEvent, string> = {
  'survey.published': 'A survey is published',
  'survey.closed': 'A survey closes',
  'results.updated': 'New results are published',
  ping: 'Test event',
};

const STATUS_LABELS: Record<WebhookDelivery['status'], string> = {
  pending: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
};
const STATUS_CLASSES: Record<WebhookDelivery['status'], string> = {
  pending: 'status-badge--survey-scheduled',
  delivered: 'status-badge--active',
  failed: 'status-badge--rejected',
};

type Problems = Partial<Record<'url' | 'events', string>>;

/** The new webhook's signing secret, shown this once, with how a receiver checks it. */
function NewSecret({ created, onDone }: { created: CreatedWebhook; onDone: () => void }) {
  return (
    <div className="research-tokens__new" role="status">
      <h2 className="research-tokens__new-title">The webhook is added</h2>
      <p>
        Copy its signing secret now and keep it with your receiver: it is not shown again. Check
        every request with it, and refuse one older than five minutes.
      </p>
      <label className="field__label" htmlFor="webhook-secret-value">
        Signing secret
      </label>
      <div className="share__row">
        <input
          id="webhook-secret-value"
          className="input research-tokens__secret"
          readOnly
          value={created.secret}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="button" onClick={() => copyLink(created.secret, 'secret')}>
          Copy secret
        </button>
      </div>
      <p className="field__hint">
        Requests follow Standard Webhooks: <code>webhook-signature</code> is <code>v1,</code> and
        the base64 HMAC-SHA256 of <code>webhook-id.webhook-timestamp.body</code>, keyed with the
        secret after <code>whsec_</code> (base64). Libraries for most languages check it for you.
      </p>
      <button type="button" className="button button--primary" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}

function WebhookForm({ onMade }: { onMade: (created: CreatedWebhook) => void }) {
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENTS]);
  const [problems, setProblems] = useState<Problems>({});
  const [other, setOther] = useState<string | null>(null);

  const submit = () => {
    const parsed = WebhookInputSchema.safeParse({ url, events });
    if (!parsed.success) {
      setProblems(problemsFromIssues(parsed.error.issues));
      setOther(null);
      return;
    }
    setProblems({});
    setOther(null);
    create.mutate(parsed.data, {
      onSuccess: (created) => {
        setUrl('');
        onMade(created);
        create.reset();
      },
      onError: (err) => {
        const { fields, other: rest } = problemsFromError(
          err,
          ['url', 'events'] as const,
          'The webhook could not be added. Try again.',
        );
        setProblems(fields);
        setOther(rest);
      },
    });
  };

  return (
    <form
      className="research-tokens__form"
      aria-labelledby="webhook-form-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2 id="webhook-form-title" className="research-tokens__subtitle">
        New webhook
      </h2>
      <Field
        label="Address"
        hint="Your receiver's public https:// address. Private networks are refused."
        error={problems.url}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input"
            type="url"
            inputMode="url"
            placeholder="https://example.org/hooks/candor"
            value={url}
            maxLength={2100}
            autoComplete="off"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <fieldset className="research-tokens__surveys">
        <legend className="field__label">Tell it when</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event} className="research-tokens__choice">
            <input
              type="checkbox"
              checked={events.includes(event)}
              onChange={(e) =>
                setEvents((now) =>
                  e.target.checked ? [...now, event] : now.filter((x) => x !== event),
                )
              }
            />
            {EVENT_LABELS[event]}
          </label>
        ))}
        {problems.events ? (
          <p className="field__error" role="alert">
            {problems.events}
          </p>
        ) : null}
      </fieldset>
      {other ? (
        <p className="form-alert" role="alert">
          {other}
        </p>
      ) : null}
      <button type="submit" className="button button--primary" disabled={create.isPending}>
        {create.isPending ? 'Adding…' : 'Add webhook'}
      </button>
    </form>
  );
}

/** What one attempt came to, in words. */
function outcomeOf(d: WebhookDelivery): string {
  const tries = d.attempts === 1 ? '1 try' : `${d.attempts} tries`;
  if (d.status === 'delivered') return tries;
  if (d.attempts === 0) return 'sending';
  return `${tries}, ${d.last_error ?? 'failed'}`;
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const log = useQuery(webhookQueries.deliveries(webhook.id));
  const send = useSendWebhook();
  if (log.isError) return <ListError what="The deliveries" onRetry={() => void log.refetch()} />;
  if (!log.data) return <ListLoading label="Loading the deliveries" />;
  if (!log.data.results.length) {
    return <p className="webhooks__none">Nothing sent yet. Send a test event to try it.</p>;
  }
  return (
    <ul className="webhooks__log" aria-label={`Deliveries to ${webhook.url}`}>
      {log.data.results.map((d) => (
        <li key={d.id} className="webhooks__delivery">
          <div className="research-tokens__about">
            <p className="webhooks__event">
              {EVENT_LABELS[d.event]}{' '}
              <span className={`status-badge ${STATUS_CLASSES[d.status]}`}>
                {STATUS_LABELS[d.status]}
              </span>
            </p>
            <p className="research-tokens__meta">
              <When at={d.created_at} /> · {outcomeOf(d)}
              {d.status === 'pending' && d.next_attempt_at ? (
                <>
                  {' · '}next try <When at={d.next_attempt_at} />
                </>
              ) : null}
            </p>
          </div>
          <button
            type="button"
            className="button"
            disabled={send.isPending}
            onClick={() =>
              send.mutate(
                { webhookId: webhook.id, deliveryId: d.id },
                {
                  onSuccess: (sent) =>
                    sent.status === 'delivered'
                      ? successToast('Sent again and delivered')
                      : toast.error(
                          `Sent again: ${sent.last_error ?? 'not delivered'}. It will be retried.`,
                        ),
                  onError: (err) =>
                    toast.error(actionErrorText(err, 'It could not be sent again. Try again.')),
                  onSettled: () => void log.refetch(),
                },
              )
            }
          >
            Send again
          </button>
        </li>
      ))}
    </ul>
  );
}

function WebhookItem({ webhook, onDelete }: { webhook: Webhook; onDelete: () => void }) {
  const [open, setOpen] = useState(false);
  const send = useSendWebhook();
  const logId = `webhook-log-${webhook.id}`;
  return (
    <li className="research-tokens__item webhooks__item">
      <div className="webhooks__row">
        <div className="research-tokens__about">
          <p className="research-tokens__name webhooks__url">{webhook.url}</p>
          <p className="research-tokens__meta">
            {webhook.events.map((e) => EVENT_LABELS[e]).join(' · ')}
          </p>
          <p className="research-tokens__meta">
            <code>{webhook.secret_prefix}…</code> · added <When at={webhook.created_at} />
            {webhook.last_delivery ? (
              <>
                {' · '}last: {STATUS_LABELS[webhook.last_delivery.status].toLowerCase()}{' '}
                <When at={webhook.last_delivery.at} />
              </>
            ) : (
              ' · nothing sent yet'
            )}
          </p>
        </div>
        <div className="webhooks__actions">
          <button
            type="button"
            className="button"
            disabled={send.isPending}
            onClick={() =>
              send.mutate(
                { webhookId: webhook.id },
                {
                  onSuccess: (sent) => {
                    setOpen(true);
                    if (sent.status === 'delivered') successToast('Test event delivered');
                    else toast.error(`Test event not delivered: ${sent.last_error ?? 'failed'}`);
                  },
                  onError: (err) =>
                    toast.error(actionErrorText(err, 'The test event could not be sent.')),
                },
              )
            }
          >
            {send.isPending ? 'Sending…' : 'Send test'}
          </button>
          <button
            type="button"
            className="button"
            aria-expanded={open}
            aria-controls={logId}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? 'Hide deliveries' : 'Deliveries'}
          </button>
          <button
            type="button"
            className="button button--danger-outline"
            aria-label={`Delete the webhook to ${webhook.url}`}
            onClick={onDelete}
          >
            Delete
          </button>
        </div>
      </div>
      {open ? (
        <div id={logId} className="webhooks__deliveries">
          <Deliveries webhook={webhook} />
        </div>
      ) : null}
    </li>
  );
}

/**
 * Webhooks (issue 31, point 5): Candor tells an operator's systems when a survey is published,
 * closes, or has new results; each request signed, retried with backoff, logged, sent again on
 * request. Bodies name the survey and its public results' path; they carry no figure.
 */
export function WebhooksPanel() {
  const list = useQuery(webhookQueries.list());
  const remove = useDeleteWebhook();
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const hooks = list.data?.results;

  return (
    <section className="admin-panel research-tokens" aria-labelledby="webhooks-title">
      <PageHead title="Webhooks" />
      <div className="admin-panel__head">
        <h1 id="webhooks-title" className="admin-panel__title">
          Webhooks
        </h1>
      </div>
      <p className="admin-panel__lead">
        Candor tells your systems when a survey is published, closes, or has new results. Each
        request is signed, names the survey and says where its published results are, to read as
        anyone does. A receiver that fails is tried again for about nine hours.
      </p>
      {created ? (
        <NewSecret created={created} onDone={() => setCreated(null)} />
      ) : (
        <WebhookForm onMade={setCreated} />
      )}
      <h2 className="research-tokens__subtitle">Webhooks</h2>
      {list.isError ? (
        <ListError what="The webhooks" onRetry={() => void list.refetch()} />
      ) : !hooks ? (
        <ListLoading label="Loading the webhooks" />
      ) : hooks.length === 0 ? (
        <div className="admin-empty">
          <p className="admin-empty__title">No webhooks yet</p>
          <p>Add one above to hear about surveys as they happen.</p>
        </div>
      ) : (
        <ul className="research-tokens__list" aria-label="Webhooks">
          {hooks.map((w) => (
            <WebhookItem key={w.id} webhook={w} onDelete={() => setDeleting(w)} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const w = deleting;
          setDeleting(null);
          if (!w) return;
          remove.mutate(w.id, {
            onSuccess: () => successToast('The webhook is deleted'),
            onError: (err) =>
              toast.error(actionErrorText(err, 'The webhook could not be deleted. Try again.')),
          });
        }}
      >
        <p>
          Nothing more is sent to <strong>{deleting?.url}</strong>, and its delivery log is deleted
          with it.
        </p>
      </ConfirmDialog>
    </section>
  );
}
