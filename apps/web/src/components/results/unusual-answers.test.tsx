import { render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/preact';
import { UnusualAnswers } from './unusual-answers';

afterEach(cleanup);

describe('UnusualAnswers', () => {
  it('is a named region on its own, and none inside a survey of the mirror (no duplicate landmarks)', () => {
    render(<UnusualAnswers standings={[]} />);
    expect(screen.getByRole('region', { name: 'Your most unusual answers' })).toBeTruthy();
    cleanup();
    // The mirror lists several surveys, each with its own "most unusual" list: none a region.
    render(
      <>
        <UnusualAnswers standings={[]} headingLevel={3} region={false} />
        <UnusualAnswers standings={[]} headingLevel={3} region={false} />
      </>,
    );
    expect(screen.queryAllByRole('region')).toEqual([]);
    expect(
      screen.getAllByRole('heading', { level: 3, name: 'Your most unusual answers' }),
    ).toHaveLength(2);
  });
});
