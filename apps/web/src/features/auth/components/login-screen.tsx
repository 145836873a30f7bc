import { type LoginRequest, LoginRequestSchema, needsSecondFactor } from '@candor/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { successToast } from '../../../lib/toasts';
import { AuthCard, Field, FormAlert, useFormFailure } from '../../../components/form';
import { NotMyDeviceNote } from '../../../components/not-my-device';
import { PageHead } from '../../../components/page-head';
import { PhoneNumberField } from '../../../components/phone-field';
import { PasswordInput } from '../../../components/password-input';
import { useAuthStore } from '../../../lib/auth-store';
import { afterLoginPath } from '../../../lib/survey-storage';
import { useFlowStore } from '../stores/flow-store';

export function LoginScreen() {
  const login = useAuthStore((s) => s.login);
  const navigate = useNavigate();
  const form = useForm<LoginRequest>({
    resolver: zodResolver(LoginRequestSchema),
    defaultValues: { phone_number: '', password: '' },
    // Focus goes to the first invalid field in reading order (useFormFailure).
    shouldFocusError: false,
  });
  const { errors, isSubmitting } = form.formState;
  const { formRef, tries, alert, start, invalid, refused } = useFormFailure(form.setError, [
    'phone_number',
    'password',
  ]);

  const onSubmit = form.handleSubmit(async (values) => {
    start();
    try {
      const signedIn = await login(values);
      if (needsSecondFactor(signedIn)) {
        // Staff: the code from their authenticator comes next (decision 024).
        useFlowStore.getState().secondStep(signedIn);
        await navigate('/login/code');
        return;
      }
      successToast('Logged In');
      await navigate(afterLoginPath(), { replace: true });
    } catch (err) {
      refused(err);
    }
  }, invalid);

  return (
    <AuthCard
      title="Log in"
      lead={<p>Welcome back. Your answers stay anonymous; your number only proves you are you.</p>}
      footer={
        <>
          <p>
            New to Candor? <Link to="/signup">Sign up</Link>
          </p>
          <NotMyDeviceNote />
        </>
      }
    >
      <PageHead title="Log in" />
      <FormAlert message={alert} tries={tries} />
      <form ref={formRef} onSubmit={onSubmit} noValidate className="form">
        <PhoneNumberField control={form.control} error={errors.phone_number?.message} />
        <Field
          label="Password"
          error={errors.password?.message}
          hint={<Link to="/forgot-password">Forgot your password?</Link>}
        >
          {({ id, describedBy, invalid }) => (
            <PasswordInput
              id={id}
              autoComplete="current-password"
              describedBy={describedBy}
              invalid={invalid}
              {...form.register('password')}
            />
          )}
        </Field>
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={isSubmitting}
        >
          {isSubmitting ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </AuthCard>
  );
}
