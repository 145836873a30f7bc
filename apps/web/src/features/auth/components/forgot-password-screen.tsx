import { type ForgotPasswordRequest, ForgotPasswordRequestSchema } from '@candor/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { AuthCard, FormAlert, useFormFailure } from '../../../components/form';
import { PageHead } from '../../../components/page-head';
import { accountsApi } from '../api/accounts';
import { PhoneNumberField } from '../../../components/phone-field';
import { useFlowStore } from '../stores/flow-store';
import { dismissErrorToasts } from '../../../lib/toasts';

export function ForgotPasswordScreen() {
  const navigate = useNavigate();
  const codeSent = useFlowStore((s) => s.codeSent);
  // The number of this tab's signup or reset, if any (a reload on "Choose a password").
  const known = useFlowStore((s) => s.phone);
  const form = useForm<ForgotPasswordRequest>({
    resolver: zodResolver(ForgotPasswordRequestSchema),
    defaultValues: { phone_number: known ?? '' },
    shouldFocusError: false,
  });
  const { errors, isSubmitting } = form.formState;
  const { formRef, tries, alert, start, invalid, refused } = useFormFailure(form.setError, [
    'phone_number',
  ]);

  const onSubmit = form.handleSubmit(async (values) => {
    start();
    try {
      await accountsApi.forgotPassword(values);
      dismissErrorToasts();
      codeSent(values.phone_number, 'reset');
      await navigate('/verify');
    } catch (err) {
      refused(err);
    }
  }, invalid);

  return (
    <AuthCard
      title="Reset your password"
      lead={<p>Enter the number you signed up with. If it has an account, we text it a code.</p>}
      footer={
        <p>
          Remembered it? <Link to="/login">Log in</Link>
        </p>
      }
    >
      <PageHead title="Reset your password" />
      <FormAlert message={alert} tries={tries} />
      <form ref={formRef} onSubmit={onSubmit} noValidate className="form">
        <PhoneNumberField control={form.control} error={errors.phone_number?.message} />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={isSubmitting}
        >
          {isSubmitting ? 'Sending…' : 'Send me a code'}
        </button>
      </form>
    </AuthCard>
  );
}
