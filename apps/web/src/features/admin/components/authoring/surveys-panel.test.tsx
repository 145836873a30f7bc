import type { AdminSurveyList, AdminSurveySummary } from '@candor/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SurveysPanel } from './surveys-panel';

const survey = (n: number, state: AdminSurveySummary['state']): AdminSurveySummary => ({
  gid: `00000000-0000-4000-8000-00000000000${n}`,
  name: `Survey ${n}`,
  state,
  cover_image: null,
  variant: 'v1_medium',
  slot: n,
  release_date: '2026-01-01T10:00:00Z',
  date_published: null,
  closed_at: null,
  closes_at: null,
  archived_at: null,
  sample: false,
  questions_count: n,
  answers_count: 10 * n,
});
const list: AdminSurveyList = {
  results: [survey(1, 'open'), survey(2, 'draft'), survey(3, 'closed')],
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn((url: string, init?: RequestInit) => {
    if (init?.method === 'PUT') {
      const { gids } = JSON.parse(String(init.body)) as { gids: string[] };
      const byId = new Map(list.results.map((s) => [s.gid, s]));
      return Promise.resolve(
        json(200, { results: gids.map((g, i) => ({ ...byId.get(g)!, slot: i + 1 })) }),
      );
    }
    return Promise.resolve(url.endsWith('/v1/admin/surveys/') ? json(200, list) : json(404, {}));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

/** The panel at /admin/surveys, with a second screen to leave for. */
function show() {
  const router = createMemoryRouter(
    [
      { path: '/admin/surveys', element: <SurveysPanel /> },
      { path: '/admin/surveys/:gid', element: <p>the editor</p> },
    ],
    { initialEntries: ['/admin/surveys'] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('link')[0]!.textContent);

describe('SurveysPanel', () => {
  it('lists every state, and saves a new home-page order only when asked', async () => {
    show();
    expect(await screen.findByText('Survey 2')).toBeTruthy();
    expect(screen.getByText('Draft')).toBeTruthy();
    expect(screen.getByText('Closed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save order' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Move Survey 3 up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move Survey 3 up' }));
    expect(names()).toEqual(['Survey 3', 'Survey 1', 'Survey 2']);
    expect(fetchMock).toHaveBeenCalledTimes(1); // nothing saved yet

    fireEvent.click(screen.getByRole('button', { name: 'Save order' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save order' })).toBeNull());
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(put[0]).toBe('/api/v1/admin/survey-order/');
    expect(JSON.parse(String(put[1]!.body))).toEqual({
      gids: [list.results[2]!.gid, list.results[0]!.gid, list.results[1]!.gid],
    });
    expect(names()).toEqual(['Survey 3', 'Survey 1', 'Survey 2']);
  });

  it('undoes moves that were not saved', async () => {
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Move Survey 1 down' }));
    expect(names()).toEqual(['Survey 2', 'Survey 1', 'Survey 3']);
    fireEvent.click(screen.getByRole('button', { name: 'Undo changes' }));
    expect(names()).toEqual(['Survey 1', 'Survey 2', 'Survey 3']);
    expect(screen.queryByRole('button', { name: 'Save order' })).toBeNull();
  });

  it('asks before leaving with an order that is not saved', async () => {
    // jsdom has no modal dialogs: the native methods just toggle "open".
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.open = true;
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.open = false;
    };
    const router = show();
    fireEvent.click(await screen.findByRole('button', { name: 'Move Survey 1 down' }));
    fireEvent.click(screen.getByRole('link', { name: 'Survey 3' }));
    expect(await screen.findByText('Leave without saving?')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/surveys');
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(names()).toEqual(['Survey 2', 'Survey 1', 'Survey 3']);
    fireEvent.click(screen.getByRole('link', { name: 'Survey 3' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('the editor')).toBeTruthy();
  });
});

describe('the sample surveys', () => {
  const sample = (n: number): AdminSurveySummary => ({
    ...survey(n, 'open'),
    name: `Sample ${n}`,
    sample: true,
  });

  function serve(results: AdminSurveySummary[]) {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${url}`);
        if (url.endsWith('/v1/admin/sample-surveys/archive/')) {
          const archived = results.map((s) =>
            s.sample ? { ...s, state: 'closed', archived_at: '2026-11-29T00:00:00Z' } : s,
          );
          return Promise.resolve(json(200, { results: archived }));
        }
        return Promise.resolve(
          url.endsWith('/v1/admin/surveys/') ? json(200, { results }) : json(404, {}),
        );
      }),
    );
    return calls;
  }

  it('offers nothing while the samples are all there is', async () => {
    serve([sample(1), sample(2)]);
    show();
    expect(await screen.findByText('Sample 2')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove the sample content' })).toBeNull();
  });

  it('offers to take them off the site once an own survey exists, after asking', async () => {
    const calls = serve([sample(1), sample(2), survey(3, 'draft')]);
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove the sample content' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the sample content?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove from the site' }));
    await waitFor(() => expect(calls).toContain('POST /api/v1/admin/sample-surveys/archive/'));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Remove the sample content' })).toBeNull(),
    );
    expect(screen.getAllByText('Archived')).toHaveLength(2);
  });
});
