import { type TokenPair, type TotpEnrolment, TotpLoginRequestSchema } from '@candor/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Suspense, lazy, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import type { z } from 'zod';
import { AuthCard, Field, FormAlert, useFocusFirstInvalid } from '../../../components/form';
import { PageHead } from '../../../components/page-head';
import { ApiError } from '../../../lib/api-client';
import { useAuthStore } from '../../../lib/auth-store';
import { PasskeyCancelledError, passkeyAssertion, passkeysAvailable } from '../../../lib/passkeys';
import { afterLoginPath } from '../../../lib/survey-storage';
import { dismissErrorToasts, successToast } from '../../../lib/toasts';
import { accountsApi } from '../api/accounts';
import { useFlowStore } from '../stores/flow-store';
import '../styles/auth.css';

// The QR code's encoder loads with this screen's enrolment only: staff, once.
const TotpQr = lazy(() => import('./totp-qr'));

const FormSchema = TotpLoginRequestSchema.pick({ code: true });

/** The key as authenticator apps show it: groups of four, easier to copy by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

const PASSKEY_CANCELLED =
  'Your passkey did not answer (the prompt was closed, or this device has none of yours). Try again, or enter a code.';

/**
 * A staff login's second step (decision 024), after a right password: at the first login, set
 * up an authenticator app (QR code, or the key typed in) and confirm it with a first code, then
 * a passkey is offered (/login/passkey); afterwards, the account's passkey when it has one and
 * the browser can use it, else (or as the fallback) the app's current code. The challenge lives
 * in memory only: a reload goes back to the password.
 */
export function SecondFactorScreen() {
  const navigate = useNavigate();
  const step = useFlowStore((s) => s.secondFactor);
  const startSession = useAuthStore((s) => s.startSession);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const [askingPasskey, setAskingPasskey] = useState(false);
  const { formRef, failed, tries } = useFocusFirstInvalid();
  const form = useForm<z.infer<typeof FormSchema>>({
    resolver: zodResolver(FormSchema),
    defaultValues: { code: '' },
    shouldFocusError: false,
  });
  const { errors, isSubmitting } = form.formState;

  /** A refusal: a wrong code beside the field; an expired step or a wait in the card. */
  const refused = (err: unknown) => {
    if (err instanceof ApiError && err.code === 'OTP_INVALID') {
      form.setError('code', { type: 'server', message: err.message });
      setAlert(null);
    } else {
      if (err instanceof ApiError && err.code === 'TOKEN_INVALID') setExpired(true);
      setAlert(err instanceof Error ? err.message : 'Something went wrong. Please try again.');
    }
    failed();
  };

  const challenge = step?.challenge;
  const enrol = step?.enrol === true;
  useEffect(() => {
    if (!challenge || !enrol) return;
    let current = true;
    accountsApi.enrolTotp({ challenge }).then(
      (made) => current && setEnrolment(made),
      (err: unknown) => current && refused(err),
    );
    return () => {
      current = false;
    };
    // Once per challenge: asking again would replace the key being scanned.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [challenge, enrol]);

  if (!step) return <Navigate to="/login" replace />;

  const withPasskey = !enrol && step.methods.includes('passkey') && passkeysAvailable();

  /** A session: the vault opens with the password held since the first step. */
  const loggedIn = async (tokens: TokenPair) => {
    await startSession(tokens);
    dismissErrorToasts();
    successToast('Logged In');
    // Just set up the app: offer a passkey for the next logins (where the browser can make one).
    // The step is forgotten once this screen is left: forgotten before, it would go back to the
    // password while the next screen loads.
    await navigate(enrol && passkeysAvailable() ? '/login/passkey' : afterLoginPath(), {
      replace: true,
    });
    useFlowStore.getState().reset();
  };

  const onSubmit = form.handleSubmit(async ({ code }) => {
    setAlert(null);
    try {
      await loggedIn(await accountsApi.logInWithTotp({ challenge: step.challenge, code }));
    } catch (err) {
      refused(err);
    }
  }, failed);

  const onPasskey = async () => {
    setAlert(null);
    setAskingPasskey(true);
    try {
      const options = await accountsApi.passkeyOptions({ challenge: step.challenge });
      const response = await passkeyAssertion(options);
      await loggedIn(await accountsApi.logInWithPasskey({ challenge: step.challenge, response }));
    } catch (err) {
      if (err instanceof PasskeyCancelledError) {
        setAlert(PASSKEY_CANCELLED);
        failed();
      } else {
        refused(err);
      }
    } finally {
      setAskingPasskey(false);
    }
  };

  const codeForm = (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="form">
      <Field
        label={enrol ? 'First code from the app' : '6-digit code'}
        hint={enrol ? undefined : 'From your authenticator app. Each code works once.'}
        error={errors.code?.message}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input input--code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            autoFocus={!enrol && !withPasskey}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            {...form.register('code', { setValueAs: (v: string) => v.replace(/\D/g, '') })}
          />
        )}
      </Field>
      <button
        type="submit"
        className={`button button--block${withPasskey ? '' : ' button--primary'}`}
        disabled={isSubmitting || askingPasskey || expired || (enrol && !enrolment)}
      >
        {isSubmitting ? 'Checking…' : enrol ? 'Turn on and log in' : 'Log in'}
      </button>
    </form>
  );

  const footer = (
    <p>
      {expired ? 'Start again: ' : 'Not you? '}
      <Link to="/login" replace>
        Log in again
      </Link>
    </p>
  );

  if (withPasskey) {
    return (
      <AuthCard
        title="Use your passkey"
        lead={
          <p>
            Staff accounts need a second step. Use the passkey you added for Candor: your
            fingerprint, face, screen lock or security key.
          </p>
        }
        footer={
          <>
            {footer}
            <p className="second-factor__help">
              Lost your passkey and your phone? Ask another admin to reset your second factor.
            </p>
          </>
        }
      >
        <PageHead title="Use your passkey" />
        <FormAlert message={alert} tries={tries} />
        <div className="form">
          <button
            type="button"
            className="button button--primary button--block"
            disabled={askingPasskey || isSubmitting || expired}
            autoFocus
            onClick={() => void onPasskey()}
          >
            {askingPasskey ? 'Waiting for your passkey…' : 'Use your passkey'}
          </button>
        </div>
        <p className="second-factor__or">or use a code</p>
        {codeForm}
      </AuthCard>
    );
  }

  if (!enrol) {
    return (
      <AuthCard
        title="Enter your code"
        lead={<p>Staff accounts need a second step. Open your authenticator app for Candor.</p>}
        footer={
          <>
            {footer}
            <p className="second-factor__help">
              Lost your phone? Ask another admin to reset your second factor.
            </p>
          </>
        }
      >
        <PageHead title="Enter your code" />
        <FormAlert message={alert} tries={tries} />
        {codeForm}
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Set up your authenticator"
      lead={
        <p>
          Staff accounts need a second step at every login. Add Candor to an authenticator app (such
          as 1Password, Google Authenticator or Microsoft Authenticator) on your phone.
        </p>
      }
      footer={footer}
    >
      <PageHead title="Set up your authenticator" />
      <FormAlert message={alert} tries={tries} />
      <ol className="second-factor__steps">
        <li>
          <p>Scan this code with the app:</p>
          <div className="second-factor__qr" aria-busy={!enrolment}>
            {enrolment && (
              <Suspense fallback={null}>
                <TotpQr uri={enrolment.uri} />
              </Suspense>
            )}
          </div>
          <p className="second-factor__alt">Can’t scan it? Type this setup key into the app:</p>
          <code className="second-factor__key">{enrolment ? grouped(enrolment.secret) : '…'}</code>
          {enrolment && (
            <p className="second-factor__alt">
              Setting up on this phone? <a href={enrolment.uri}>Open the key in your app</a>.
            </p>
          )}
        </li>
        <li>
          <p>Enter the 6-digit code the app shows for Candor.</p>
          {codeForm}
        </li>
      </ol>
    </AuthCard>
  );
}
