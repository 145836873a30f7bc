import type { AdminQuestion } from '@candor/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isHostedVideo } from '@candor/contracts';
import { QuestionForm } from './question-form';
import { leave, pick } from '../../../../test/events';

const gid = '00000000-0000-4000-8000-0000000000aa';
const saved: AdminQuestion = {
  qid: '00000000-0000-4000-8000-000000000001',
  position: 1,
  type: 'Closed',
  question: 'Would you?',
  choices: ['Yes', 'No'],
  randomise_answers: true,
  timer_seconds: 0,
  video_link_1: null,
  video_link_2: null,
  video_captions_1: null,
  video_captions_2: null,
  max_length: null,
  rr_weight: null,
  twin_qid: null,
  answers_count: 3,
  locked: false,
  locked_choices: [],
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function show(question: AdminQuestion | null, others: AdminQuestion[] = []) {
  const onDone = vi.fn();
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <QuestionForm gid={gid} question={question} number={1} others={others} onDone={onDone} />
    </QueryClientProvider>,
  );
  return { onDone };
}

const field = (name: string | RegExp) => screen.getByRole<HTMLInputElement>('textbox', { name });

describe('QuestionForm', () => {
  it('offers a randomized question a pair among the ordinary closed questions, and sends it', async () => {
    const direct = { ...saved, qid: '00000000-0000-4000-8000-000000000002', position: 2 };
    const open = {
      ...saved,
      qid: '00000000-0000-4000-8000-000000000003',
      position: 3,
      type: 'Open' as const,
      choices: [],
    };
    const randomized = {
      ...saved,
      qid: '00000000-0000-4000-8000-000000000004',
      position: 4,
      rr_weight: 9,
    };
    // Question 5 is asked again by question 6 already: not offered.
    const taken = { ...saved, qid: '00000000-0000-4000-8000-000000000005', position: 5 };
    const takenBy = {
      ...saved,
      qid: '00000000-0000-4000-8000-000000000006',
      position: 6,
      rr_weight: 3,
      twin_qid: taken.qid,
    };
    fetchMock.mockResolvedValue(json(200, {}));
    show(saved, [direct, open, randomized, taken, takenBy]);
    const pairLabel = /Also ask it directly/;
    // Only a randomized question asks another again.
    expect(screen.queryByRole('combobox', { name: pairLabel })).toBeNull();
    pick(screen.getByRole('combobox', { name: 'Randomized response' }), {
      target: { value: '9' },
    });
    const pair = await screen.findByRole<HTMLSelectElement>('combobox', { name: pairLabel });
    expect([...pair.options].map((o) => o.text)).toEqual([
      'No: ask it this way only',
      'Question 2: Would you?',
    ]);
    pick(pair, { target: { value: direct.qid } });
    fireEvent.click(screen.getByRole('button', { name: 'Save question' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toMatchObject({ rr_weight: 9, twin_qid: direct.qid });
  });

  it('says a published pair instead of offering it', () => {
    const direct = {
      ...saved,
      qid: '00000000-0000-4000-8000-000000000002',
      position: 2,
      locked: true,
    };
    show(
      { ...saved, rr_weight: 3, twin_qid: direct.qid, locked: true, locked_choices: ['Yes', 'No'] },
      [direct],
    );
    expect(
      screen.getByText(/Paired with question 2: each person is asked one of the two/),
    ).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: /Also ask it directly/ })).toBeNull();
  });

  it('shows the refusal when a choice has answers, and keeps what the admin typed', async () => {
    fetchMock.mockResolvedValue(
      json(409, {
        detail: '“No” has answers: it can be moved, not removed or renamed.',
        code: 'ANSWERS_EXIST',
      }),
    );
    const { onDone } = show(saved);
    fireEvent.change(field('Choice 2'), { target: { value: 'Nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save question' }));

    const alert = await screen.findByText(/“No” has answers/);
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(field('Choice 2').value).toBe('Nope');
    expect(onDone).not.toHaveBeenCalled();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(`/api/v1/admin/questions/${saved.qid}/`);
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toMatchObject({ choices: ['Yes', 'Nope'] });
  });

  it('asks before adding a choice to a published question, and saves only on yes', async () => {
    fetchMock.mockResolvedValue(json(200, { gid, questions: [] }));
    const published = {
      ...saved,
      answers_count: 1240,
      locked: true,
      locked_choices: ['Yes', 'No'],
    };
    const { onDone } = show(published);
    fireEvent.click(screen.getByRole('button', { name: 'Add a choice' }));
    fireEvent.change(field('Choice 3'), { target: { value: 'Maybe' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save question' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a choice to a live question?' });
    expect(dialog.textContent).toContain('About 1,240 people answered question 1 without “Maybe”');
    expect(fetchMock).not.toHaveBeenCalled();
    // Keep editing: nothing is sent, and the new choice is still in the form.
    fireEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(field('Choice 3').value).toBe('Maybe');
    fireEvent.click(screen.getByRole('button', { name: 'Save question' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add it' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toMatchObject({ choices: ['Yes', 'No', 'Maybe'] });
  });

  it('saves a published question without asking when no choice is new', async () => {
    fetchMock.mockResolvedValue(json(200, { gid, questions: [] }));
    const published = { ...saved, locked: true, locked_choices: ['Yes', 'No'] };
    const { onDone } = show(published);
    fireEvent.change(field('Question'), { target: { value: 'Would you, really?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save question' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('puts the API field errors under their fields', async () => {
    fetchMock.mockResolvedValue(json(400, { question: ['Write the question.'] }));
    show(saved);
    fireEvent.click(screen.getByRole('button', { name: 'Save question' }));
    expect(await screen.findByText('Write the question.')).toBeTruthy();
    expect(field('Question').getAttribute('aria-invalid')).toBe('true');
  });

  it('checks a video link as soon as the field is left, and again on each change', async () => {
    show(null);
    const link = field(/^Video link/);
    fireEvent.change(link, { target: { value: 'http://example.com/clip.mp4' } });
    leave(link);
    expect(await screen.findByText('Video links must start with https://.')).toBeTruthy();
    fireEvent.change(link, { target: { value: 'https://youtu.be/dQw4w9WgXcQ' } });
    await waitFor(() =>
      expect(screen.queryByText('Video links must start with https://.')).toBeNull(),
    );
  });

  it('checks the whole question against the contract before sending it', async () => {
    show(null);
    fireEvent.change(field('Question'), { target: { value: 'Cats or dogs?' } });
    fireEvent.change(field('Choice 1'), { target: { value: 'Cats' } });
    fireEvent.change(field('Choice 2'), { target: { value: 'cats' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add question' }));
    expect(await screen.findByText('“cats” is listed twice.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    // Fixing the choices takes the stale message away.
    fireEvent.change(field('Choice 2'), { target: { value: 'Dogs' } });
    expect(screen.queryByText('“cats” is listed twice.')).toBeNull();
  });

  it('says an empty choice once, under its own box, and not again as a repeat', async () => {
    show(null);
    fireEvent.change(field('Question'), { target: { value: 'Cats or dogs?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add question' }));
    expect(await screen.findAllByText('Choices cannot be empty.')).toHaveLength(2);
    expect(field('Choice 1').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText(/is listed twice/)).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('adds a new question and closes', async () => {
    fetchMock.mockResolvedValue(json(201, { gid, questions: [] }));
    const { onDone } = show(null);
    fireEvent.change(field('Question'), { target: { value: 'Cats or dogs?' } });
    fireEvent.change(field('Choice 1'), { target: { value: 'Cats' } });
    fireEvent.change(field('Choice 2'), { target: { value: 'Dogs' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add question' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(`/api/v1/admin/surveys/${gid}/questions/`);
    expect(JSON.parse(String(init.body))).toMatchObject({
      type: 'Closed',
      question: 'Cats or dogs?',
      choices: ['Cats', 'Dogs'],
    });
  });

  it('tells the default and the most of an open answer', () => {
    show(null);
    fireEvent.click(screen.getByRole('radio', { name: 'Written answer' }));
    expect(screen.getByText('Leave blank for 280. At most 2,000.')).toBeTruthy();
  });

  it('refuses captions for a YouTube or Vimeo video at once, not for a video file', async () => {
    show(null);
    const message =
      'Captions work with direct video files only; YouTube and Vimeo carry their own.';
    fireEvent.change(field(/^Video link/), {
      target: { value: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
    });
    fireEvent.change(field('Captions'), {
      target: { value: 'https://example.com/captions.vtt' },
    });
    expect(await screen.findByText(message)).toBeTruthy();
    expect(field('Captions').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Add question' }));
    await waitFor(() => expect(field('Captions').getAttribute('aria-invalid')).toBe('true'));
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(field(/^Video link/), { target: { value: 'https://example.com/clip.mp4' } });
    await waitFor(() => expect(screen.queryByText(message)).toBeNull());
  });
});

describe('isHostedVideo', () => {
  it('knows YouTube and Vimeo by their hosts', () => {
    for (const link of [
      'https://youtu.be/dQw4w9WgXcQ',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      'https://vimeo.com/76979871',
      'https://player.vimeo.com/video/76979871',
    ]) {
      expect(isHostedVideo(link)).toBe(true);
    }
    for (const link of [
      'https://example.com/clip.mp4',
      '/sample/a.mp4',
      'https://notyoutube.com/x',
      '',
    ]) {
      expect(isHostedVideo(link)).toBe(false);
    }
  });
});
