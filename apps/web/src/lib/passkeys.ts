import type {
  Passkey,
  PasskeyAssertion,
  PasskeyAttestation,
  PasskeyLoginOptions,
  PasskeyRegistrationOptions,
} from '@candor/contracts';
import { apiPost } from './api-client';

// Passkeys (WebAuthn), a staff login's preferred second factor (decision 024). The browser
// library loads only when a passkey is used or added: staff, a few times a day.
const webauthn = () => import('@simplewebauthn/browser');

/**
 * Whether this page can use passkeys: a browser with WebAuthn, on a domain name (an RP id is
 * never an IP address, so a server reached as 127.0.0.1 offers codes only).
 */
export function passkeysAvailable(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    typeof window.PublicKeyCredential === 'function' &&
    !/^(\d{1,3}(\.\d{1,3}){3}|\[.*\])$/.test(window.location.hostname)
  );
}

/** The browser's passkey prompt did not give an answer (cancelled, timed out, no such passkey). */
export class PasskeyCancelledError extends Error {
  override name = 'PasskeyCancelledError';
}

/** navigator.credentials' own refusals (the person said no, or no passkey here answered). */
function refusal(err: unknown): never {
  if (
    err instanceof Error &&
    ['NotAllowedError', 'AbortError', 'InvalidStateError'].includes(err.name)
  ) {
    throw new PasskeyCancelledError(err.message);
  }
  throw err;
}

/** Asks the browser for a passkey's answer to a login's options. */
export async function passkeyAssertion(options: PasskeyLoginOptions): Promise<PasskeyAssertion> {
  const { startAuthentication } = await webauthn();
  return (await startAuthentication({ optionsJSON: options }).catch(refusal)) as PasskeyAssertion;
}

/**
 * Adds a passkey to the signed-in staff member's account: the API's options, the browser's new
 * credential, then the API keeps it (audited).
 */
export async function addPasskey(name?: string): Promise<Passkey> {
  const options = await apiPost<PasskeyRegistrationOptions>('/v1/admin/passkeys/options/', {});
  const { startRegistration } = await webauthn();
  const response = (await startRegistration({ optionsJSON: options }).catch(
    refusal,
  )) as PasskeyAttestation;
  return apiPost<Passkey>('/v1/admin/passkeys/', { response, ...(name ? { name } : {}) });
}
