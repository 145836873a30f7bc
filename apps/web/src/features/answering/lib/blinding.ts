import { RSABSSA } from '@cloudflare/blindrsa-ts';

/**
 * The device's half of RFC 9474 (RSABSSA-SHA384-PSS-Randomized), through
 * `@cloudflare/blindrsa-ts`: blind a fresh random message for a survey's key, then finalize the
 * server's blind signature into the credential. No RSA arithmetic is written here. Runs in a
 * worker (blind-worker.ts) so a login's batch of surveys never holds the page's main thread.
 */

const suite = () => RSABSSA.SHA384.PSS.Randomized();

const b64 = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const unb64 = (text: string) => {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
};

const importKey = (spki: string) =>
  crypto.subtle.importKey('spki', unb64(spki), { name: 'RSA-PSS', hash: 'SHA-384' }, true, [
    'verify',
  ]);

/** What the device keeps while its request is out: all base64url. */
export interface Blinded {
  /** The prepared message (RFC 9474: 32 random bytes, then the device's own 32). */
  prepared: string;
  /** What the server signs without reading it. */
  blinded: string;
  /** The blinding factor's inverse: finalizes the signature; never leaves the device. */
  inv: string;
}

export async function blind(spki: string): Promise<Blinded> {
  const s = suite();
  const prepared = s.prepare(crypto.getRandomValues(new Uint8Array(32)));
  const { blindedMsg, inv } = await s.blind(await importKey(spki), prepared);
  return { prepared: b64(prepared), blinded: b64(blindedMsg), inv: b64(inv) };
}

/**
 * The credential (`Candor-Credential`'s value, `<prepared>.<signature>`) from the server's blind
 * signature; throws when the signature does not verify under the survey's key.
 */
export async function finalize(spki: string, kept: Blinded, blindSig: string): Promise<string> {
  const sig = await suite().finalize(
    await importKey(spki),
    unb64(kept.prepared),
    unb64(blindSig),
    unb64(kept.inv),
  );
  return `${kept.prepared}.${b64(sig)}`;
}

export type BlindingOp =
  { op: 'blind'; spki: string } | { op: 'finalize'; spki: string; kept: Blinded; blindSig: string };
export type BlindingRequest = BlindingOp & { id: number };
export type BlindingReply =
  { id: number; ok: true; value: Blinded | string } | { id: number; ok: false; error: string };

/** One request of the worker's protocol, answered here (the worker, and where none can start). */
export async function handle(req: BlindingRequest): Promise<BlindingReply> {
  try {
    const value =
      req.op === 'blind' ? await blind(req.spki) : await finalize(req.spki, req.kept, req.blindSig);
    return { id: req.id, ok: true, value };
  } catch (err) {
    return { id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
