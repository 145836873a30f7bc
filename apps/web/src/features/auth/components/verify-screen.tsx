import { OtpSchema } from '@candor/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { formatPhoneNumberIntl } from 'react-phone-number-input';
import { Link, Navigate, useNavigate } from 'react-router';
import { dismissErrorToasts, successToast } from '../../../lib/toasts';
import { z } from 'zod';
import { AuthCard, Field } from '../../../components/form';
import { PageHead } from '../../../components/page-head';
import { accountsApi } from '../api/accounts';
import { showServerErrors } from '../../../lib/form-errors';
import { useAuthStore } from '../../../lib/auth-store';
import { useFlowStore } from '../stores/flow-store';
import '../styles/auth.css';

const RESEND_AFTER_SECONDS = 60;
const FormSchema = z.object({ otp: OtpSchema });

function useSecondsUntil(from: number | null, seconds: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (from === null) return 0;
  return Math.max(0, Math.ceil((from + seconds * 1000 - now) / 1000));
}

/** The code screen of signup and password reset, with a resend countdown. */
export function VerifyScreen() {
  const navigate = useNavigate();
  const { phone, purpose, sentAt, codeSent, verified } = useFlowStore();
  const startSession = useAuthStore((s) => s.startSession);
  const form = useForm<z.infer<typeof FormSchema>>({
    resolver: zodResolver(FormSchema),
    defaultValues: { otp: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const wait = useSecondsUntil(sentAt, RESEND_AFTER_SECONDS);
  const [resending, setResending] = useState(false);

  if (!phone) return <Navigate to={purpose === 'reset' ? '/forgot-password' : '/signup'} replace />;

  const onSubmit = form.handleSubmit(async ({ otp }) => {
    try {
      const result = await accountsApi.verify({ phone_number: phone, otp, purpose });
      dismissErrorToasts();
      if (result.status === 'password_required') {
        verified(result.password_token);
        await navigate('/set-password');
      } else {
        await startSession(result);
        useFlowStore.getState().reset();
        await navigate('/welcome', { replace: true });
      }
    } catch (err) {
      form.setValue('otp', '');
      showServerErrors(err, form.setError, ['otp']);
    }
  });

  const resend = async () => {
    setResending(true);
    try {
      await accountsApi.resend({ phone_number: phone, purpose });
      codeSent(phone, purpose);
      successToast(
        purpose === 'reset'
          ? 'If this number has an account, a new code is on its way.'
          : 'A new code is on its way.',
      );
    } catch (err) {
      showServerErrors(err, form.setError, ['otp']);
    } finally {
      setResending(false);
    }
  };

  return (
    <AuthCard
      title="Enter your code"
      lead={
        purpose === 'reset' ? (
          // The API answers alike whether the number has an account or not (no account probing),
          // so the screen cannot claim a text was sent.
          <p>If this number has an account, we texted it a code. It expires in 10 minutes.</p>
        ) : (
          <p>
            We sent a 6-digit code to{' '}
            <strong className="nowrap">{formatPhoneNumberIntl(phone) || phone}</strong>. It expires
            in 10 minutes.
          </p>
        )
      }
      footer={
        purpose === 'reset' ? (
          <p>
            Not <strong className="nowrap">{formatPhoneNumberIntl(phone) || phone}</strong>?{' '}
            <Link to="/forgot-password">Change it</Link>
          </p>
        ) : (
          <p>
            Wrong number? <Link to="/signup">Change it</Link>
          </p>
        )
      }
    >
      <PageHead title="Enter your code" />
      <form onSubmit={onSubmit} noValidate className="form">
        <Field label="6-digit code" error={errors.otp?.message}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input input--code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              autoFocus
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              {...form.register('otp', {
                setValueAs: (v: string) => v.replace(/\D/g, ''),
              })}
            />
          )}
        </Field>
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={isSubmitting}
        >
          {isSubmitting ? 'Checking…' : 'Verify'}
        </button>
      </form>
      <p className="resend">
        {wait > 0 ? (
          <span aria-live="polite">You can ask for a new code in {wait} s.</span>
        ) : (
          <button type="button" className="link-button" onClick={resend} disabled={resending}>
            {resending ? 'Sending…' : 'Send me a new code'}
          </button>
        )}
      </p>
    </AuthCard>
  );
}
