import { OtpSchema, newCodeIn } from '@candor/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { formatPhoneNumberIntl } from 'react-phone-number-input';
import { Link, Navigate, useNavigate } from 'react-router';
import { dismissErrorToasts, successToast } from '../../../lib/toasts';
import { z } from 'zod';
import { AuthCard, Field, FormAlert, useFocusFirstInvalid } from '../../../components/form';
import { PageHead } from '../../../components/page-head';
import { accountsApi } from '../api/accounts';
import { ApiError } from '../../../lib/api-client';
import { applyServerErrors } from '../../../lib/form-errors';
import { useAuthStore } from '../../../lib/auth-store';
import { useFlowStore } from '../stores/flow-store';
import '../styles/auth.css';

const RESEND_AFTER_SECONDS = 60;
const FormSchema = z.object({ otp: OtpSchema });

/** Seconds until `until` (ms), ticking every second; 0 once it has passed. */
function useSecondsUntil(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (until === null) return 0;
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** A refusal to wait out (a locked code, the texts' allowance): until when, by the API's clock. */
const waitOf = (err: unknown): number | null =>
  err instanceof ApiError && err.code === 'RATE_LIMITED' && err.retryAfterSeconds
    ? Date.now() + err.retryAfterSeconds * 1000
    : null;

/** The code screen of signup and password reset, with a resend countdown. */
export function VerifyScreen() {
  const navigate = useNavigate();
  const { phone, purpose, sentAt, codeSent, verified } = useFlowStore();
  const startSession = useAuthStore((s) => s.startSession);
  const form = useForm<z.infer<typeof FormSchema>>({
    resolver: zodResolver(FormSchema),
    defaultValues: { otp: '' },
    shouldFocusError: false,
  });
  const { errors, isSubmitting } = form.formState;
  const { formRef, failed, tries } = useFocusFirstInvalid();
  const [alert, setAlert] = useState<string | null>(null);
  // Until when no new code can be had: the API's wait after a refusal, else the resend pause.
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const resendAt = sentAt === null ? null : sentAt + RESEND_AFTER_SECONDS * 1000;
  const wait = useSecondsUntil(Math.max(waitUntil ?? 0, resendAt ?? 0) || null);
  const [resending, setResending] = useState(false);

  /**
   * A refused code: said beside the code (kept, marked invalid). A refused resend, or anything
   * else: in the card. A wait either gives is counted down under the form.
   */
  const refused = (err: unknown, what: 'code' | 'resend') => {
    const until = waitOf(err);
    if (until !== null) setWaitUntil(until);
    if (what === 'code' && err instanceof ApiError && (err.code === 'OTP_INVALID' || until)) {
      // Wrong, expired, or past its tries ("Ask for a new code"): all about the code.
      form.setError('otp', { type: 'server', message: err.message });
      setAlert(null);
    } else {
      const rest = applyServerErrors(
        err,
        form.setError,
        ['otp'],
        'Something went wrong. Please try again.',
      );
      setAlert(rest.join(' ') || null);
    }
    failed();
  };

  if (!phone) return <Navigate to={purpose === 'reset' ? '/forgot-password' : '/signup'} replace />;

  const onSubmit = form.handleSubmit(async ({ otp }) => {
    setAlert(null);
    try {
      const result = await accountsApi.verify({ phone_number: phone, otp, purpose });
      dismissErrorToasts();
      if (result.status === 'password_required') {
        verified(result.password_token);
        await navigate('/set-password');
      } else if (result.status === 'second_factor_required') {
        useFlowStore.getState().secondStep(result);
        await navigate('/login/code');
      } else {
        await startSession(result);
        useFlowStore.getState().reset();
        await navigate('/welcome', { replace: true });
      }
    } catch (err) {
      refused(err, 'code');
    }
  }, failed);

  const resend = async () => {
    setResending(true);
    setAlert(null);
    try {
      await accountsApi.resend({ phone_number: phone, purpose });
      codeSent(phone, purpose);
      setWaitUntil(null);
      form.clearErrors('otp');
      form.setValue('otp', '');
      // The button that was pressed gives way to the countdown: on to the new code's field.
      form.setFocus('otp');
      successToast(
        purpose === 'reset'
          ? 'If this number has an account, a new code is on its way.'
          : 'A new code is on its way.',
      );
    } catch (err) {
      refused(err, 'resend');
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
      <FormAlert message={alert} tries={tries} />
      <form ref={formRef} onSubmit={onSubmit} noValidate className="form">
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
          // Said in the words of the API's refusal, so the two never disagree.
          <span>{newCodeIn(wait)}</span>
        ) : (
          <button type="button" className="link-button" onClick={resend} disabled={resending}>
            {resending ? 'Sending…' : 'Send me a new code'}
          </button>
        )}
      </p>
    </AuthCard>
  );
}
