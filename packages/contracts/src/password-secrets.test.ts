import { describe, expect, it } from 'vitest';
import {
  isLoginSecret,
  passwordProblem,
  passwordSecrets,
  type SecretKey,
} from './password-secrets.js';

const NUMBER = '+447700900123';

// WebCrypto keys cannot be read back: a root is compared by what it derives.
async function rootBytes(root: SecretKey): Promise<string> {
  const bits = await globalThis.crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(16), info: new Uint8Array(0) },
    root,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    true,
    ['sign'],
  );
  return Buffer.from(await globalThis.crypto.subtle.exportKey('raw', bits)).toString('hex');
}

describe('passwordSecrets', () => {
  it('is the same on every device for a password and a number, and differs when either does', async () => {
    const a = await passwordSecrets('correct horse battery staple', NUMBER);
    const again = await passwordSecrets('correct horse battery staple', NUMBER);
    const otherNumber = await passwordSecrets('correct horse battery staple', '+447700900124');
    const otherPassword = await passwordSecrets('correct horse battery stapler', NUMBER);
    expect(isLoginSecret(a.login)).toBe(true);
    expect(again.login).toBe(a.login);
    expect(await rootBytes(again.vaultRoot)).toBe(await rootBytes(a.vaultRoot));
    expect(otherNumber.login).not.toBe(a.login);
    expect(otherPassword.login).not.toBe(a.login);
    expect(await rootBytes(otherNumber.vaultRoot)).not.toBe(await rootBytes(a.vaultRoot));
  });

  it('reads a password the same in either Unicode form (as the server normalised it)', async () => {
    const composed = await passwordSecrets('ma\u00f1ana es otro d\u00eda', NUMBER);
    const decomposed = await passwordSecrets('man\u0303ana es otro di\u0301a', NUMBER);
    expect(decomposed.login).toBe(composed.login);
  });

  it('sends nothing that contains the password, and the root cannot be exported', async () => {
    const password = 'a passphrase nobody else knows';
    const { login, vaultRoot } = await passwordSecrets(password, NUMBER);
    expect(login).not.toContain(password);
    expect(login).toMatch(/^cs1\.[A-Za-z0-9_-]{43}$/);
    expect(vaultRoot.extractable).toBe(false);
    await expect(globalThis.crypto.subtle.exportKey('raw', vaultRoot)).rejects.toThrow();
  });
});

describe('passwordProblem', () => {
  const common = new Set(['iloveyou', 'password1']);
  it('refuses short, long, listed and one-character passwords, in words', () => {
    expect(passwordProblem('short', common)).toBe('Use at least 8 characters.');
    expect(passwordProblem('x'.repeat(1025), common)).toBe('Use at most 1024 characters.');
    expect(passwordProblem('ILoveYou', common)).toMatch(/too common: it is on a list/);
    expect(passwordProblem('zzzzzzzzzz', common)).toMatch(/repeats one character/);
    expect(passwordProblem('correct horse battery staple', common)).toBeNull();
  });
});
