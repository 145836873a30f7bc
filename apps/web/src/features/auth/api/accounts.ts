import type {
  CodeSent,
  ForgotPasswordRequest,
  LoginResponse,
  PasskeyLoginOptions,
  PasskeyLoginRequest,
  PasskeyOptionsRequest,
  ResendOtpRequest,
  SetPasswordRequest,
  SignupRequest,
  TokenPair,
  TotpEnrolRequest,
  TotpEnrolment,
  TotpLoginRequest,
  VerifyRequest,
  VerifyResponse,
} from '@candor/contracts';
import { apiPost } from '../../../lib/api-client';
import { deviceHeaders } from '../../../lib/device-token';

/** With this device's token for the number (decision 022): its tries count on their own. */
const asDevice = async <T>(path: string, body: { phone_number: string }) =>
  apiPost<T>(path, body, { headers: await deviceHeaders(body.phone_number) });

/** The account calls of the signup, verification and reset flows. */
export const accountsApi = {
  signup: (body: SignupRequest) => asDevice<CodeSent>('/v1/user/create/', body),
  verify: (body: VerifyRequest) => asDevice<VerifyResponse>('/v1/user/verify/', body),
  resend: (body: ResendOtpRequest) => asDevice<CodeSent>('/v1/user/resend-otp/', body),
  setPassword: (body: SetPasswordRequest) => apiPost<LoginResponse>('/v1/user/set-password/', body),
  forgotPassword: (body: ForgotPasswordRequest) =>
    asDevice<CodeSent>('/v1/user/forgot-password/', body),
  // A staff login's second step (decision 024): the challenge, never a bearer token.
  enrolTotp: (body: TotpEnrolRequest) =>
    apiPost<TotpEnrolment>('/token/totp/enrol/', body, { public: true }),
  logInWithTotp: (body: TotpLoginRequest) =>
    apiPost<TokenPair>('/token/totp/', body, { public: true }),
  passkeyOptions: (body: PasskeyOptionsRequest) =>
    apiPost<PasskeyLoginOptions>('/token/passkey/options/', body, { public: true }),
  logInWithPasskey: (body: PasskeyLoginRequest) =>
    apiPost<TokenPair>('/token/passkey/', body, { public: true }),
};
