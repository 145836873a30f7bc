import type { BreakdownDimension } from '@candor/contracts';
import { countryName } from '../../lib/country-names';

const GENDER_GROUPS: Record<string, string> = {
  female: 'Women',
  male: 'Men',
  non_binary: 'Non-binary',
  // The signup form's word for it (GENDER_LABELS), one wording everywhere.
  other: 'Another gender',
  undisclosed: 'Prefer not to say',
};

/** A person-readable name for a breakdown group's key (`female`, `25-34`, `GB`, `other`). */
export function groupLabel(dimension: BreakdownDimension, key: string): string {
  switch (dimension) {
    case 'gender':
      return GENDER_GROUPS[key] ?? key;
    case 'age':
      if (key.endsWith('+')) return `${key.slice(0, -1)} and over`;
      return key.replace('-', '–');
    case 'country':
      return key === 'other' ? 'Other countries' : countryName(key);
  }
}

/** The switcher's choices: everyone, then each dimension. */
export const BREAKDOWN_OPTIONS: ReadonlyArray<{
  value: BreakdownDimension | 'all';
  label: string;
}> = [
  { value: 'all', label: 'All' },
  { value: 'gender', label: 'Gender' },
  { value: 'age', label: 'Age' },
  { value: 'country', label: 'Country' },
];
