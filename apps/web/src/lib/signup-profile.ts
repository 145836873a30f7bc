import type { OwnProfile } from './local-answers';

// The sign-up screen asks for gender, year of birth and country, but they are not sent
// (decision 020, slice 2): they wait in this tab for the account's first login here, which
// keeps them on the device (and in the vault). Tied to the number signed up with, so another
// person logging in in this tab does not take them.
const KEY = 'candor.signupProfile';

const digits = (phone: string) => phone.replace(/\D/g, '');

export function rememberSignupProfile(phone: string, profile: OwnProfile): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ phone: digits(phone), profile }));
  } catch {
    // Storage refused: the member is asked again in their mirror.
  }
}

/** The profile given at sign-up with `phone`, taken (read once); null otherwise. */
export function takeSignupProfile(phone: string): OwnProfile | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const saved = JSON.parse(raw) as { phone?: string; profile?: OwnProfile };
    if (saved.phone !== digits(phone) || !saved.profile) return null;
    sessionStorage.removeItem(KEY);
    return saved.profile;
  } catch {
    return null;
  }
}
