import type { SurveySummary } from '@candor/contracts';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { BrickNavigation } from './brick-navigation';

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
    variant: 'v1_small',
    genres: [],
    questions: [],
    ...over,
  };
}

const surveys = [
  survey({ name: 'Third', slot: 3, genres: [genre('Money')], variant: 'v2_large' }),
  survey({ name: 'First', slot: 1, genres: [genre('Body')], is_within_24_hours: true }),
  survey({
    name: 'Second',
    slot: 2,
    genres: [genre('Money'), genre('Body')],
    status: 'Closed',
    closed_at: '2026-02-01T00:00:00.000Z',
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

  it('marks new and closed surveys', () => {
    renderBricks();
    const [first, second] = screen.getAllByRole('listitem');
    expect(within(first!).getByText('New')).toBeTruthy();
    expect(within(second!).getByText('Closed · results only')).toBeTruthy();
    expect(within(first!).queryByText('Closed · results only')).toBeNull();
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
