import type {
  AdminUser,
  AdminUserList,
  AuditAction,
  AuditActorList,
  AuditEntryList,
  BreakdownDimension,
  CreatedResearchToken,
  CreatedWebhook,
  OperatorQuestionResults,
  PasskeyList,
  PageViewStats,
  PanelCompletionCounts,
  PendingAnswer,
  PendingAnswerList,
  ResearchToken,
  ResearchTokenInput,
  ResearchTokenList,
  RevealedNumber,
  ReviewAccount,
  ReviewAccountList,
  Role,
  SurveyList,
  SurveyReach,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookInput,
  WebhookList,
} from '@candor/contracts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { BreakdownQuery } from '../../../components/results/question-graph';
import { apiDownload, apiPost, apiRequest } from '../../../lib/api-client';
import { addPasskey } from '../../../lib/passkeys';
import { saveFile } from '../../../lib/save-file';

const base = '/v1/admin';

/** The moderation states of a written answer, as the queue filters them. */
export type AnswerStatus = PendingAnswer['moderation'];

function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

const id = (value: string | number) => encodeURIComponent(String(value));

/** Query options of the staff lists; every key starts with `admin`, then the list's name. */
export const adminQueries = {
  all: () => ['admin'] as const,
  signupsAll: () => [...adminQueries.all(), 'signups'] as const,
  signups: (page: number) =>
    queryOptions({
      queryKey: [...adminQueries.signupsAll(), page] as const,
      queryFn: ({ signal }) =>
        apiRequest<ReviewAccountList>(withQuery(`${base}/signups/`, { page }), { signal }),
      placeholderData: keepPreviousData,
    }),
  answersAll: () => [...adminQueries.all(), 'answers'] as const,
  answers: (status: AnswerStatus, page: number) =>
    queryOptions({
      queryKey: [...adminQueries.answersAll(), status, page] as const,
      queryFn: ({ signal }) =>
        apiRequest<PendingAnswerList>(withQuery(`${base}/answers/`, { status, page }), {
          signal,
        }),
      placeholderData: keepPreviousData,
    }),
  /** The signed-in staff member's own passkeys (decision 024). */
  passkeys: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'passkeys'] as const,
      queryFn: ({ signal }) => apiRequest<PasskeyList>(`${base}/passkeys/`, { signal }),
    }),
  usersAll: () => [...adminQueries.all(), 'users'] as const,
  /** Every account, or those whose number starts with `phone`: searched by POST, so never in a URL. */
  users: (phone: string, page: number) =>
    queryOptions({
      queryKey: [...adminQueries.usersAll(), phone, page] as const,
      queryFn: ({ signal }) =>
        phone
          ? apiPost<AdminUserList>(`${base}/users/search/`, { phone, page }, { signal })
          : apiRequest<AdminUserList>(withQuery(`${base}/users/`, { page }), { signal }),
      placeholderData: keepPreviousData,
    }),
  auditLogAll: () => [...adminQueries.all(), 'audit-log'] as const,
  auditLog: (page: number, filter: { action?: AuditAction | null; actor?: string | null } = {}) =>
    queryOptions({
      queryKey: [
        ...adminQueries.auditLogAll(),
        page,
        filter.action ?? '',
        filter.actor ?? '',
      ] as const,
      queryFn: ({ signal }) =>
        apiRequest<AuditEntryList>(
          withQuery(`${base}/audit-log/`, {
            page,
            action: filter.action ?? undefined,
            actor: filter.actor ?? undefined,
          }),
          { signal },
        ),
      placeholderData: keepPreviousData,
    }),
  /** Everyone who appears in the audit log, for its filter. */
  auditActors: () =>
    queryOptions({
      queryKey: [...adminQueries.auditLogAll(), 'actors'] as const,
      queryFn: ({ signal }) => apiRequest<AuditActorList>(`${base}/audit-log/actors/`, { signal }),
    }),
  /** The released surveys with their questions (the public list; a hundred is plenty). */
  surveys: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'surveys'] as const,
      queryFn: ({ signal }) =>
        apiRequest<SurveyList>('/v1/surveys/open-closed-random-video-surveys?page_size=100', {
          signal,
        }),
      staleTime: 60_000,
    }),
  /** A question's published results with answer quality and ratings, whole or by a dimension. */
  questionResults: (qid: string, breakdown?: BreakdownDimension) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'results', qid, breakdown ?? 'all'] as const,
      queryFn: ({ signal }) => fetchQuestionResults(qid, breakdown, signal),
      staleTime: 10_000,
    }),
  /** A survey's research-panel completions, counted per panel. */
  panelCompletions: (gid: string) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'panel-completions', gid] as const,
      queryFn: ({ signal }) =>
        apiRequest<PanelCompletionCounts>(`${base}/surveys/${id(gid)}/panel-completions/`, {
          signal,
        }),
      staleTime: 10_000,
    }),
  /** How far people got through a survey, from its questions' published counts. */
  reach: (gid: string) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'reach', gid] as const,
      queryFn: ({ signal }) =>
        apiRequest<SurveyReach>(`${base}/surveys/${id(gid)}/reach/`, { signal }),
      staleTime: 10_000,
    }),
  /** Page views per day, page and referring site over the last `days` days. */
  pageViews: (days: number) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'page-views', days] as const,
      queryFn: ({ signal }) =>
        apiRequest<PageViewStats>(withQuery(`${base}/page-views/`, { days }), { signal }),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
};

function fetchQuestionResults(
  qid: string,
  breakdown: BreakdownDimension | undefined,
  signal: AbortSignal,
) {
  return apiRequest<OperatorQuestionResults>(
    withQuery(`${base}/questions/${id(qid)}/results/`, { breakdown }),
    { signal },
  );
}

/** The graph's breakdowns for staff: the admin results (the same published numbers). */
export const staffBreakdown =
  (qid: string): BreakdownQuery =>
  (dimension) => ({
    queryKey: adminQueries.questionResults(qid, dimension).queryKey,
    queryFn: ({ signal }) => fetchQuestionResults(qid, dimension, signal),
    staleTime: 10_000,
  });

/** What the results panel downloads: the export as CSV or JSON, or the codebook. */
export type SurveyDownload = 'csv' | 'json' | 'codebook';

/**
 * Downloads a survey's published results as CSV or JSON, or its codebook (what every column
 * and figure means), and saves the file. Throws ApiError.
 */
export async function downloadSurveyExport(gid: string, format: SurveyDownload): Promise<string> {
  const file = format === 'codebook' ? 'codebook.json' : `export.${format}`;
  const { blob, fileName } = await apiDownload(`${base}/surveys/${id(gid)}/${file}`);
  const name = fileName ?? `candor-${gid}.${format === 'codebook' ? 'codebook.json' : format}`;
  saveFile(blob, name);
  return name;
}

/** Downloads a survey's panel completions (panel, code, time) as CSV. Throws ApiError. */
export async function downloadPanelCompletions(gid: string): Promise<string> {
  const { blob, fileName } = await apiDownload(`${base}/surveys/${id(gid)}/panel-completions.csv`);
  const name = fileName ?? `candor-${gid}-panel-completions.csv`;
  saveFile(blob, name);
  return name;
}

/** Approves or rejects an account under review; refreshes the queue and the audit log. */
export function useSignupDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, decision }: { uuid: string; decision: 'approve' | 'reject' }) =>
      apiPost<ReviewAccount>(`${base}/signups/${id(uuid)}/${decision}/`, {}),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminQueries.signupsAll() }),
        queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
      ]),
  });
}

/** Approves or hides a written answer; refreshes every status of the queue and the audit log. */
export function useAnswerDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ answerId, decision }: { answerId: number; decision: 'approve' | 'hide' }) =>
      apiPost<undefined>(`${base}/answers/${id(answerId)}/${decision}/`, {}),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminQueries.answersAll() }),
        queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
      ]),
  });
}

/**
 * A change to one account: its role, a suspension and its lifting, or a staff member's second
 * factor reset (they enrol a new one at their next login).
 */
export type UserChange =
  | { uuid: string; kind: 'role'; role: Role }
  | { uuid: string; kind: 'suspend' | 'unsuspend' | 'second-factor/reset' };

/** Changes an account's role or standing; refreshes the users lists, signups and the audit log. */
export function useUserChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UserChange) =>
      change.kind === 'role'
        ? apiPost<AdminUser>(`${base}/users/${id(change.uuid)}/role/`, { role: change.role })
        : apiPost<AdminUser>(`${base}/users/${id(change.uuid)}/${change.kind}/`, {}),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminQueries.usersAll() }),
        queryClient.invalidateQueries({ queryKey: adminQueries.signupsAll() }),
        queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
      ]),
  });
}

/**
 * Reveals an account's whole number for a reason (audited by the API in the same step); the
 * audit log is refreshed. The number lives only in the caller's state, never in a query cache.
 */
export function useRevealNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, reason }: { uuid: string; reason: string }) =>
      apiPost<RevealedNumber>(`${base}/users/${id(uuid)}/reveal-number/`, { reason }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
  });
}

/** Adds a passkey to one's own account (the browser's prompt, then the API); refreshes the list. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => addPasskey(),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminQueries.passkeys().queryKey }),
        queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
      ]),
  });
}

/** Removes one of one's own passkeys; refreshes the list and the audit log. */
export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (passkeyId: string) =>
      apiRequest<undefined>(`${base}/passkeys/${id(passkeyId)}/`, { method: 'DELETE' }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminQueries.passkeys().queryKey }),
        queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
      ]),
  });
}

/** Researchers' API tokens (admins): listed, made (the token is in the reply, once), revoked. */
export const researchTokenQueries = {
  list: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'research-tokens'] as const,
      queryFn: ({ signal }) =>
        apiRequest<ResearchTokenList>(`${base}/research-tokens/`, { signal }),
    }),
};

export function useCreateResearchToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ResearchTokenInput) =>
      apiPost<CreatedResearchToken>(`${base}/research-tokens/`, input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: researchTokenQueries.list().queryKey }),
        queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
      ]),
  });
}

export function useRevokeResearchToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      apiPost<ResearchToken>(`${base}/research-tokens/${id(tokenId)}/revoke/`, {}),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: researchTokenQueries.list().queryKey }),
        queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
      ]),
  });
}

/** Webhooks (admins): listed, added (the secret is in the reply, once), deleted; their log. */
export const webhookQueries = {
  list: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'webhooks'] as const,
      queryFn: ({ signal }) => apiRequest<WebhookList>(`${base}/webhooks/`, { signal }),
    }),
  deliveries: (webhookId: string) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'webhooks', webhookId, 'deliveries'] as const,
      queryFn: ({ signal }) =>
        apiRequest<WebhookDeliveryList>(`${base}/webhooks/${id(webhookId)}/deliveries/`, {
          signal,
        }),
    }),
};

/** After any webhook change: the list, that webhook's log, the audit log. */
function useWebhooksChanged() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: webhookQueries.list().queryKey }),
      queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
    ]);
}

export function useCreateWebhook() {
  const changed = useWebhooksChanged();
  return useMutation({
    mutationFn: (input: WebhookInput) => apiPost<CreatedWebhook>(`${base}/webhooks/`, input),
    onSuccess: changed,
  });
}

export function useDeleteWebhook() {
  const changed = useWebhooksChanged();
  return useMutation({
    mutationFn: (webhookId: string) =>
      apiRequest<undefined>(`${base}/webhooks/${id(webhookId)}/`, { method: 'DELETE' }),
    onSettled: changed,
  });
}

/** A test event now, or a logged delivery again: the reply is the attempt's outcome. */
export function useSendWebhook() {
  const changed = useWebhooksChanged();
  return useMutation({
    mutationFn: ({ webhookId, deliveryId }: { webhookId: string; deliveryId?: string }) =>
      apiPost<WebhookDelivery>(
        deliveryId
          ? `${base}/webhooks/${id(webhookId)}/deliveries/${id(deliveryId)}/redeliver/`
          : `${base}/webhooks/${id(webhookId)}/ping/`,
        {},
      ),
    onSettled: changed,
  });
}
