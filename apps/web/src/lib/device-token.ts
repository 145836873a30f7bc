/**
 * This device's tokens from the API (decision 022, OWASP "device cookies"): a login returns one
 * for its number in `Candor-Device`, and the web app sends it back on that number's next login
 * and recovery, so an attacker's failed tries from elsewhere never slow down or lock out the
 * owner's own device. A token authenticates nothing: the password or the code is still needed.
 *
 * Kept in localStorage per number, under a hash of the number (the number itself is not
 * written), at most a few numbers; "This is not my device" forgets them all. Logout keeps them:
 * the device stays one its owner used.
 */
export const DEVICE_HEADER = 'Candor-Device';
const STORAGE_KEY = 'candor.devices';
const MAX_NUMBERS = 8;

type Stored = Record<string, { token: string }>;

/** The number's slot: SHA-256 of it with a label, as the number was typed (digits and +). */
async function slotOf(phone: string): Promise<string | null> {
  const digits = phone.replace(/[^\d+]/g, '');
  if (!digits) return null;
  try {
    const digest = await crypto.subtle.digest(
      'SHA-256',
      new TextEncoder().encode(`candor device\n${digits}`),
    );
    return Array.from(new Uint8Array(digest).subarray(0, 16), (b) =>
      b.toString(16).padStart(2, '0'),
    ).join('');
  } catch {
    // No Web Crypto (a page not served over https): the device is not recognised.
    return null;
  }
}

function read(): Stored {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Stored) : {};
  } catch {
    return {};
  }
}

function write(stored: Stored): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // Storage refused (a private mode): the device is simply not recognised next time.
  }
}

/** The header to send with a login or recovery request for `phone` (none if unknown here). */
export async function deviceHeaders(phone: string): Promise<Record<string, string>> {
  const slot = await slotOf(phone);
  const token = slot ? read()[slot]?.token : undefined;
  return typeof token === 'string' ? { [DEVICE_HEADER]: token } : {};
}

/** Keeps the token a login returned for `phone`; the longest unused number goes past a few. */
export async function keepDeviceToken(phone: string, headers: Headers): Promise<void> {
  const token = headers.get(DEVICE_HEADER);
  const slot = await slotOf(phone);
  if (!token || !slot) return;
  // Oldest first (insertion order): the number moves to the end, the oldest go past a few.
  const others = Object.entries(read()).filter(([key]) => key !== slot);
  const newest = [...others, [slot, { token }] as const].slice(-MAX_NUMBERS);
  write(Object.fromEntries(newest));
}

/** Forgets every number's token ("This is not my device"). */
export function forgetDeviceTokens(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing kept.
  }
}
