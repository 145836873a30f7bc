import { LEAVE_BLANK_CHOICE, type Question, type QuestionResults } from '@candor/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../../lib/api-client';
import {
  APPROXIMATE,
  type BreakdownQuery,
  FEWER_THAN_TEN,
  HIDDEN_GROUP,
  HIDDEN_SHARE,
  headlineOf,
  QuestionGraph,
} from './question-graph';

const qid = '00000000-0000-4000-8000-000000000001';
const closed: Question = {
  qid,
  question: 'Would you look?',
  type: 'Closed',
  timer_length: '0:00:00',
  video_link_1: null,
  video_link_2: null,
  video_captions_1: null,
  video_captions_2: null,
  submitted: '2026-01-01T00:00:00Z',
  choices: ['Yes', 'No', 'Maybe', LEAVE_BLANK_CHOICE],
  randomise_answers: false,
  max_length: null,
};
const open: Question = { ...closed, type: 'Open', choices: [], max_length: 200 };

const results: QuestionResults = {
  qid,
  type: 'Closed',
  respondents: 60,
  blank: 6,
  choices: [
    { choice: 'Yes', count: 36, percent: 60, margin: null, is_blank: false },
    { choice: 'No', count: null, percent: null, margin: null, is_blank: false },
    { choice: 'Maybe', count: null, percent: null, margin: null, is_blank: false },
    { choice: LEAVE_BLANK_CHOICE, count: 6, percent: 10, margin: null, is_blank: true },
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
  updates: 1,
  snapshot_at: '2026-01-01T00:00:00Z',
};

const breakdownQuery: BreakdownQuery = (dimension) => ({
  queryKey: ['test', dimension],
  queryFn: ({ signal }) =>
    apiRequest<QuestionResults>(`/v1/questions/${qid}/results/?breakdown=${dimension}`, {
      signal,
    }),
});

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

afterEach(() => vi.unstubAllGlobals());

describe('QuestionGraph', () => {
  it('says why there is no chart while fewer than 10 people are counted', () => {
    render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={{ ...results, respondents: null, blank: null, choices: [] }}
          mine="Yes"
          mineState="next-update"
        />,
      ),
    );
    expect(screen.getByText(FEWER_THAN_TEN)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    // The breakdowns to come are there, greyed, each saying from how many answers it opens.
    const switcher = screen.getByRole('group', { name: 'Show answers by' });
    for (const [name, at] of [
      ['Gender', 56],
      ['Age', 56],
      ['Country', 84],
    ] as const) {
      const tab = within(switcher).getByRole('button', {
        name: `${name} unlocks at ${at} answers`,
      });
      expect(tab.getAttribute('aria-disabled')).toBe('true');
    }
    expect(screen.getByText(/yours joins at the next update/)).toBeTruthy();
  });

  it('greys a breakdown without enough answers, says why, and does not open it', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={results}
          mine="Yes"
        />,
      ),
    );
    const switcher = screen.getByRole('group', { name: 'Show answers by' });
    // 60 answers: two genders' or age bands' worth (56), not a country and the rest (84).
    const gender = within(switcher).getByRole('button', { name: 'Gender' });
    expect(gender.hasAttribute('aria-disabled')).toBe(false);
    const country = within(switcher).getByRole('button', {
      name: 'Country unlocks at 84 answers',
    });
    expect(country.getAttribute('aria-disabled')).toBe('true');
    expect(country.getAttribute('aria-pressed')).toBe('false');
    const reason = document.getElementById(country.getAttribute('aria-describedby')!)!;
    expect(reason.textContent).toBe(
      'A breakdown compares groups, and a group is shown only once it has about 28 answers (a country about 56), so that nobody in a small group can be picked out.',
    );
    // Focusable, announced, but it opens nothing.
    country.focus();
    expect(document.activeElement).toBe(country);
    fireEvent.click(country);
    expect(country.getAttribute('aria-pressed')).toBe('false');
    expect(within(switcher).getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says on screen, in words, that the numbers are approximate and what hidden means', () => {
    render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={{
            ...results,
            choices: results.choices.map((c) => (c.percent === null ? c : { ...c, margin: 2.6 })),
          }}
          mine="Yes"
          variant="compact"
        />,
      ),
    );
    const caption = screen.getByRole('figure').querySelector('figcaption')!;
    expect(within(caption).getByText(new RegExp(`^${APPROXIMATE}`)).textContent).toBe(
      `${APPROXIMATE} Each share is within ±3 points of the true one, 95 times in 100.`,
    );
    // Two shares of this graph are hidden: the note says what that means.
    expect(within(caption).getByText(HIDDEN_SHARE)).toBeTruthy();
    // Visible, not only to screen readers.
    expect(caption.closest('.visually-hidden')).toBeNull();
  });

  it('names hidden cells as hidden (never 0%) and marks the own answer in words', () => {
    render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={results}
          mine="No"
        />,
      ),
    );
    const table = screen.getByRole('table');
    expect(within(table).getByText('Answers of 54 people, left blank not included')).toBeTruthy();
    const mine = within(table).getByRole('rowheader', { name: 'No (your answer)' });
    const cells = within(mine.closest('tr')!).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['hidden', 'hidden: too few to show safely']);
    const shares = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell')[0]!.textContent);
    expect(shares).toEqual(['60%', 'hidden', 'hidden']);
    expect(within(table).getAllByRole('row')).toHaveLength(4); // header + 3 answers, blank apart
    expect(screen.getByText(/n = 60 people, verified · 6 left it blank/)).toBeTruthy();
  });

  it('draws the list variant with CSS bars (no chart), the own answer said to join later', () => {
    const { container } = render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={results}
          mine="Yes"
          variant="compact"
          mineState="next-update"
        />,
      ),
    );
    const rows = [...container.querySelectorAll('.chart--bars .bars__row')];
    expect(rows.map((r) => r.textContent)).toEqual([
      'Yes · yours joins at the next update60%',
      'Nohidden',
      'Maybehidden',
    ]);
    expect(rows[0]!.classList.contains('bars__row--mine')).toBe(true);
    expect(rows[0]!.querySelector<HTMLElement>('.bars__fill')?.style.width).toBe('60%');
    // A hidden share has no bar at all, not an empty one that reads as 0%.
    expect(rows[1]!.querySelector('.bars__fill')).toBeNull();
    expect(container.querySelector('.chart--loading')).toBeNull();
    const table = screen.getByRole('table');
    expect(
      within(table).getByRole('rowheader', { name: 'Yes (your answer, joins at the next update)' }),
    ).toBeTruthy();
  });

  it("says a visitor's answer is not in the numbers yet", () => {
    render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={results}
          mine="Yes"
          variant="compact"
          mineState="not-counted"
        />,
      ),
    );
    expect(screen.getByText('· yours is not in this yet')).toBeTruthy();
    expect(
      within(screen.getByRole('table')).getByRole('rowheader', {
        name: 'Yes (your answer, not in this yet)',
      }),
    ).toBeTruthy();
  });

  it('switches to a breakdown by gender, fetched on demand, with hidden groups said so', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(
        Response.json({
          ...results,
          breakdown: {
            dimension: 'gender',
            groups: [
              {
                key: 'female',
                suppressed: false,
                respondents: 24,
                blank: null,
                choices: [
                  { choice: 'Yes', count: 14, percent: 58.3, margin: null, is_blank: false },
                  { choice: 'No', count: null, percent: null, margin: null, is_blank: false },
                  { choice: 'Maybe', count: null, percent: null, margin: null, is_blank: false },
                  {
                    choice: LEAVE_BLANK_CHOICE,
                    count: null,
                    percent: null,
                    margin: null,
                    is_blank: true,
                  },
                ],
              },
              {
                key: 'male',
                suppressed: false,
                respondents: 21,
                blank: null,
                choices: results.choices.map((c) => ({
                  ...c,
                  count: null,
                  percent: null,
                  margin: null,
                })),
              },
              { key: 'non_binary', suppressed: true, respondents: null, blank: null, choices: [] },
              {
                key: 'other',
                suppressed: false,
                respondents: 0,
                blank: 0,
                choices: results.choices.map((c) => ({ ...c, count: 0, percent: 0, margin: null })),
              },
            ],
          },
        }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={results}
          mine="Yes"
        />,
      ),
    );
    const switcher = screen.getByRole('group', { name: 'Show answers by' });
    const all = within(switcher).getByRole('button', { name: 'All' });
    const gender = within(switcher).getByRole('button', { name: 'Gender' });
    expect(all.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(gender);
    expect(gender.getAttribute('aria-pressed')).toBe('true');
    expect(all.getAttribute('aria-pressed')).toBe('false');
    const women = (await screen.findByText('Women')).closest('li')!;
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/v1/questions/${qid}/results/?breakdown=gender`,
      expect.anything(),
    );
    expect(within(women).getByText('· n = 24')).toBeTruthy();
    expect(within(women).getByText('58%')).toBeTruthy();
    expect(within(women).getAllByText('hidden')).toHaveLength(2);
    expect(within(women).getByText('· your answer')).toBeTruthy();
    expect(within(women).getByText('Left blank: hidden')).toBeTruthy();
    const nb = screen.getByText('Non-binary').closest('li')!;
    expect(
      within(nb).getByText(`${HIDDEN_GROUP}: too few answers in this group to show it safely`),
    ).toBeTruthy();
    const men = screen.getByText('Men').closest('li')!;
    expect(within(men).getByText('Every share hidden to protect privacy')).toBeTruthy();
    expect(within(men).queryByText('hidden')).toBeNull();
    const other = screen.getByText('Another gender').closest('li')!;
    expect(within(other).getByText('No answers from this group yet')).toBeTruthy();
    expect(within(other).queryByText('0%')).toBeNull();
  });

  it('shows the common words and quoted samples of an open question, or a note', () => {
    const openResults: QuestionResults = {
      ...results,
      type: 'Open',
      respondents: 40,
      blank: 4,
      choices: [],
      words: [{ word: 'family', count: 12 }],
      samples: ['It depends on who asks.'],
    };
    const { rerender } = render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={open}
          results={openResults}
          mine="My own words"
        />,
      ),
    );
    expect(screen.getByText('36 people')).toBeTruthy();
    expect(screen.getByText('family').textContent).toBe('family 12');
    expect(screen.getByText('It depends on who asks.').tagName).toBe('Q');
    rerender(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={open}
          results={{ ...openResults, words: [], samples: [] }}
          mine="My own words"
        />,
      ),
    );
    expect(screen.getByText(/No common words or approved answers to show yet/)).toBeTruthy();
  });
});

describe('headlineOf', () => {
  const row = (label: string, percent: number | null, mine = false, margin: number | null = 3) => ({
    label,
    percent,
    margin,
    mine,
  });

  it('says where the person stands from the shares shown', () => {
    expect(headlineOf([row('Yes', 45, true), row('No', 30), row('Maybe', 15)])).toBe(
      'You’re with 45%, the largest group.',
    );
    expect(headlineOf([row('Yes', 70), row('No', 8, true), row('Maybe', 12)])).toBe(
      'A small minority chose this: 8%, like you.',
    );
    expect(headlineOf([row('Yes', 50), row('No', 30, true)])).toBe(
      'You’re with 30%; more people chose “Yes” (50%).',
    );
    // Not counted yet: the person sides with a share they are not part of.
    expect(headlineOf([row('Yes', 45, true), row('No', 30)], 'not-counted')).toBe(
      'You side with 45%, the largest group.',
    );
  });

  it('calls two shares within their margin level instead of ranking them', () => {
    expect(headlineOf([row('Yes', 41, true), row('No', 39)])).toBe(
      'You’re with 41%: neck and neck with “No”.',
    );
    expect(headlineOf([row('Yes', 41), row('No', 39)])).toBe(
      '“Yes” and “No” are neck and neck (41%, 39%).',
    );
  });

  it('never leans on a hidden share, and is never empty because one is hidden', () => {
    // The person's own share is hidden: the sentence is about what is shown.
    expect(headlineOf([row('Yes', 60), row('No', null, true), row('Maybe', null)])).toBe(
      'Most people chose “Yes” (60%).',
    );
    expect(headlineOf([row('Yes', 40), row('No', 20), row('Maybe', null)])).toBe(
      '“Yes” leads with 40%.',
    );
    expect(headlineOf([row('Yes', null), row('No', null)])).toBeNull();
  });

  it('shows the sentence over the graph', () => {
    render(
      wrap(
        <QuestionGraph
          question={closed}
          results={results}
          mine="Yes"
          breakdownQuery={breakdownQuery}
        />,
      ),
    );
    expect(screen.getByText('You’re with 60%, the largest group.')).toBeTruthy();
  });
});
