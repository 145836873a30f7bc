import type { SurveySummary } from '@candor/contracts';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrickNavigation } from './brick-navigation';

// This device's answers, by survey gid (lib/device-answers reads IndexedDB; its own test
// covers that): the bricks' state comes from here, never from the API.
const device = vi.hoisted(() => ({ answered: new Map<string, Set<string>>() }));
vi.mock('../../../lib/device-answers', () => ({
  answeredOnDevice: () => Promise.resolve(device.answered),
}));

beforeEach(() => {
  device.answered = new Map();
});

const question = (qid: string) => ({
  qid,
  question: `Question ${qid}?`,
  type: 'Closed' as const,
  timer_length: '0:00:00',
  video_link_1: null,
  video_link_2: null,
  video_captions_1: null,
  video_captions_2: null,
  submitted: '2026-01-01T00:00:00.000Z',
  choices: ['Yes', 'No', 'Leave blank'],
  randomise_answers: false,
  max_length: null,
  rr_weight: null,
  twin_qid: null,
  gid: '00000000-0000-4000-8000-000000000000',
  name: 'Survey',
  status: 'Open' as const,
});
const questions = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => question(`${prefix}${i}`));

const genre = (name: string) => ({
  unique_GID: `00000000-0000-4000-8000-${name.length.toString().padStart(12, '0')}`,
  genre_name: name,
});

function survey(over: Partial<SurveySummary>): SurveySummary {
  return {
    gid: crypto.randomUUID(),
    name: 'Survey',
    cover_image: null,
    cover_headline: 'Headline',
    questions_count: 3,
    status: 'Open',
    release_date: '2026-01-01T00:00:00.000Z',
    slot: 1,
    date_published: '2026-01-01T00:00:00.000Z',
    is_within_24_hours: false,
    closed_at: null,
    closes_at: null,
    archived: false,
    variant: 'v1_small',
    genres: [],
    questions: [],
    respondents: null,
    ...over,
  };
}

const surveys = [
  survey({
    name: 'Third',
    slot: 3,
    genres: [genre('Money')],
    variant: 'v2_large',
    questions_count: 25,
    questions: questions(25, 't'),
    respondents: 1240,
  }),
  survey({
    name: 'First',
    slot: 1,
    genres: [genre('Body')],
    is_within_24_hours: true,
    questions: questions(3, 'f'),
  }),
  survey({
    name: 'Second',
    slot: 2,
    genres: [genre('Money'), genre('Body')],
    status: 'Closed',
    closed_at: '2026-02-01T00:00:00.000Z',
    questions: questions(3, 's'),
    respondents: 0,
  }),
];

const renderBricks = () =>
  render(
    <MemoryRouter>
      <BrickNavigation surveys={surveys} />
    </MemoryRouter>,
  );

const names = () =>
  screen.getAllByRole('listitem').map((li) => li.querySelector('.brick__name')?.textContent);

describe('BrickNavigation', () => {
  it('shows bricks in slot order, sized by variant, linking to the survey', () => {
    renderBricks();
    expect(names()).toEqual(['First', 'Second', 'Third']);
    const third = screen.getAllByRole('listitem')[2]!;
    expect(third.className).toContain('brick--large');
    expect(within(third).getByRole('link').getAttribute('href')).toBe(
      `/surveys/${surveys[0]!.gid}`,
    );
  });

  it('promotes nothing closed and empty: a closed survey with no published result has no brick', () => {
    const empty = survey({ name: 'Empty', slot: 0, status: 'Closed', genres: [genre('Faith')] });
    render(
      <MemoryRouter>
        <BrickNavigation surveys={[...surveys, empty]} />
      </MemoryRouter>,
    );
    expect(names()).toEqual(['First', 'Second', 'Third']);
    // Nor its genre in the filter: it would lead to nothing.
    expect(screen.queryByRole('button', { name: 'Faith' })).toBeNull();
  });

  it('promotes nothing archived, whatever its results', () => {
    const archived = survey({
      name: 'Archived',
      slot: 0,
      status: 'Closed',
      respondents: 400,
      archived: true,
      genres: [genre('Faith')],
    });
    render(
      <MemoryRouter>
        <BrickNavigation surveys={[...surveys, archived]} />
      </MemoryRouter>,
    );
    expect(names()).toEqual(['First', 'Second', 'Third']);
    expect(screen.queryByRole('button', { name: 'Faith' })).toBeNull();
  });

  it('marks closed surveys, and new ones once the device is read (never a closed one)', async () => {
    renderBricks();
    const [first, second] = screen.getAllByRole('listitem');
    expect(within(second!).getByText('Closed · results only')).toBeTruthy();
    expect(within(first!).queryByText('Closed · results only')).toBeNull();
    // Drawn before the device is read: no state at all rather than a guess.
    expect(document.querySelectorAll('.brick__state')).toHaveLength(0);
    expect(await within(first!).findByText('New')).toBeTruthy();
    expect(within(second!).queryByText('New')).toBeNull();
  });

  it('says continue n/N and the time left, or done, from what this device answered', async () => {
    device.answered = new Map([
      [surveys[0]!.gid, new Set(['t0', 't1', 't2', 't3', 't4'])],
      [surveys[1]!.gid, new Set(['f0', 'f1', 'f2'])],
    ]);
    renderBricks();
    const [first, , third] = screen.getAllByRole('listitem');
    expect(await within(third!).findByText('Continue 5/25')).toBeTruthy();
    expect(within(third!).getByText('Continue: 5 of 25 answered')).toBeTruthy();
    // 20 questions left of 18 s each.
    expect(within(third!).getByText('25 questions · about 6 min left')).toBeTruthy();
    expect(third!.querySelector<HTMLElement>('.brick__progress > span')!.style.width).toBe('20%');
    expect(within(first!).getByText('Done')).toBeTruthy();
    expect(within(first!).getByText('3 questions')).toBeTruthy();
    expect(screen.queryByText('New')).toBeNull();
  });

  it('says how long a survey takes and how many answered: only a published number, never 0', () => {
    renderBricks();
    const [first, second, third] = screen.getAllByRole('listitem');
    expect(within(first!).getByText('3 questions · about 1 min')).toBeTruthy();
    expect(within(third!).getByText('About 1,240 people answered')).toBeTruthy();
    // None published yet, or a closed survey's 0: nothing said, and no time for a closed one.
    expect(first!.querySelector('.brick__people')).toBeNull();
    expect(second!.querySelector('.brick__people')).toBeNull();
    expect(within(second!).getByText('3 questions')).toBeTruthy();
  });

  it('filters by genre and clears the filter', () => {
    renderBricks();
    const filter = screen.getByRole('group', { name: 'Filter by genre' });
    fireEvent.click(within(filter).getByRole('button', { name: 'Money' }));
    expect(names()).toEqual(['Second', 'Third']);
    expect(within(filter).getByRole('button', { name: 'Money' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(within(filter).getByRole('button', { name: 'All' }));
    expect(names()).toEqual(['First', 'Second', 'Third']);
  });
});
