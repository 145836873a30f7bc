import type { OtpPurpose } from '@candor/contracts';
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
  codeSent: (phone: string, purpose: OtpPurpose) => void;
  verified: (passwordToken: string | null) => void;
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
      codeSent: (phone, purpose) =>
        set({ phone, purpose, sentAt: Date.now(), passwordToken: null }),
      verified: (passwordToken) => set({ passwordToken }),
      reset: () => set({ phone: null, purpose: 'signup', sentAt: null, passwordToken: null }),
    }),
    {
      name: 'candor.flow',
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ phone, purpose, sentAt }) => ({ phone, purpose, sentAt }),
    },
  ),
);
