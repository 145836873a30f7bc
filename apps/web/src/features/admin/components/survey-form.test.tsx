import type { AdminGenreList, AdminSurvey, SurveyInput } from '@candor/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { fromLocalInput } from '../lib/authoring';
import { SurveyForm } from './survey-form';

const genres: AdminGenreList = {
  results: [
    { unique_GID: '00000000-0000-4000-8000-0000000000a1', genre_name: 'Money', surveys_count: 1 },
    { unique_GID: '00000000-0000-4000-8000-0000000000b2', genre_name: 'Sleep', surveys_count: 0 },
  ],
};

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify(genres), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
      ),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

function show(onSave: (input: SurveyInput) => Promise<AdminSurvey>) {
  const onError = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <SurveyForm survey={null} saveLabel="Create draft" onSave={onSave} onError={onError} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { onError };
}

describe('SurveyForm', () => {
  it('sends the release date with its offset, the variant, the genres and no slot', async () => {
    const onSave = vi.fn((input: SurveyInput) =>
      Promise.resolve({ ...input, gid: 'x', genres: [] } as unknown as AdminSurvey),
    );
    show(onSave);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Night Owls' } });
    fireEvent.change(screen.getByLabelText('Release date'), {
      target: { value: '2026-03-01T09:30' },
    });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Sleep' }));
    fireEvent.click(screen.getByRole('radio', { name: /v2 · Feedback at the end/ }));
    fireEvent.click(screen.getByRole('radio', { name: 'Small' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create draft' }));

    await waitFor(() => expect(onSave).toHaveBeenCalled());
    const input = onSave.mock.calls[0]![0];
    expect(input).toMatchObject({
      name: 'Night Owls',
      release_date: fromLocalInput('2026-03-01T09:30'),
      variant: 'v2_small',
      genres: ['00000000-0000-4000-8000-0000000000b2'],
      cover_image: null,
    });
    expect('slot' in input).toBe(false);
  });

  it("shows the API's field errors under their fields, and the rest as messages", async () => {
    const onSave = vi.fn(() =>
      Promise.reject(
        new ApiError(400, 'VALIDATION_FAILED', 'x', {
          cover_headline: ['The headline can be at most 160 characters.'],
          non_field_errors: ['Something else.'],
        }),
      ),
    );
    const { onError } = show(onSave);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Night Owls' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create draft' }));
    expect(await screen.findByText('The headline can be at most 160 characters.')).toBeTruthy();
    expect(screen.getByLabelText('Cover headline').getAttribute('aria-invalid')).toBe('true');
    expect(onError).toHaveBeenCalledWith(['Something else.']);
    // Typing in the field takes its error away.
    fireEvent.change(screen.getByLabelText('Cover headline'), { target: { value: 'Short' } });
    expect(screen.queryByText('The headline can be at most 160 characters.')).toBeNull();
  });

  it('asks for a release date before sending anything', async () => {
    const onSave = vi.fn();
    show(onSave);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Night Owls' } });
    fireEvent.change(screen.getByLabelText('Release date'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create draft' }));
    expect(await screen.findByText('Pick a release date and time.')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });
});
