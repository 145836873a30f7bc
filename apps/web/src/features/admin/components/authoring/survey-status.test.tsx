import type { AdminSurvey } from '@candor/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SurveyStatus } from './survey-status';

const survey = (extra: Partial<AdminSurvey>): AdminSurvey => ({
  gid: '00000000-0000-4000-8000-000000000001',
  name: 'Hidden Debts',
  state: 'closed',
  cover_image: null,
  variant: 'v1_medium',
  slot: 3,
  release_date: '2026-03-01T09:30:00.000Z',
  date_published: '2026-02-01T09:30:00.000Z',
  closed_at: '2026-04-01T09:30:00.000Z',
  closes_at: null,
  archived_at: null,
  sample: false,
  questions_count: 0,
  answers_count: 120,
  author: '',
  cover_headline: '',
  intro_screen_image: null,
  intro_screen_text: '',
  outro_screen_text: '',
  randomise_questions: false,
  genres: [],
  questions: [],
  shareable_link: 'https://candor.example/Hidden_Debts/x',
  ...extra,
});

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function show(s: AdminSurvey) {
  const router = createMemoryRouter(
    [
      { path: '/admin/surveys/:gid', element: <SurveyStatus survey={s} /> },
      { path: '/admin/surveys', element: <p>the list</p> },
    ],
    { initialEntries: [`/admin/surveys/${s.gid}`] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('SurveyStatus: deleting', () => {
  it('deletes a closed survey only once its exact name is typed, and sends that name', async () => {
    const router = show(survey({}));
    fireEvent.click(screen.getByRole('button', { name: 'Delete survey…' }));
    const confirm = screen.getByRole<HTMLButtonElement>('button', { name: 'Delete survey' });
    expect(screen.getByText(/Delete “Hidden Debts” and its answers\?/)).toBeTruthy();
    expect(screen.getByText(/archive it instead/)).toBeTruthy();
    expect(confirm.disabled).toBe(true);
    const field = screen.getByLabelText(/Type the survey’s name to confirm/);
    for (const wrong of ['hidden debts', 'Hidden', 'Hidden Debts!']) {
      fireEvent.input(field, { target: { value: wrong } });
      expect(confirm.disabled).toBe(true);
    }
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.input(field, { target: { value: 'Hidden Debts ' } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toMatch(/\/v1\/admin\/surveys\/00000000-0000-4000-8000-000000000001\/delete\/$/);
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ name: 'Hidden Debts ' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/surveys'));
  });

  it('deletes a draft with a plain confirmation', async () => {
    show(survey({ state: 'draft', closed_at: null, date_published: null }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete draft' }));
    expect(screen.queryByLabelText(/Type the survey’s name/)).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete draft' }).at(-1)!);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toMatch(/\/surveys\/00000000-0000-4000-8000-000000000001\/$/);
    expect(init.method).toBe('DELETE');
  });

  it('offers no delete while the survey is open', () => {
    show(survey({ state: 'open', closed_at: null }));
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
  });
});
