import {
  GENDER_LABELS,
  type Gender,
  GenderSchema,
  MINIMUM_AGE,
  type SignupRequest,
  SignupRequestSchema,
} from '@candor/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import { AuthCard, Field, FormAlert, useFormFailure } from '../../../components/form';
import { PageHead } from '../../../components/page-head';
import { accountsApi } from '../api/accounts';
import { PhoneField } from '../../../components/phone-field';
import { useFlowStore } from '../stores/flow-store';
import { countries } from '../../../lib/countries';
import { useAuthStore } from '../../../lib/auth-store';
import { dismissErrorToasts } from '../../../lib/toasts';

type SignupForm = Omit<SignupRequest, 'year_of_birth'> & { year_of_birth: number };

const FIELDS = ['phone_number', 'name', 'year_of_birth', 'gender', 'country'] as const;

export function SignupScreen() {
  // A member has signed up already: home, not a second account's form.
  const member = useAuthStore((s) => s.auth);
  if (member) return <Navigate to="/" replace />;
  return <SignupForm />;
}

function SignupForm() {
  const navigate = useNavigate();
  const codeSent = useFlowStore((s) => s.codeSent);
  const form = useForm<SignupForm>({
    resolver: zodResolver(SignupRequestSchema),
    defaultValues: { phone_number: '', name: '', country: 'US' },
    // Focus goes to the first invalid field in reading order (useFormFailure).
    shouldFocusError: false,
  });
  const { errors, isSubmitting, dirtyFields } = form.formState;
  const { formRef, tries, alert, start, invalid, refused } = useFormFailure(form.setError, FIELDS);
  const genderErrorId = `${useId()}-gender-error`;

  const onSubmit = form.handleSubmit(async (values) => {
    start();
    try {
      await accountsApi.signup({ ...values, name: values.name === '' ? undefined : values.name });
      dismissErrorToasts();
      codeSent(values.phone_number, 'signup');
      await navigate('/verify');
    } catch (err) {
      refused(err);
    }
  }, invalid);

  return (
    <AuthCard
      title="Sign up"
      lead={
        <p>
          Your phone number proves you are a real person, so bots cannot distort the results. It is
          never shown next to your answers.
        </p>
      }
      footer={
        <p>
          Already have an account? <Link to="/login">Log in</Link>
        </p>
      }
    >
      <PageHead title="Sign up" />
      <FormAlert message={alert} tries={tries} />
      <form ref={formRef} onSubmit={onSubmit} noValidate className="form">
        <Field
          label="Phone number"
          hint="We text you a 6-digit code."
          error={errors.phone_number?.message}
        >
          {({ id, describedBy, invalid }) => (
            <Controller
              control={form.control}
              name="phone_number"
              render={({ field }) => (
                <PhoneField
                  id={id}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  invalid={invalid}
                  describedBy={describedBy}
                  autoFocus
                  onCountryChange={(country) => {
                    // Until the person picks a country, it follows the phone number's.
                    if (country && !dirtyFields.country) form.setValue('country', country);
                  }}
                />
              )}
            />
          )}
        </Field>
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
                  setValueAs: (v: string) => (v.trim() === '' ? undefined : Number(v)),
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
        <Field label="Name (optional)" hint="Only you see it." error={errors.name?.message}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input"
              autoComplete="given-name"
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              {...form.register('name')}
            />
          )}
        </Field>
        <p className="form__note">
          Candor is for people aged {MINIMUM_AGE} and over. Year of birth, gender and country let
          you compare yourself with people like you; results never show groups of fewer than 10
          people.
        </p>
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={isSubmitting}
        >
          {isSubmitting ? 'Sending the code…' : 'Send me a code'}
        </button>
      </form>
    </AuthCard>
  );
}
