import {
  type CountryCode,
  type PhoneNumberType,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import { AppError } from './app-error.js';

export const INVALID_PHONE_MESSAGE = 'Enter a valid phone number.';

export interface Phone {
  /** +447700900123 */
  e164: string;
  /** The number's country when its range names one, else the main country of its dial code. */
  country: string;
  /** libphonenumber's classification with full metadata; undefined when the range is unknown. */
  type: PhoneNumberType | undefined;
  countryCallingCode: string;
  nationalNumber: string;
}

/**
 * Any spelling of a number (spaces, dashes, national form with `defaultRegion`, +) as E.164.
 * A number of a possible length for its country is accepted even when libphonenumber does not
 * know its range as assigned: its metadata lags real allocations, and an unknown type is what
 * the risk checks send to review. Anything else is a field error on `phone_number`.
 */
export function normalisePhone(input: string, defaultRegion: string): Phone {
  const parsed = parsePhoneNumberFromString(input, {
    defaultCountry: defaultRegion as CountryCode,
    extract: false,
  });
  if (!parsed || !parsed.isPossible() || parsed.ext) {
    throw new AppError('VALIDATION_FAILED', undefined, { phone_number: [INVALID_PHONE_MESSAGE] });
  }
  return {
    e164: parsed.number,
    country: parsed.country ?? parsed.getPossibleCountries()[0] ?? defaultRegion,
    type: parsed.getType(),
    countryCallingCode: parsed.countryCallingCode,
    nationalNumber: parsed.nationalNumber,
  };
}
