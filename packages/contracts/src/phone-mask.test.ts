import fc from 'fast-check';
import {
  type PhoneNumber,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { MASK_DOT, maskPhoneNumber } from './phone-mask.js';

/** Any number the API accepts (possible for its country, as `normalisePhone` checks), as E.164. */
const validNumber = fc
  .record({
    country: fc.constantFrom(...getCountries()),
    national: fc.stringMatching(/^[1-9]\d{3,13}$/),
  })
  .map(({ country, national }) =>
    parsePhoneNumberFromString(`+${getCountryCallingCode(country)}${national}`),
  )
  .filter((parsed): parsed is PhoneNumber => parsed?.isPossible() === true)
  .map((parsed) => ({
    e164: parsed.number,
    code: parsed.countryCallingCode,
    national: parsed.nationalNumber,
  }));

describe('maskPhoneNumber', () => {
  it.each([
    ['+447700900123', '+44 ••• ••• •123'],
    ['+12125550123', '+1 ••• ••• •123'],
    ['+2348031234567', '+234 ••• ••• •567'],
    ['+79161234567', '+7 ••• ••• •567'],
    ['+353851234567', '+353 ••• •• •567'],
    ['+33612345678', '+33 ••• •• •678'],
    ['+6834002', '+683 ••• •'],
  ])('%s reads %s', (e164, masked) => {
    expect(maskPhoneNumber(e164)).toBe(masked);
  });

  it('hides everything of what is not an E.164 number', () => {
    for (const bad of ['', '447700900123', '+44', '+44 7700 900123', 'secret']) {
      expect(maskPhoneNumber(bad)).toBe(`+${MASK_DOT.repeat(3)}`);
    }
  });

  it('never shows more than the country code and the last 3 digits of any valid number', () => {
    fc.assert(
      fc.property(validNumber, ({ e164, code, national }) => {
        const masked = maskPhoneNumber(e164);
        // The country code, as libphonenumber reads it, comes first.
        expect(masked.startsWith(`+${code} `)).toBe(true);
        const rest = masked.slice(code.length + 2);
        const shown = rest.replace(/[^\d]/g, '');
        // Only the number's own last digits, at most 3, and at least 4 digits stay hidden.
        expect(shown.length).toBeLessThanOrEqual(3);
        expect(national.endsWith(shown)).toBe(true);
        expect(national.length - shown.length).toBeGreaterThanOrEqual(4);
        if (national.length >= 7) expect(shown).toBe(national.slice(-3));
        // The digits shown are the last ones: nothing but dots and spaces before them.
        expect(rest).toMatch(new RegExp(`^[${MASK_DOT} ]+${shown}$`));
        // A dot for each hidden digit, in groups of at most 4.
        expect(rest.split(MASK_DOT).length - 1).toBe(national.length - shown.length);
        for (const group of rest.split(' ')) expect(group.length).toBeLessThanOrEqual(4);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the country code of every country', () => {
    for (const country of getCountries()) {
      const code = getCountryCallingCode(country);
      expect(maskPhoneNumber(`+${code}12345678`).startsWith(`+${code} `), country).toBe(true);
    }
  });
});
