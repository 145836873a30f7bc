import type {
  CodeSent,
  ForgotPasswordRequest,
  ResendOtpRequest,
  SetPasswordRequest,
  SignupRequest,
  TokenPair,
  VerifyRequest,
  VerifyResponse,
} from '@candor/contracts';
import { apiPost } from '../../../lib/api-client';

/** The account calls of the signup, verification and reset flows. */
export const accountsApi = {
  signup: (body: SignupRequest) => apiPost<CodeSent>('/v1/user/create/', body),
  verify: (body: VerifyRequest) => apiPost<VerifyResponse>('/v1/user/verify/', body),
  resend: (body: ResendOtpRequest) => apiPost<CodeSent>('/v1/user/resend-otp/', body),
  setPassword: (body: SetPasswordRequest) => apiPost<TokenPair>('/v1/user/set-password/', body),
  forgotPassword: (body: ForgotPasswordRequest) =>
    apiPost<CodeSent>('/v1/user/forgot-password/', body),
};
