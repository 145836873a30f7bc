import { describe, expect, it } from 'vitest';
import { DEFAULT_COUNTRY, countries, splitPhone } from './countries';

describe('countries', () => {
  it('keeps United States, United Kingdom, India and Nigeria first', () => {
    expect(countries.slice(0, 4)).toEqual([
      { name: 'United States', code: 'US', dial_code: '+1' },
      { name: 'United Kingdom', code: 'GB', dial_code: '+44' },
      { name: 'India', code: 'IN', dial_code: '+91' },
      { name: 'Nigeria', code: 'NG', dial_code: '+234' },
    ]);
  });

  it('lists every country once, with a dial code', () => {
    expect(countries.length).toBeGreaterThan(230);
    expect(new Set(countries.map((c) => c.code)).size).toBe(countries.length);
    for (const c of countries) expect(c.dial_code).toMatch(/^\+\d{1,4}$/);
    expect(countries.find((c) => c.code === 'DE')).toEqual({
      name: 'Germany',
      code: 'DE',
      dial_code: '+49',
    });
  });

  it('defaults to +1, United States', () => {
    expect(DEFAULT_COUNTRY).toMatchObject({ code: 'US', dial_code: '+1' });
  });
});

describe('splitPhone', () => {
  it.each([
    ['+447911123456', '+44', '7911123456'],
    ['+1 (415) 555-0100', '+1', '4155550100'],
    ['+2348031234567', '+234', '8031234567'],
    ['+12684601234', '+1', '2684601234'],
    ['+', '', '+'],
    ['07911123456', '', '07911123456'],
  ])('%s -> %s + %s', (input, countryCode, phoneNumber) => {
    expect(splitPhone(input)).toEqual({ countryCode, phoneNumber });
  });
});
