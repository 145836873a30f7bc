import type { SurveyDetail } from '@candor/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/preact';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type PreviewScreens, SurveyPreview } from './survey-preview';
import { pick } from '../../../../test/events';

const gid = '00000000-0000-4000-8000-0000000000aa';
const question = (n: number) => ({
  qid: `00000000-0000-4000-8000-00000000000${n}`,
  question: `Question text ${n}`,
  type: 'Closed' as const,
  timer_length: '0:00:00',
  video_link_1: null,
  video_link_2: null,
  video_captions_1: null,
  video_captions_2: null,
  submitted: '2026-01-01T00:00:00Z',
  choices: ['Yes', 'No', 'Leave blank'],
  randomise_answers: false,
  max_length: null,
  rr_weight: null,
  twin_qid: null,
});
const survey: SurveyDetail = {
  gid,
  name: 'Night Owls',
  cover_image: null,
  cover_headline: 'Who sleeps?',
  questions_count: 2,
  status: 'Open',
  release_date: '2026-01-01T00:00:00Z',
  slot: 1,
  date_published: null,
  is_within_24_hours: false,
  closed_at: null,
  closes_at: null,
  archived: false,
  variant: 'v2_small',
  genres: [],
  author: 'Ana',
  intro_screen_image: null,
  intro_screen_text: 'Hello',
  instructions: '2 questions',
  outro_screen_text: 'Goodbye, night owl.',
  questions: [question(1), question(2)],
  shareable_link: `https://candor.example/Night_Owls/${gid}`,
  visitor_questions: 3,
  randomise_questions: false,
};

// Stand-ins for the respondents' screens: the flow around them is what is tested here.
const screens: PreviewScreens = {
  brick: (s, open) => (
    <button type="button" onClick={open}>
      Brick of {s.name}
    </button>
  ),
  intro: (s, start) => (
    <button type="button" onClick={start}>
      Start {s.name}
    </button>
  ),
  question: ({ question: q, number, total, onAnswer }) => (
    <div>
      <p>
        {number} of {total}: {q.question}
      </p>
      <button type="button" onClick={() => onAnswer('Yes')}>
        Yes
      </button>
    </div>
  ),
};

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(() =>
    Promise.resolve(
      new Response(JSON.stringify(survey), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
  // jsdom has no scrolling; each screen starts at the top in a browser.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => vi.unstubAllGlobals());

describe('SurveyPreview', () => {
  it('walks brick, intro, questions and outro, and sends nothing but the preview read', async () => {
    const storage = vi.spyOn(Storage.prototype, 'setItem');
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <SurveyPreview gid={gid} screens={screens} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Preview: answers are not recorded.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Brick of Night Owls' }));
    fireEvent.click(screen.getByRole('button', { name: 'Start Night Owls' }));
    expect(screen.getByText('1 of 2: Question text 1')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(screen.getByRole('heading', { name: 'You picked “Yes”' })).toBeTruthy();
    // v2: the graphs come at the end.
    expect(screen.getByText(/graphs come together after the last question/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next: question 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    fireEvent.click(screen.getByRole('button', { name: 'Go to the end' }));
    expect(screen.getByText('Goodbye, night owl.')).toBeTruthy();

    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe(`/api/v1/admin/surveys/${gid}/preview/`);
    expect(storage).not.toHaveBeenCalled();
  });

  it('jumps to any screen from the banner', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <SurveyPreview gid={gid} screens={screens} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const jump = await screen.findByRole('combobox', { name: 'Go to a screen' });
    pick(jump, { target: { value: 'q1' } });
    expect(screen.getByText('2 of 2: Question text 2')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the editor' }).getAttribute('href')).toBe(
      `/admin/surveys/${gid}`,
    );
  });
});
