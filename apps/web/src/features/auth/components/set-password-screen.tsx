import { PASSWORD_MIN_LENGTH, PasswordSchema, needsSecondFactor } from '@candor/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { dismissErrorToasts, successToast } from '../../../lib/toasts';
import { z } from 'zod';
import { AuthCard, Field, FormAlert, useFormFailure } from '../../../components/form';
import { PageHead } from '../../../components/page-head';
import { accountsApi } from '../api/accounts';
import { PasswordInput } from '../../../components/password-input';
import { useAuthStore } from '../../../lib/auth-store';
import { useFlowStore } from '../stores/flow-store';
import { afterLoginPath } from '../../../lib/survey-storage';
import { loadCommonPasswords, newPasswordProblem, secretsFor } from '../../../lib/password-secrets';
import '../styles/auth.css';

const FormSchema = z.object({ password: PasswordSchema });

/** Choose a password after a verified code (signup or reset); rules shown as the person types. */
export function SetPasswordScreen() {
  const navigate = useNavigate();
  const { passwordToken, purpose, phone } = useFlowStore();
  const startSession = useAuthStore((s) => s.startSession);
  const form = useForm<z.infer<typeof FormSchema>>({
    resolver: zodResolver(FormSchema),
    defaultValues: { password: '' },
    // Checked when saved, then as the person types: an error drawn on blur pushed the button
    // down under a pressed pointer, and the click that blurred the field missed it.
    shouldFocusError: false,
  });
  const { errors, isSubmitting } = form.formState;
  // The common-password list (about 200 kB) downloads while the person types.
  useEffect(() => {
    void loadCommonPasswords().catch(() => undefined);
  }, []);
  const password = useWatch({ control: form.control, name: 'password' });
  const { formRef, tries, alert, start, invalid, refused } = useFormFailure(form.setError, [
    'password',
  ]);

  if (!passwordToken || !phone) {
    return (
      <AuthCard title="Verify your number first">
        <PageHead title="Choose a password" />
        <p>For your security, choosing a password needs a fresh code. It only takes a minute.</p>
        {/* A reload here loses the verified code, not the account it made: signing up again
            would text "you already have an account", so the way on is a reset's code. */}
        <Link className="button button--primary button--block" to="/forgot-password">
          Send me a new code
        </Link>
      </AuthCard>
    );
  }

  const onSubmit = form.handleSubmit(async ({ password: chosen }) => {
    start();
    try {
      // The server sees only the login secret (decision 020), so the password's own rule and the
      // common-password list are checked here, where the password is.
      const problem = await newPasswordProblem(chosen);
      if (problem) {
        form.setError('password', { type: 'device', message: problem }, { shouldFocus: true });
        return;
      }
      const { login, vaultRoot } = await secretsFor(chosen, phone);
      const typed = { vaultRoot, password: chosen };
      const signedIn = await accountsApi.setPassword({
        password_token: passwordToken,
        password: login,
      });
      if (needsSecondFactor(signedIn)) {
        // Staff: a texted code is not their second factor (decision 024).
        await useAuthStore.getState().holdVaultSecret(typed);
        dismissErrorToasts();
        useFlowStore.getState().secondStep(signedIn);
        await navigate('/login/code', { replace: true });
        return;
      }
      await startSession(signedIn, { secret: typed });
      dismissErrorToasts();
      useFlowStore.getState().reset();
      if (purpose === 'reset') {
        successToast('Password changed. Logged In');
        await navigate(afterLoginPath(), { replace: true });
      } else {
        await navigate('/welcome', { replace: true });
      }
    } catch (err) {
      refused(err);
    }
  }, invalid);

  const longEnough = password.length >= PASSWORD_MIN_LENGTH;
  return (
    <AuthCard
      title={purpose === 'reset' ? 'Choose a new password' : 'Choose a password'}
      lead={<p>Your number is verified. One last step.</p>}
    >
      <PageHead title="Choose a password" />
      <FormAlert message={alert} tries={tries} />
      <form ref={formRef} onSubmit={onSubmit} noValidate className="form">
        <Field
          label="Password"
          error={errors.password?.message}
          hint={
            <ul className="rules" aria-live="polite">
              <li className={longEnough ? 'rules__ok' : undefined}>
                {longEnough ? '✓ ' : ''}At least {PASSWORD_MIN_LENGTH} characters
              </li>
              <li>Not a commonly used password (we check when you save)</li>
              <li>Long passphrases welcome; no need for symbols or digits</li>
            </ul>
          }
        >
          {({ id, describedBy, invalid }) => (
            <PasswordInput
              id={id}
              autoComplete="new-password"
              autoFocus
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
          {isSubmitting ? 'Saving…' : 'Save and continue'}
        </button>
      </form>
    </AuthCard>
  );
}
