import { describe, expect, it } from 'vitest';
import { reviewReasonKinds, riskReasons } from './signup-risk.js';

describe('the kinds of a held signup’s reasons, as its owner is told them', () => {
  it('tells each reason the risk checks write by its kind, once each', () => {
    const reasons = riskReasons({
      type: 'VOIP',
      signupsFromIp: 9,
      signupsFromPrefix: 12,
      reviewAll: true,
    });
    expect(reasons).toHaveLength(4);
    expect(reviewReasonKinds(reasons)).toEqual([
      'number_type',
      'shared_network',
      'number_range',
      'all',
    ]);
    expect(
      reviewReasonKinds([
        ...riskReasons({
          type: undefined,
          signupsFromIp: 0,
          signupsFromPrefix: 0,
          reviewAll: false,
        }),
        'The phone number is a pager number.',
      ]),
    ).toEqual(['number_type']);
  });

  it('leaves out words it does not know (a reason a moderator wrote) and tells no counts', () => {
    expect(reviewReasonKinds(['Looked odd to me.'])).toEqual([]);
    expect(reviewReasonKinds([])).toEqual([]);
  });
});
