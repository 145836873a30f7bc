import type { PanelCompletion } from '@candor/contracts';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, apiPost } from '../../../lib/api-client';
import { redeemed } from './answers';
import { credentials, currentOwner, flushOutbox } from './outbox';

/** A respondent sent by a research panel (`?panel=...&pid=...&return=https://...`). */
export interface Panel {
  id: string;
  pid: string | null;
  returnUrl: string | null;
}

// As the contract (PANEL_MAX_LENGTH, PANEL_PID_MAX_LENGTH); only types come from it here.
const PANEL_MAX = 64;
const PID_MAX = 128;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const clean = (value: string | null, max: number) => {
  const text = value?.trim() ?? '';
  return text && text.length <= max && !CONTROL.test(text) ? text : null;
};

/** Reads the panel parameters of a survey link; the return link must be https. */
export function panelFrom(params: URLSearchParams): Panel | null {
  const id = clean(params.get('panel'), PANEL_MAX);
  if (!id) return null;
  const raw = params.get('return');
  let returnUrl: string | null = null;
  try {
    if (raw && new URL(raw).protocol === 'https:') returnUrl = new URL(raw).toString();
  } catch {
    returnUrl = null;
  }
  return { id, pid: clean(params.get('pid'), PID_MAX), returnUrl };
}

// Per tab (sessionStorage): the panel link's parameters outlive the detour through signing up
// or logging in, which comes back to the survey without them.
const storageKey = (gid: string) => `panel:${gid}`;

/** Keeps the panel of a survey link for this tab. */
export function rememberPanel(gid: string, panel: Panel): void {
  try {
    sessionStorage.setItem(storageKey(gid), JSON.stringify(panel));
  } catch {
    // Storage refused (a private mode): the panel lasts as long as the page.
  }
}

/** The panel this tab came from for the survey, if any. */
export function recalledPanel(gid: string): Panel | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey(gid)) ?? 'null') as Panel | null;
    if (!saved || typeof saved.id !== 'string') return null;
    const params = new URLSearchParams({ panel: saved.id });
    if (typeof saved.pid === 'string') params.set('pid', saved.pid);
    if (typeof saved.returnUrl === 'string') params.set('return', saved.returnUrl);
    // Checked again, as if it came from a link.
    return panelFrom(params);
  } catch {
    return null;
  }
}

/**
 * The completion code, issued by the server once every answer is stored: answers still in the
 * outbox go first, and "not answered yet" is retried while they arrive. Asked with the survey's
 * credential when its answers went with it (the server sees their receipts, not the account),
 * else as the member who answered before credentials.
 */
export const panelCompletionQuery = (gid: string, panel: string, pid: string) =>
  queryOptions({
    queryKey: ['answering', 'panel-completion', gid, panel, pid] as const,
    queryFn: async () => {
      await flushOutbox();
      const held = await credentials.stateFor(currentOwner(), gid);
      return apiPost<PanelCompletion>(
        `/v1/surveys/${encodeURIComponent(gid)}/answers/panel-completion/`,
        { panel, pid },
        held.kind === 'ready' ? redeemed(held.token) : undefined,
      );
    },
    retry: (failures, err) =>
      failures < 6 &&
      err instanceof ApiError &&
      (err.code === 'NOT_ANSWERED' || err.code === 'NETWORK' || err.status >= 500),
    retryDelay: (failures) => Math.min(8000, 1000 * 2 ** failures),
    staleTime: Infinity,
    gcTime: Infinity,
  });
