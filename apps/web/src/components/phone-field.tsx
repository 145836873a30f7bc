import type { ReactNode } from 'react';
import { type Control, Controller, type Path } from 'react-hook-form';
import PhoneInput, { type Country, type FlagProps } from 'react-phone-number-input';
import 'react-phone-number-input/style.css';
import { PINNED_COUNTRIES, countries } from '../lib/countries';
import { Field } from './form';
import './phone-field.css';

// Country names with their dial codes ("United Kingdom +44") for the picker.
const labels = Object.fromEntries(countries.map((c) => [c.code, `${c.name} ${c.dial_code}`]));

const dialOf = Object.fromEntries(countries.map((c) => [c.code, c.dial_code]));

/**
 * The picked country as text ("GB +44") instead of a flag: the library's default flags load from
 * a CDN, and emoji flags do not render on Windows.
 */
function CountryBadge({ country }: FlagProps) {
  return (
    <span className="phone-field__country" aria-hidden="true">
      {country} {dialOf[country]}
    </span>
  );
}

/**
 * The custom phone input: a country picker with the United States, United Kingdom, India and
 * Nigeria first, then every country with its dial code, and the number; the value is E.164.
 */
export function PhoneField({
  id,
  value,
  onChange,
  onBlur,
  defaultCountry = 'US',
  invalid,
  describedBy,
  autoFocus,
  onCountryChange,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  defaultCountry?: Country;
  invalid?: boolean;
  describedBy?: string;
  autoFocus?: boolean;
  onCountryChange?: (country: Country | undefined) => void;
}) {
  return (
    <PhoneInput
      id={id}
      className={`phone-field${invalid ? ' phone-field--invalid' : ''}`}
      value={value}
      onChange={(v) => onChange(v ?? '')}
      onBlur={onBlur}
      defaultCountry={defaultCountry}
      labels={{ ...labels, country: 'Country' }}
      countryOptionsOrder={[...PINNED_COUNTRIES, '|', '...']}
      flagComponent={CountryBadge}
      addInternationalOption={false}
      autoComplete="tel"
      autoFocus={autoFocus}
      onCountryChange={onCountryChange}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={describedBy}
      numberInputProps={{ className: 'input', inputMode: 'tel' }}
      countrySelectProps={{ 'aria-label': 'Country calling code' }}
    />
  );
}

/**
 * The phone number of a sign-up, login or reset form: its labelled field, bound to the form's
 * `phone_number`, focused first.
 */
export function PhoneNumberField<T extends { phone_number: string }>({
  control,
  error,
  hint,
  onCountryChange,
}: {
  control: Control<T>;
  error: string | undefined;
  hint?: ReactNode;
  onCountryChange?: (country: Country | undefined) => void;
}) {
  return (
    <Field label="Phone number" {...(hint ? { hint } : {})} error={error}>
      {({ id, describedBy, invalid }) => (
        <Controller
          control={control}
          name={'phone_number' as Path<T>}
          render={({ field }) => (
            <PhoneField
              id={id}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              invalid={invalid}
              {...(describedBy ? { describedBy } : {})}
              autoFocus
              {...(onCountryChange ? { onCountryChange } : {})}
            />
          )}
        />
      )}
    </Field>
  );
}
