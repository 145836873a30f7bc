import type { OtpPurpose, SecondFactorRequired } from '@candor/contracts';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

interface FlowState {
  /** The number a code was sent to (kept for this tab, so a reload keeps the code screen). */
  phone: string | null;
  purpose: OtpPurpose;
  /** When the last code was sent (ms), for the resend countdown. */
  sentAt: number | null;
  /** Authorises set-password after a correct code; memory only, never stored. */
  passwordToken: string | null;
  /** A staff login's second step (its challenge); memory only, never stored. */
  secondFactor: SecondFactorRequired | null;
  codeSent: (phone: string, purpose: OtpPurpose) => void;
  verified: (passwordToken: string | null) => void;
  secondStep: (step: SecondFactorRequired | null) => void;
  reset: () => void;
}

/** State handed from one screen of the signup / reset flow to the next. */
export const useFlowStore = create<FlowState>()(
  persist(
    (set) => ({
      phone: null,
      purpose: 'signup',
      sentAt: null,
      passwordToken: null,
      secondFactor: null,
      codeSent: (phone, purpose) =>
        set({ phone, purpose, sentAt: Date.now(), passwordToken: null }),
      verified: (passwordToken) => set({ passwordToken }),
      secondStep: (secondFactor) => set({ secondFactor }),
      reset: () =>
        set({
          phone: null,
          purpose: 'signup',
          sentAt: null,
          passwordToken: null,
          secondFactor: null,
        }),
    }),
    {
      name: 'candor.flow',
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ phone, purpose, sentAt }) => ({ phone, purpose, sentAt }),
    },
  ),
);
