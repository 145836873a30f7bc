import en from 'react-phone-number-input/locale/en.json';

const names = en as Record<string, string>;

/**
 * A country's English name from its ISO 3166-1 alpha-2 code, or the code itself when unknown.
 * Only the names table: it does not bring the phone-number library along.
 */
export function countryName(code: string): string {
  return names[code.toUpperCase()] ?? code;
}
