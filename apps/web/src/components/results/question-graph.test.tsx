import { LEAVE_BLANK_CHOICE, type Question, type QuestionResults } from '@candor/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../../lib/api-client';
import {
  APPROXIMATE,
  MARGIN_MEANS,
  type BreakdownQuery,
  HIDDEN_GROUP,
  GROUP_MARGINS,
  HIDDEN_SHARE,
  headlineOf,
  QuestionGraph,
  ROUNDED,
  UNDER_NOISE,
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
  rr_weight: null,
  twin_qid: null,
};
const open: Question = { ...closed, type: 'Open', choices: [], max_length: 200 };

const results: QuestionResults = {
  qid,
  type: 'Closed',
  rr_weight: null,
  honesty_gap: null,
  respondents: 60,
  blank: 6,
  margin: null,
  choices: [
    { choice: 'Yes', count: 36, percent: 60, margin: null, is_blank: false, sent: null },
    { choice: 'No', count: null, percent: null, margin: null, is_blank: false, sent: null },
    { choice: 'Maybe', count: null, percent: null, margin: null, is_blank: false, sent: null },
    {
      choice: LEAVE_BLANK_CHOICE,
      count: 6,
      percent: 10,
      margin: null,
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
  updates: 1,
  next_update_after: 40,
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
  it('says a randomized-response question’s shares are estimates, with its die, on every view', () => {
    const randomized = { ...closed, rr_weight: 9 };
    const { unmount } = render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={randomized}
          results={{
            ...results,
            rr_weight: 9,
            choices: results.choices.map((c) => ({
              ...c,
              margin: 6,
              sent: { count: c.count, percent: c.percent, margin: 4 },
            })),
          }}
          mine="Yes"
        />,
      ),
    );
    const choicesCount = closed.choices.filter((c) => c !== LEAVE_BLANK_CHOICE).length;
    // Each answer's estimate with its range ("estimated 23% (15-31%)" in issue 29's words).
    // "Yes" is 60% with a margin of 6: 54 to 66.
    expect(screen.getAllByText('estimated 54–66%', { exact: false }).length).toBeGreaterThan(0);
    const note = `Estimated: each phone sent its person’s answer 9 times in ${8 + choicesCount} and otherwise another one at random`;
    expect(screen.getByText(note, { exact: false })).toBeTruthy();
    unmount();
    // Where the page explains the numbers once, the estimate is still said under this graph.
    render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={randomized}
          results={{ ...results, rr_weight: 9 }}
          mine="Yes"
          notesOnPage
        />,
      ),
    );
    expect(screen.getByText(note, { exact: false })).toBeTruthy();
  });

  it('says nothing of estimates for an ordinary question', () => {
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
    expect(screen.queryByText('Estimated:', { exact: false })).toBeNull();
    expect(screen.queryByRole('region', { name: 'The honesty gap' })).toBeNull();
  });

  it('shows the honesty gap under either question of a pair', () => {
    const gap = {
      direct_qid: qid,
      randomized_qid: '00000000-0000-4000-8000-000000000002',
      direct_respondents: 400,
      randomized_respondents: 410,
      choices: [{ choice: 'Yes', points: 9, margin: 5, low: 4, high: 14, clear: true }],
    };
    render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={{ ...results, honesty_gap: gap }}
          mine="Yes"
        />,
      ),
    );
    const region = screen.getByRole('region', { name: 'The honesty gap' });
    expect(region.textContent).toContain(
      'When nobody can know, about 9 points more say “Yes” (4 to 14).',
    );
    expect(region.textContent).toContain('Asked directly of about 400 verified people');
  });

  it('says why there is no chart yet and the way to the first one, never a count', () => {
    const { container } = render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={{ ...results, respondents: null, blank: null, choices: [], updates: 1 }}
          mine="Yes"
          mineState="next-update"
          mineSent
        />,
      ),
    );
    expect(
      screen.getByText(
        'No graph yet: too few verified people so far to show one safely. The next update comes within about 40 more answers.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Yours is in.')).toBeTruthy();
    // Said once: the "joins at the next update" sentence is for a graph that is shown.
    expect(screen.queryByText(/yours joins at the next update/)).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    // No number but the published threshold and the breakdowns' public minimums and unlock points.
    const digits = (container.textContent ?? '').match(/\d+/g) ?? [];
    expect(new Set(digits)).toEqual(new Set(['40', '28', '56', '84']));
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
  });

  it('before any update, says the first graph comes at about 20 people, and where yours stands', () => {
    const none = { ...results, respondents: null, blank: null, choices: [], updates: 0 };
    const graph = (props: Partial<Parameters<typeof QuestionGraph>[0]>) =>
      render(
        wrap(
          <QuestionGraph
            breakdownQuery={breakdownQuery}
            question={closed}
            results={{ ...none, next_update_after: 20 }}
            mine="Yes"
            {...props}
          />,
        ),
      );
    const first =
      'No graph yet. The first one appears once about 20 verified people have answered, and every number is blurred a little so nobody’s answer can be worked out.';
    const cases: Array<[Partial<Parameters<typeof QuestionGraph>[0]>, string | null]> = [
      [{ mineState: 'counted', mineSent: true }, 'Yours is in.'],
      [
        { mineState: 'next-update', mineSent: false },
        'Yours is kept on this device and is sent as soon as it can be.',
      ],
      // Not known to be taken: nothing is claimed.
      [{ mineState: 'next-update', mineSent: null }, null],
      [{ mineState: 'not-counted', mineSent: null }, 'Yours counts once you sign up.'],
      [
        { mineState: 'under-review', mineSent: true },
        'Yours counts once your account is approved.',
      ],
      // Someone who has not answered reads only the way to the first graph.
      [{ mine: null, mineState: 'counted', mineSent: true }, null],
    ];
    for (const [props, yours] of cases) {
      const { container, unmount } = graph(props);
      expect(screen.getByText(first)).toBeTruthy();
      expect(container.querySelector('.graph__yours')?.textContent ?? null).toBe(yours);
      unmount();
    }
    // A closed survey takes no more answers: no update is promised, and no "yours" either.
    const { container } = graph({ mineState: 'counted', mineSent: true, surveyClosed: true });
    expect(
      screen.getByText(
        'Too few verified people answered this question to show its results safely.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/next update|first one appears/)).toBeNull();
    expect(container.querySelector('.graph__yours')).toBeNull();
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
      `${APPROXIMATE} Each share is within ±3 points of the true one, 95 times in 100 (the shaded band on each bar). ${MARGIN_MEANS}`,
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
    expect(
      within(table).getByText('Answers of 60 verified people, left blank included'),
    ).toBeTruthy();
    const mine = within(table).getByRole('rowheader', { name: 'No (your answer)' });
    const cells = within(mine.closest('tr')!).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['hidden', 'hidden: too few to show safely']);
    const shares = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell')[0]!.textContent);
    expect(shares).toEqual(['60%', 'hidden', 'hidden', '10%']);
    expect(within(table).getAllByRole('row')).toHaveLength(5); // header, 3 answers, left blank
    // Plain words, not "n = 60".
    expect(screen.getByText('60 verified people')).toBeTruthy();
    expect(screen.queryByText(/n =/)).toBeNull();
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
      'Yes · yours counts within about 40 more answers60%',
      'Nohidden',
      'Maybehidden',
      'Left blank10%',
    ]);
    expect(rows[0]!.classList.contains('bars__row--mine')).toBe(true);
    expect(rows[0]!.querySelector<HTMLElement>('.bars__fill')?.style.width).toBe('60%');
    // A hidden share has no bar at all, not an empty one that reads as 0%.
    expect(rows[1]!.querySelector('.bars__fill')).toBeNull();
    expect(container.querySelector('.chart--loading')).toBeNull();
    const table = screen.getByRole('table');
    expect(
      within(table).getByRole('rowheader', {
        name: 'Yes (yours counts within about 40 more answers)',
      }),
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
    expect(screen.getByText('· yours counts once you sign up')).toBeTruthy();
    // Said beside the bar; the visitor's screen says the rest around the graph, not twice.
    expect(document.querySelector('.graph__pending')).toBeNull();
    expect(
      within(screen.getByRole('table')).getByRole('rowheader', {
        name: 'Yes (yours counts once you sign up)',
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
                margin: 10.6,
                choices: [
                  {
                    choice: 'Yes',
                    count: 14,
                    percent: 58.3,
                    margin: 10.6,
                    is_blank: false,
                    sent: null,
                  },
                  {
                    choice: 'No',
                    count: null,
                    percent: null,
                    margin: null,
                    is_blank: false,
                    sent: null,
                  },
                  {
                    choice: 'Maybe',
                    count: null,
                    percent: null,
                    margin: null,
                    is_blank: false,
                    sent: null,
                  },
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
                margin: null,
                choices: results.choices.map((c) => ({
                  ...c,
                  count: null,
                  percent: null,
                  margin: null,
                })),
              },
              {
                key: 'non_binary',
                suppressed: true,
                respondents: null,
                blank: null,
                margin: null,
                choices: [],
              },
              {
                key: 'other',
                suppressed: false,
                respondents: 0,
                blank: 0,
                margin: null,
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
    expect(within(women).getByText('· 24 verified people')).toBeTruthy();
    // The group's own margin, not the overall row's.
    expect(
      within(women).getByText('Each share here is within ±11 points, 95 times in 100'),
    ).toBeTruthy();
    expect(within(women).getByText('58%')).toBeTruthy();
    // No, Maybe and Left blank hidden: left blank is a row of its own, not a line of text.
    expect(within(women).getAllByText('hidden')).toHaveLength(3);
    expect(within(women).getByText('Left blank')).toBeTruthy();
    expect(within(women).getByText('· your answer')).toBeTruthy();
    const nb = screen.getByText('Non-binary').closest('li')!;
    expect(
      within(nb).getByText(`${HIDDEN_GROUP}: too few answers in this group to show it safely`),
    ).toBeTruthy();
    const men = screen.getByText('Men').closest('li')!;
    expect(within(men).getByText('Every share hidden to protect privacy')).toBeTruthy();
    expect(within(men).queryByText('hidden')).toBeNull();
    // A group of 0 is not said exact ("No answers", "0%"): it is too small to show.
    const other = screen.getByText('Another gender').closest('li')!;
    expect(
      within(other).getByText(`${HIDDEN_GROUP}: too few answers in this group to show it safely`),
    ).toBeTruthy();
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
    expect(screen.getByText('36 people').parentElement!.textContent).toMatch(
      /^About 36 people wrote an answer\./,
    );
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

describe('QuestionGraph: every share says how sure it is (issue 29)', () => {
  const full: QuestionResults = {
    ...results,
    respondents: 398,
    blank: 40,
    margin: 4.9,
    choices: [
      { choice: 'Yes', count: 199, percent: 50, margin: 4.9, is_blank: false, sent: null },
      { choice: 'No', count: 123, percent: 31, margin: 4.5, is_blank: false, sent: null },
      { choice: 'Maybe', count: 0, percent: 0, margin: 2.4, is_blank: false, sent: null },
      {
        choice: LEAVE_BLANK_CHOICE,
        count: 76,
        percent: 19,
        margin: 3.9,
        is_blank: true,
        sent: null,
      },
    ],
  };

  it('draws left blank as a bar, so the bars add up to 100%, each with its interval', () => {
    const { container } = render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={full}
          mine="No"
        />,
      ),
    );
    const rows = [...container.querySelectorAll('.chart--bars .bars__row')];
    expect(rows.map((r) => r.querySelector('.bars__label')!.firstChild!.textContent)).toEqual([
      'Yes',
      'No',
      'Maybe',
      'Left blank',
    ]);
    const widths = rows.map((r) =>
      parseFloat(r.querySelector<HTMLElement>('.bars__fill')!.style.width),
    );
    expect(widths.reduce((a, b) => a + b, 0)).toBe(100);
    // Each shown share draws its 95% interval: from 45.1% to 54.9% for 50% ±4.9.
    const band = rows[0]!.querySelector<HTMLElement>('.bars__interval')!;
    expect(parseFloat(band.style.left)).toBeCloseTo(45.1);
    expect(parseFloat(band.style.width)).toBeCloseTo(9.8);
    // Plain words: "398 verified people", the whole row's margin, and no "n =".
    expect(screen.getByText('398 verified people')).toBeTruthy();
    expect(screen.getByText(/Each share is within ±5 points of the true one/)).toBeTruthy();
    // The 31% second answer is "fewer than most", never "a minority".
    expect(
      screen.getByText('You’re with 31%, fewer than most: “Yes” leads with 50%.'),
    ).toBeTruthy();
  });

  it('says a share inside its noise "under about N%", never 0%', () => {
    const { container } = render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={full}
          mine={null}
        />,
      ),
    );
    const values = [...container.querySelectorAll('.chart--bars .bars__value')].map(
      (v) => v.textContent,
    );
    expect(values).toEqual(['50%', '31%', 'under about 3%', '19%']);
    expect(container.textContent).not.toMatch(/\b0%/);
    expect(screen.getByText(UNDER_NOISE)).toBeTruthy();
    const cells = within(screen.getByRole('table'))
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(cells[2]).toEqual(['under about 3%', 'too few to count exactly']);
  });

  it('says when whole-number shares do not add up to 100, and only then', () => {
    const thirds: QuestionResults = {
      ...full,
      choices: [
        { choice: 'Yes', count: 133, percent: 33.4, margin: 4, is_blank: false, sent: null },
        { choice: 'No', count: 133, percent: 33.3, margin: 4, is_blank: false, sent: null },
        { choice: 'Maybe', count: 93, percent: 23.3, margin: 4, is_blank: false, sent: null },
        {
          choice: LEAVE_BLANK_CHOICE,
          count: 40,
          percent: 10,
          margin: 3,
          is_blank: true,
          sent: null,
        },
      ],
    };
    const { rerender } = render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={thirds}
          mine={null}
        />,
      ),
    );
    expect(screen.getByText(ROUNDED)).toBeTruthy();
    rerender(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={full}
          mine={null}
        />,
      ),
    );
    expect(screen.queryByText(ROUNDED)).toBeNull();
  });

  it("gives each breakdown group its own margin, never the overall row's", async () => {
    const group = (key: string, respondents: number, margin: number, yes: number) => ({
      key,
      suppressed: false,
      respondents,
      blank: 0,
      margin,
      choices: [
        { choice: 'Yes', count: 1, percent: yes, margin, is_blank: false, sent: null },
        { choice: 'No', count: 1, percent: 100 - yes, margin, is_blank: false, sent: null },
        {
          choice: 'Maybe',
          count: 0,
          percent: 0,
          margin: margin / 2,
          is_blank: false,
          sent: null,
        },
        {
          choice: LEAVE_BLANK_CHOICE,
          count: 0,
          percent: 0,
          margin: margin / 2,
          is_blank: true,
          sent: null,
        },
      ],
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          Response.json({
            ...full,
            breakdown: {
              dimension: 'gender',
              groups: [group('female', 112, 11.2, 45), group('male', 240, 8.6, 52)],
            },
          }),
        ),
      ),
    );
    render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={full}
          mine="Yes"
        />,
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Gender' }));
    const women = (await screen.findByText('Women')).closest('li')!;
    const men = screen.getByText('Men').closest('li')!;
    expect(within(women).getByText('· 112 verified people')).toBeTruthy();
    expect(women.querySelector('.groups__margin')!.textContent).toBe(
      'Each share here is within ±11 points, 95 times in 100',
    );
    expect(men.querySelector('.groups__margin')!.textContent).toBe(
      'Each share here is within ±9 points, 95 times in 100',
    );
    // The overall ±5 is not said over a breakdown; why each group differs is.
    expect(screen.queryByText(/Each share is within ±5 points/)).toBeNull();
    expect(document.querySelector('figcaption')!.textContent).toContain(GROUP_MARGINS);
    // Left blank is a bar in each group; nothing says "Nobody" or an exact 0%.
    expect(within(women).getByText('Left blank')).toBeTruthy();
    expect(within(women).getAllByText('under about 6%')).toHaveLength(2);
    expect(document.body.textContent).not.toMatch(/Nobody|\b0%/);
  });

  it('tells an account under review that its answer counts once approved', () => {
    render(
      wrap(
        <QuestionGraph
          breakdownQuery={breakdownQuery}
          question={closed}
          results={full}
          mine="Yes"
          mineState="under-review"
        />,
      ),
    );
    expect(screen.getByText('· yours counts once your account is approved')).toBeTruthy();
    expect(screen.getByText(/Your answers count once it is approved/)).toBeTruthy();
    expect(screen.getByText(/^You side with 50%/)).toBeTruthy();
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
    expect(headlineOf([row('Yes', 70), row('No', 8, true), row('Maybe', 22)])).toBe(
      'A minority chose this: 8%, like you.',
    );
    // The review's case: a 31% second answer is not "a minority", it is fewer than most.
    expect(headlineOf([row('Yes', 50), row('No', 31, true), row('Maybe', 19)])).toBe(
      'You’re with 31%, fewer than most: “Yes” leads with 50%.',
    );
    // 8% against 12% within their margins: not called a minority.
    expect(headlineOf([row('Yes', 70), row('No', 8, true), row('Maybe', 12)])).toBe(
      'You’re with 8%, fewer than most: “Yes” leads with 70%.',
    );
    // A share inside its noise is never an exact-looking number.
    expect(headlineOf([row('Yes', 97), row('No', 1.5, true, 2.2)])).toBe(
      'Very few chose this: under about 4%, like you.',
    );
    // With few answers the interval is wide: "very few" would claim what it cannot know.
    expect(headlineOf([row('Yes', 40), row('No', 20, true, 61)])).toBe(
      'Too soon to tell how many chose this, like you: under about 81%.',
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
    // "Most" only when more than half chose it beyond the margin.
    expect(headlineOf([row('Yes', 52, false, 4), row('No', 20)])).toBe('“Yes” leads with 52%.');
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
    // The other shares of this fixture are hidden: nothing is ranked against them.
    expect(screen.getByText('You’re with 60%.')).toBeTruthy();
  });
});
