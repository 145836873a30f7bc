import type { HonestyGapResult } from '@candor/contracts';
import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { gapBase, gapLines, HonestyGap, NO_CLEAR_GAP } from './honesty-gap';

const gap = (over: Partial<HonestyGapResult> = {}): HonestyGapResult => ({
  direct_qid: '00000000-0000-4000-8000-000000000001',
  randomized_qid: '00000000-0000-4000-8000-000000000002',
  direct_respondents: 1210,
  randomized_respondents: 1190,
  choices: [
    { choice: 'Never', points: -1.4, margin: 6, low: -7.4, high: 4.6, clear: false },
    { choice: 'Once', points: 6.5, margin: 4.4, low: 2.1, high: 10.9, clear: true },
    { choice: 'Often', points: -11.2, margin: 5, low: -16.2, high: -6.2, clear: true },
  ],
  ...over,
});

describe('the honesty gap in words', () => {
  it('says each clear gap, largest first, more or fewer, with its interval the right way round', () => {
    expect(gapLines(gap())).toEqual([
      'When nobody can know, about 11 points fewer say “Often” (6 to 16).',
      'When nobody can know, about 7 points more say “Once” (2 to 11).',
    ]);
  });

  it('says a two-answer gap once, and a gap under a point as such', () => {
    const two = gap({
      choices: [
        { choice: 'Yes', points: 8.2, margin: 5, low: 3.2, high: 13.2, clear: true },
        { choice: 'No', points: -8.2, margin: 5, low: -13.2, high: -3.2, clear: true },
      ],
    });
    expect(gapLines(two)).toEqual([
      'When nobody can know, about 8 points more say “Yes” (3 to 13).',
    ]);
    const tiny = gap({
      choices: [
        { choice: 'A', points: 0.3, margin: 0.2, low: 0.1, high: 0.5, clear: true },
        { choice: 'B', points: 0, margin: 1, low: -1, high: 1, clear: false },
        { choice: 'C', points: -0.3, margin: 1, low: -1.3, high: 0.7, clear: false },
      ],
    });
    expect(gapLines(tiny)).toEqual(['When nobody can know, under 1 point more say “A” (0 to 1).']);
  });

  it('says “no clear gap” when every interval holds 0, and nothing until both are published', () => {
    const unclear = gap({ choices: gap().choices.map((c) => ({ ...c, clear: false })) });
    expect(gapLines(unclear)).toEqual([NO_CLEAR_GAP]);
    const early = gap({ choices: [{ ...gap().choices[0]!, points: null }, gap().choices[1]!] });
    expect(gapLines(early)).toBeNull();
  });

  it('names each way of asking’s base, never a number before it is published', () => {
    expect(gapBase(gap())).toMatch(
      /^Asked directly of about 1,210 verified people; with randomized response, of about 1,190\./,
    );
    expect(gapBase(gap({ randomized_respondents: null }))).toContain('of too few yet');
  });

  it('draws the gap as a labelled section under a graph', () => {
    render(<HonestyGap gap={gap()} />);
    const section = screen.getByRole('region', { name: 'The honesty gap' });
    expect(section.textContent).toContain('about 11 points fewer say “Often”');
    render(<HonestyGap gap={gap({ choices: [{ ...gap().choices[0]!, points: null }] })} />);
    expect(screen.getByText(/Shown once both ways of asking have enough answers/)).toBeTruthy();
  });
});
