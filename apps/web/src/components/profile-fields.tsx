import { type DeviceProfile, GENDER_LABELS, type Gender, GenderSchema } from '@candor/contracts';
import { useId } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { countries } from '../lib/countries';
import { Field } from './form';

/** A form holding the profile's fields (sign-up's holds more; it passes itself as this). */
export type ProfileForm = UseFormReturn<DeviceProfile>;

/**
 * Year of birth, country and gender: asked at sign-up and in the mirror's "About you", kept on
 * the member's devices (decision 020, slice 2).
 */
export function ProfileFields({ form }: { form: ProfileForm }) {
  const { errors } = form.formState;
  const genderErrorId = `${useId()}-gender-error`;
  return (
    <>
      <div className="form__row">
        <Field label="Year of birth" error={errors.year_of_birth?.message}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input"
              inputMode="numeric"
              autoComplete="bday-year"
              placeholder={`e.g. ${new Date().getFullYear() - 30}`}
              maxLength={4}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              {...form.register('year_of_birth', {
                setValueAs: (v: string | number) =>
                  String(v).trim() === '' ? undefined : Number(v),
              })}
            />
          )}
        </Field>
        <Field label="Country" error={errors.country?.message}>
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              className="input"
              autoComplete="country"
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              {...form.register('country')}
            >
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <fieldset
        className={`choice-group${errors.gender ? ' field--invalid' : ''}`}
        aria-describedby={errors.gender ? genderErrorId : undefined}
      >
        <legend className="field__label">Gender</legend>
        <div className="choice-group__options">
          {GenderSchema.options.map((g: Gender) => (
            <label key={g} className="choice-chip">
              <input
                type="radio"
                value={g}
                aria-invalid={errors.gender ? true : undefined}
                {...form.register('gender')}
              />
              <span>{GENDER_LABELS[g]}</span>
            </label>
          ))}
        </div>
        {errors.gender ? (
          <p id={genderErrorId} className="field__error" role="alert">
            {errors.gender.message}
          </p>
        ) : null}
      </fieldset>
    </>
  );
}
