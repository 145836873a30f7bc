import type { MirrorItem as Item } from '@candor/contracts';
import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { MirrorItem } from './mirror-item';

const item: Item = {
  qid: '00000000-0000-4000-8000-000000000001',
  question: 'Would you travel back in time?',
  type: 'Closed',
  gid: '00000000-0000-4000-8000-0000000000aa',
  survey: 'Time Travel',
  answer: 'Yes',
  is_blank: false,
  date: '2026-03-12',
  rating: 7,
  same_percent: 23.4,
  same_margin: 3.1,
  respondents: 1240,
  minority: true,
  snapshot_at: '2026-03-13T09:00:00Z',
  next_update_after: 320,
  estimated: false,
};

const show = (over: Partial<Item> = {}) =>
  render(
    <ul>
      <MirrorItem item={{ ...item, ...over }} />
    </ul>,
  );

describe('MirrorItem', () => {
  it('shows the answer, the share who said the same, the minority badge and the rating', () => {
    show();
    // Under its survey's heading (h2): the survey is not named again.
    expect(screen.getByRole('heading', { level: 3, name: item.question })).toBeTruthy();
    expect(screen.queryByText('Time Travel')).toBeNull();
    expect(screen.getByText('Yes')).toBeTruthy();
    expect(
      screen.getByText('About 23% (±3) answered the same (of 1,240 verified people)'),
    ).toBeTruthy();
    expect(screen.getByText("You're in the minority")).toBeTruthy();
    expect(screen.getByText('Your interest: 7/10')).toBeTruthy();
    expect(screen.getByText('12 Mar 2026')).toBeTruthy();
  });

  it('says a randomized-response question’s share is an estimate', () => {
    const { container } = show({ estimated: true });
    expect(container.querySelector('.mirror-item__same p')!.textContent).toBe(
      'About 23% (±3) answered the same (of 1,240 verified people) · estimated from randomized answers',
    );
  });

  it('says when the answer counts when the numbers were taken before its day', () => {
    const { container } = show({ snapshot_at: '2026-03-11T22:00:00Z' });
    // From the published threshold of the next update, the outro's words exactly.
    expect(container.querySelector('.mirror-item__same p')!.textContent).toBe(
      'About 23% (±3) answered the same (of 1,240 verified people) · counts within about 320 more answers',
    );
  });

  it('tells an account under review its answers count once approved', () => {
    const { container } = render(
      <ul>
        <MirrorItem item={item} underReview />
      </ul>,
    );
    expect(container.querySelector('.mirror-item__pending')!.textContent).toBe(
      ' · counts once your account is approved',
    );
  });

  it('says a share inside its noise "under about", never an exact-looking number', () => {
    const { container } = show({ same_percent: 0, same_margin: 2.2, minority: true });
    expect(container.querySelector('.mirror-item__same p')!.textContent).toBe(
      'Under about 3% answered the same (of 1,240 verified people)',
    );
  });

  it('says "hidden" for a suppressed share and never shows a minority it cannot know', () => {
    show({ same_percent: null, minority: null, rating: null });
    expect(screen.getByText('Share hidden to protect privacy')).toBeTruthy();
    expect(screen.queryByText(/answered the same/)).toBeNull();
    expect(screen.queryByText("You're in the minority")).toBeNull();
    expect(screen.getByText('Not rated')).toBeTruthy();
  });

  it('says there are not enough answers yet under 10 people, and tells a blank apart', () => {
    show({ respondents: null, same_percent: null, minority: null });
    expect(
      screen.getByText('No results yet: the next update comes within about 320 answers'),
    ).toBeTruthy();
    show({ is_blank: true, answer: '', same_percent: null, minority: null });
    expect(screen.getByText('Left blank')).toBeTruthy();
  });
});
