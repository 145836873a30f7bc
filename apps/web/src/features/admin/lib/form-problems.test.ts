import { WebhookInputSchema } from '@candor/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { problemsFromError, problemsFromIssues } from './form-problems';

describe('a form’s problems', () => {
  it('keeps the contract’s first message per field', () => {
    const parsed = WebhookInputSchema.safeParse({ url: '', events: [] });
    expect(parsed.success).toBe(false);
    expect(problemsFromIssues(parsed.error!.issues)).toEqual({
      url: 'Give the address that receives the events.',
      events: 'Pick at least one event.',
    });
  });

  it('puts the API’s field errors beside their fields, and anything else in one message', () => {
    const keys = ['url', 'events'] as const;
    const refused = new ApiError(400, 'VALIDATION_FAILED', 'The request is not valid.', {
      url: ['This address leads to a private or reserved network.'],
    });
    expect(problemsFromError(refused, keys, 'Try again.')).toEqual({
      fields: { url: 'This address leads to a private or reserved network.' },
      other: null,
    });
    // A field the form does not show: said as the request's message, not lost.
    const elsewhere = new ApiError(400, 'VALIDATION_FAILED', 'The request is not valid.', {
      extra: ['Unknown field.'],
    });
    expect(problemsFromError(elsewhere, keys, 'Try again.').fields).toEqual({});
    expect(problemsFromError(elsewhere, keys, 'Try again.').other).toBeTruthy();
    const conflict = new ApiError(409, 'INVALID_STATE', 'Candor keeps at most 20 webhooks.');
    expect(problemsFromError(conflict, keys, 'Try again.')).toEqual({
      fields: {},
      other: expect.stringContaining('20 webhooks') as string,
    });
  });
});
