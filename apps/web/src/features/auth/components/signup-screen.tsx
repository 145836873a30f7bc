import { MINIMUM_AGE, SignupFormSchema, type SignupFormValues } from '@candor/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import { AuthCard, Field, FormAlert, useFormFailure } from '../../../components/form';
import { PageHead } from '../../../components/page-head';
import { accountsApi } from '../api/accounts';
import { PhoneNumberField } from '../../../components/phone-field';
import { useFlowStore } from '../stores/flow-store';
import { useAuthStore } from '../../../lib/auth-store';
import { dismissErrorToasts } from '../../../lib/toasts';
import { rememberSignupProfile } from '../../../lib/signup-profile';
import { ProfileFields, type ProfileForm } from '../../../components/profile-fields';

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
  const form = useForm<SignupFormValues>({
    resolver: zodResolver(SignupFormSchema),
    defaultValues: { phone_number: '', name: '', country: 'US' },
    // Focus goes to the first invalid field in reading order (useFormFailure).
    shouldFocusError: false,
  });
  const { errors, isSubmitting, dirtyFields } = form.formState;
  const { formRef, tries, alert, start, invalid, refused } = useFormFailure(form.setError, FIELDS);

  const onSubmit = form.handleSubmit(async (values) => {
    start();
    const { year_of_birth: yearOfBirth, gender, ...request } = values;
    try {
      // Gender and year of birth stay on this device (decision 020): never sent.
      await accountsApi.signup({ ...request, name: values.name === '' ? undefined : values.name });
      rememberSignupProfile(values.phone_number, { gender, yearOfBirth, country: values.country });
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
        <PhoneNumberField
          control={form.control}
          hint="We text you a 6-digit code."
          error={errors.phone_number?.message}
          onCountryChange={(country) => {
            // Until the person picks a country, it follows the phone number's.
            if (country && !dirtyFields.country) form.setValue('country', country);
          }}
        />
        <ProfileFields form={form as unknown as ProfileForm} />
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
          you compare yourself with people like you. Your year of birth and gender stay on your
          devices (and your encrypted vault): your answers carry only your age band and gender, and
          results never show groups of fewer than 10 people.
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
