import type { AdminGenreList, AdminSurvey, SurveyInput } from '@candor/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../lib/api-client';
import { fromLocalInput } from '../../lib/authoring';
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

const MONEY = '00000000-0000-4000-8000-0000000000a1';
const GONE = '00000000-0000-4000-8000-0000000000c3';

/** A saved survey in slot 3, with a genre that is still listed and one deleted meanwhile. */
const saved: AdminSurvey = {
  gid: '00000000-0000-4000-8000-000000000001',
  name: 'Night Owls',
  state: 'open',
  cover_image: null,
  variant: 'v1_medium',
  slot: 3,
  release_date: '2026-03-01T09:30:00.000Z',
  date_published: '2026-02-01T09:30:00.000Z',
  closed_at: null,
  closes_at: null,
  archived_at: null,
  sample: false,
  questions_count: 0,
  answers_count: 0,
  author: '',
  cover_headline: '',
  intro_screen_image: null,
  intro_screen_text: '',
  outro_screen_text: '',
  randomise_questions: false,
  genres: [
    { unique_GID: MONEY, genre_name: 'Money' },
    { unique_GID: GONE, genre_name: 'Gone' },
  ],
  questions: [],
  shareable_link: 'https://candor.example/Night_Owls/x',
};

function show(
  onSave: (input: SurveyInput) => Promise<AdminSurvey>,
  survey: AdminSurvey | null = null,
) {
  const onError = vi.fn();
  const client = new QueryClient();
  const form = (s: AdminSurvey | null) => (
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <SurveyForm
          survey={s}
          saveLabel={s ? 'Save changes' : 'Create draft'}
          onSave={onSave}
          onError={onError}
        />
      </MemoryRouter>
    </QueryClientProvider>
  );
  const { rerender } = render(form(survey));
  return { onError, rerender: (s: AdminSurvey | null) => rerender(form(s)) };
}

const echo = () =>
  vi.fn((input: SurveyInput) =>
    Promise.resolve({ ...saved, ...input, genres: [] } as unknown as AdminSurvey),
  );
const slotInput = () => screen.getByRole<HTMLInputElement>('spinbutton', { name: 'Slot' });

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

  it('sends a scheduled close with its offset, none when blank, and refuses one before the release', async () => {
    const onSave = echo();
    show(onSave, saved);
    await screen.findByRole('checkbox', { name: 'Money' });
    const closes = screen.getByLabelText('Closes (optional)');
    fireEvent.change(closes, { target: { value: '2026-02-01T09:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    // Before the release date (1 March): said under the field, nothing sent.
    expect(await screen.findByText('Close it after its release date.')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();

    fireEvent.change(closes, { target: { value: '2026-04-01T18:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toMatchObject({
      closes_at: fromLocalInput('2026-04-01T18:00'),
    });

    fireEvent.change(screen.getByLabelText('Closes (optional)'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(2));
    expect(onSave.mock.calls[1]![0]).toMatchObject({ closes_at: null });
  });

  it('leaves the slot out of an edit unless the admin changed it', async () => {
    const onSave = echo();
    show(onSave, saved);
    await screen.findByRole('checkbox', { name: 'Money' });
    fireEvent.change(screen.getByLabelText('Author'), { target: { value: 'Ana' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toMatchObject({ author: 'Ana' });
    expect('slot' in onSave.mock.calls[0]![0]).toBe(false);

    fireEvent.change(slotInput(), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(2));
    expect(onSave.mock.calls[1]![0]).toMatchObject({ slot: 5 });
  });

  it('starts afresh from a newer copy of the survey while it holds no changes', async () => {
    const onSave = echo();
    const { rerender } = show(onSave, saved);
    expect(slotInput().value).toBe('3');
    // The Surveys tab moved the brick to the top; the refetched survey arrives.
    rerender({ ...saved, slot: 1 });
    await waitFor(() => expect(slotInput().value).toBe('1'));
    fireEvent.change(screen.getByLabelText('Author'), { target: { value: 'Ana' } });
    // A copy arriving while there are changes does not undo them.
    rerender({ ...saved, slot: 2, author: 'Someone else' });
    expect(screen.getByLabelText<HTMLInputElement>('Author').value).toBe('Ana');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    expect('slot' in onSave.mock.calls[0]![0]).toBe(false);
  });

  it('drops genres that are no longer in the list (deleted meanwhile)', async () => {
    const onSave = echo();
    show(onSave, saved);
    expect((await screen.findByRole<HTMLInputElement>('checkbox', { name: 'Money' })).checked).toBe(
      true,
    );
    expect(screen.queryByRole('checkbox', { name: 'Gone' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    expect(onSave.mock.calls[0]![0].genres).toEqual([MONEY]);
  });
});
