import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { normalisePhone } from './phone.js';

describe('normalisePhone', () => {
  it.each([
    ['+44 7700 900123', 'US', '+447700900123'],
    ['07700 900123', 'GB', '+447700900123'],
    ['+447700900123', 'US', '+447700900123'],
    ['+44 (0)7700-900-123', 'US', '+447700900123'],
    ['(202) 555-0123', 'US', '+12025550123'],
    ['202.555.0123', 'US', '+12025550123'],
    ['0803 123 4567', 'NG', '+2348031234567'],
  ])('%s (region %s) is %s', (input, region, e164) => {
    expect(normalisePhone(input, region).e164).toBe(e164);
  });

  it('classifies the number and names its country', () => {
    expect(normalisePhone('+447400123456', 'US')).toMatchObject({ type: 'MOBILE', country: 'GB' });
    expect(normalisePhone('+445612345678', 'US')).toMatchObject({ type: 'VOIP' });
    // A fictional (drama) range: possible, but of no known type.
    expect(normalisePhone('+447700900123', 'US')).toMatchObject({ type: undefined, country: 'GB' });
  });

  it.each(['', '12', 'abc', '+99 1234', '+1 202 555 01234567', '07700 900123 ext. 5'])(
    'refuses %j with a field error',
    (input) => {
      try {
        normalisePhone(input, 'US');
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).fields).toEqual({ phone_number: ['Enter a valid phone number.'] });
      }
    },
  );
});
