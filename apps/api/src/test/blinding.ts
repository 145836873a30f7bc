import crypto from 'node:crypto';
import { suite } from '../modules/credentials/blind-signer.js';

/**
 * The device's side, for tests and the benches (the web app runs the same library): a prepared
 * message, blinded for `spki`, and how to finalize the server's blind signature into a
 * credential header value.
 */
export async function blindForTest(spki: Buffer) {
  const publicKey = await crypto.subtle.importKey(
    'spki',
    spki,
    { name: 'RSA-PSS', hash: 'SHA-384' },
    true,
    ['verify'],
  );
  const s = suite();
  const prepared = s.prepare(crypto.getRandomValues(new Uint8Array(32)));
  const { blindedMsg, inv } = await s.blind(publicKey, prepared);
  return {
    blindedMsg: Buffer.from(blindedMsg),
    async finalize(blindSig: Buffer): Promise<string> {
      const sig = await s.finalize(publicKey, prepared, new Uint8Array(blindSig), inv);
      return `${Buffer.from(prepared).toString('base64url')}.${Buffer.from(sig).toString('base64url')}`;
    },
  };
}
