import {
  LEAVE_BLANK_CHOICE,
  type Question,
  type QuestionResults,
  type SurveyDetail,
} from '@candor/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APPROXIMATE } from '../../../components/results/question-graph';
import { DIRECT_GRAPHS_UP_TO } from '../../../components/results/report';
import { answeringQueries } from '../api/answers';
import type { Mine } from '../types';
import { ResultsScreen } from './results-screen';

// What the outbox still holds: the third question's answer waits on the device.
vi.mock('../api/outbox', () => ({
  waitingAnswers: () => Promise.resolve(new Set([`00000000-0000-4000-8000-000000000003`])),
}));

const question = (i: number): Question => ({
  qid: `00000000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`,
  question: `Question number ${i}?`,
  type: 'Closed',
  timer_length: '0:00:00',
  video_link_1: null,
  video_link_2: null,
  video_captions_1: null,
  video_captions_2: null,
  submitted: '2026-01-01T00:00:00Z',
  choices: ['Yes', 'No', LEAVE_BLANK_CHOICE],
  randomise_answers: false,
  max_length: null,
  rr_weight: null,
  twin_qid: null,
});

const resultsOf = (q: Question, margin: number): QuestionResults => ({
  qid: q.qid,
  type: 'Closed',
  rr_weight: null,
  honesty_gap: null,
  respondents: 400,
  blank: 20,
  margin,
  choices: [
    { choice: 'Yes', count: 240, percent: 60, margin, is_blank: false, sent: null },
    { choice: 'No', count: 140, percent: 35, margin, is_blank: false, sent: null },
    {
      choice: LEAVE_BLANK_CHOICE,
      count: 20,
      percent: 5,
      margin: 2,
      is_blank: true,
      sent: null,
    },
  ],
  dominated: false,
  breakdown: null,
  breakdown_unlocks: {
    gender: { group_minimum: 28, unlocks_at: 56 },
    age: { group_minimum: 28, unlocks_at: 56 },
    country: { group_minimum: 56, unlocks_at: 84 },
  },
  words: [],
  samples: [],
  updates: 3,
  next_update_after: 40,
  snapshot_at: '2026-01-01T00:00:00Z',
});

const survey = {
  gid: 'g1',
  name: 'Honest About Money',
  status: 'Open',
  shareable_link: 'https://candor.example/Honest_About_Money/g1',
} as unknown as SurveyDetail;

/** The end results of a survey of `count` questions, all answered "Yes" after the snapshot. */
function renderResults(count: number) {
  const questions = Array.from({ length: count }, (_, i) => question(i + 1));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // Each question's margin differs, so each graph's own interval can be told apart.
  questions.forEach((q, i) =>
    client.setQueryData(answeringQueries.results(q.qid).queryKey, resultsOf(q, 3 + i)),
  );
  const mine = new Map<string, Mine>(
    questions.map((q) => [q.qid, { answer: 'Yes', isBlank: false }]),
  );
  const answeredAt = Object.fromEntries(questions.map((q) => [q.qid, Date.parse('2026-01-02')]));
  render(
    <QueryClientProvider client={client}>
      <ResultsScreen
        survey={survey}
        questions={questions}
        mine={mine}
        member
        answeredAt={answeredAt}
        sentQids={new Set(questions.map((q) => q.qid))}
        outboxMoves={0}
        canSee={() => true}
        onNext={vi.fn()}
      />
    </QueryClientProvider>,
  );
  return questions;
}

const approximate = () => screen.queryAllByText((text) => text.startsWith(APPROXIMATE));
const steps = () => screen.queryAllByText(/^Results move in steps/);

describe('ResultsScreen', () => {
  // A desktop: no landscape advice over the graphs.
  beforeEach(() =>
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })),
  );
  afterEach(() => vi.unstubAllGlobals());

  it('before a first graph, says "Yours is in" only of answers this page saw taken', async () => {
    const questions = [1, 2, 3].map(question);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    for (const q of questions) {
      client.setQueryData(answeringQueries.results(q.qid).queryKey, {
        ...resultsOf(q, 3),
        respondents: null,
        blank: null,
        margin: null,
        choices: [],
        updates: 0,
        next_update_after: 20,
      });
    }
    render(
      <QueryClientProvider client={client}>
        <ResultsScreen
          survey={survey}
          questions={questions}
          mine={new Map(questions.map((q) => [q.qid, { answer: 'Yes', isBlank: false }]))}
          member
          // All three given on this page: the first taken, the second of an earlier visit or
          // dropped (nothing known), the third still in the outbox.
          answeredAt={Object.fromEntries(questions.map((q) => [q.qid, Date.now()]))}
          sentQids={new Set([questions[0]!.qid])}
          outboxMoves={0}
          canSee={() => true}
          onNext={vi.fn()}
        />
      </QueryClientProvider>,
    );
    const yours = (i: number) =>
      screen.getByRole('figure', { name: questions[i]!.question }).querySelector('.graph__yours')
        ?.textContent ?? null;
    await vi.waitFor(() => expect(yours(2)).not.toBeNull());
    expect([yours(0), yours(1), yours(2)]).toEqual([
      'Yours is in.',
      null,
      'Yours is kept on this device and is sent as soon as it can be.',
    ]);
    expect(screen.getAllByText(/^No graph yet\. The first one appears once about 20/)).toHaveLength(
      3,
    );
  });

  it('is headed by the survey’s name and says what the numbers mean once', () => {
    renderResults(DIRECT_GRAPHS_UP_TO);
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([
      'Honest About Money',
    ]);
    expect(approximate()).toHaveLength(1);
    expect(steps()).toHaveLength(1);
    expect(steps()[0]!.textContent).toContain('within about 40 more answers');
  });

  it(`shows up to ${DIRECT_GRAPHS_UP_TO} graphs at once, each with its own margin and share`, () => {
    const questions = renderResults(DIRECT_GRAPHS_UP_TO);
    expect(screen.queryAllByRole('button', { expanded: false })).toHaveLength(0);
    questions.forEach((q, i) => {
      const graph = screen.getByRole('figure', { name: q.question });
      expect(
        within(graph).getByText(`Each share is within ±${3 + i} points of the true one`, {
          exact: false,
        }),
      ).toBeTruthy();
    });
    expect(screen.getAllByRole('button', { name: /^Share this result/ })).toHaveLength(
      questions.length,
    );
  });

  it('lists a longer survey as rows whose graph opens in place', () => {
    const questions = renderResults(DIRECT_GRAPHS_UP_TO + 1);
    expect(screen.queryAllByRole('figure')).toHaveLength(0);
    const rows = screen.getAllByRole('button', { expanded: false });
    expect(rows).toHaveLength(questions.length);
    // The row: its question, the person's answer and everyone's headline.
    const second = rows[1]!;
    expect(second.textContent).toContain('Question number 2?');
    expect(second.textContent).toContain('Your answer Yes');
    expect(second.textContent).toContain('You side with 60%, the largest group.');
    expect(second.closest('h2')).not.toBeNull();

    fireEvent.click(second);
    expect(second.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(second.getAttribute('aria-controls')!)!;
    expect(panel.hidden).toBe(false);
    const graph = within(panel).getByRole('figure', { name: 'Question number 2?' });
    // No second title: the row's question names the graph.
    expect(within(graph).queryByRole('heading', { name: 'Question number 2?' })).toBeNull();
    expect(within(graph).getByText(/Each share is within ±4 points of the true one/)).toBeTruthy();
    expect(within(panel).getByRole('button', { name: /^Share this result/ })).toBeTruthy();
    // Opening a graph repeats none of the page's notes.
    expect(approximate()).toHaveLength(1);
    expect(steps()).toHaveLength(1);

    fireEvent.click(second);
    expect(second.getAttribute('aria-expanded')).toBe('false');
    expect(panel.hidden).toBe(true);
    expect(screen.queryAllByRole('figure')).toHaveLength(0);
  });
});
