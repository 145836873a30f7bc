import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js';
import en from 'react-phone-number-input/locale/en.json';

export interface Country {
  name: string;
  /** ISO 3166-1 alpha-2. */
  code: CountryCode;
  /** "+44". */
  dial_code: string;
}

/** The four countries kept at the top of every country picker, in this order. */
export const PINNED_COUNTRIES: CountryCode[] = ['US', 'GB', 'IN', 'NG'];

const names = en as Record<string, string>;

const toCountry = (code: CountryCode): Country => ({
  name: names[code] ?? code,
  code,
  dial_code: `+${getCountryCallingCode(code)}`,
});

/** Every country with its dial code: the pinned four first, then the rest by name. */
export const countries: Country[] = [
  ...PINNED_COUNTRIES.map(toCountry),
  ...getCountries()
    .filter((c) => !PINNED_COUNTRIES.includes(c))
    .map(toCountry)
    .sort((a, b) => a.name.localeCompare(b.name, 'en')),
];

/** Default country of the global store (spec: +1, United States). */
export const DEFAULT_COUNTRY = countries[0]!;

/**
 * Splits "+447911123456" into its dial code and the rest (spec section 3), with libphonenumber:
 * "+12684601234" (Antigua) is "+1" and "2684601234", as the numbering plan has it.
 * Text without a leading dial code comes back whole, with an empty country code.
 */
export function splitPhone(phone: string): { countryCode: string; phoneNumber: string } {
  const compact = phone.replace(/[\s().-]/g, '');
  const parsed = compact.startsWith('+') ? parsePhoneNumberFromString(compact) : undefined;
  if (!parsed) return { countryCode: '', phoneNumber: compact };
  return { countryCode: `+${parsed.countryCallingCode}`, phoneNumber: parsed.nationalNumber };
}
