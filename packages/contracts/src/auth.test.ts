import { describe, expect, it } from 'vitest';
import { SignupRequestSchema, newCodeIn, waitInWords, yearOfBirthSchema } from './auth.js';

const messages = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('signup limits, said the same by the API and the form', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  const year = yearOfBirthSchema(now);

  it('takes a year of birth from 100 years ago to 18 years ago, each end with its reason', () => {
    expect(year.safeParse(1926).success).toBe(true);
    expect(year.safeParse(2008).success).toBe(true);
    expect(messages(year.safeParse(1925))).toEqual(['Enter a year of birth from 1926 on.']);
    expect(messages(year.safeParse(1890))).toEqual(['Enter a year of birth from 1926 on.']);
    expect(messages(year.safeParse(2009))).toEqual(['Candor is for people aged 18 and over.']);
    expect(messages(year.safeParse(Number.NaN))).toEqual([
      'Enter your year of birth, such as 1990.',
    ]);
  });

  const base = {
    phone_number: '+447700900123',
    year_of_birth: 1990,
    gender: 'male',
    country: 'GB',
  };

  it('takes a name of at most 80 characters', () => {
    expect(SignupRequestSchema.safeParse({ ...base, name: 'a'.repeat(80) }).success).toBe(true);
    expect(messages(SignupRequestSchema.safeParse({ ...base, name: 'a'.repeat(81) }))).toEqual([
      'Use at most 80 characters for your name.',
    ]);
    expect(messages(SignupRequestSchema.safeParse({ ...base, name: 'a'.repeat(500) }))).toEqual([
      'Use at most 80 characters for your name.',
    ]);
  });

  it('takes a phone number of at most 15 digits, however it is spaced', () => {
    const phone = (phone_number: string) =>
      messages(SignupRequestSchema.safeParse({ ...base, phone_number }));
    expect(phone('+44 7700 900123')).toEqual([]);
    expect(phone('+1234 5678 9012 345')).toEqual([]);
    expect(phone('+1234 5678 9012 3456')).toEqual(['A phone number has at most 15 digits.']);
    expect(phone('1'.repeat(60))).toEqual(['A phone number has at most 15 digits.']);
  });
});

describe('the wait for a new code, said the same by the API and the code screen', () => {
  it('rounds up, in the unit people would say', () => {
    expect(waitInWords(52)).toBe('52 seconds');
    expect(waitInWords(1)).toBe('1 second');
    expect(waitInWords(61)).toBe('2 minutes');
    expect(waitInWords(600)).toBe('10 minutes');
    expect(newCodeIn(60)).toBe('You can ask for a new code in 1 minute.');
    expect(newCodeIn(420)).toBe('You can ask for a new code in 7 minutes.');
  });
});
