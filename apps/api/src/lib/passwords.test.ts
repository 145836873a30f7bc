import { describe, expect, it } from 'vitest';
import { passwordSecrets } from '@candor/contracts';
import { burnPasswordCheck, hashPassword, passwordProblem, verifyPassword } from './passwords.js';

describe('password hashing (scrypt)', () => {
  it('stores the parameters and a 16-byte salt with the hash, and verifies', async () => {
    const stored = await hashPassword('correct horse battery staple');
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64url')).toHaveLength(32);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
    // Salted: the same password hashes differently each time.
    expect(await hashPassword('correct horse battery staple')).not.toBe(stored);
  });

  it('does not truncate long passphrases', async () => {
    const long = 'x'.repeat(1023) + 'a';
    const stored = await hashPassword(long);
    expect(await verifyPassword(long, stored)).toBe(true);
    expect(await verifyPassword('x'.repeat(1023) + 'b', stored)).toBe(false);
  });

  it('never matches a malformed stored hash', async () => {
    expect(await verifyPassword('anything', 'bcrypt$whatever')).toBe(false);
    expect(await verifyPassword('anything', 'scrypt$x$8$1$c2FsdA$aGFzaA')).toBe(false);
    expect(await burnPasswordCheck('anything')).toBe(false);
  });
});

describe('passwordProblem', () => {
  it('accepts long or odd passwords with no composition rules', () => {
    expect(passwordProblem('correct horse battery staple')).toBeNull();
    expect(passwordProblem('lowercaseonlybutlong')).toBeNull();
    expect(passwordProblem('ü'.repeat(4) + 'ñandú!')).toBeNull();
  });

  it("takes the web app's login secret as it is: the device checked the password", async () => {
    const { login } = await passwordSecrets('iloveyou', '+447700900123');
    expect(passwordProblem(login)).toBeNull();
    // What a client that is not the web app sends is still checked as a password.
    expect(passwordProblem('iloveyou')).toMatch(/too common/);
  });

  it('refuses short, overlong and common passwords with a reason', () => {
    expect(passwordProblem('short')).toBe('Use at least 8 characters.');
    expect(passwordProblem('a'.repeat(1025))).toBe('Use at most 1024 characters.');
    for (const common of [
      'password',
      'Password1',
      '12345678',
      'iloveyou',
      'qwertyuiop',
      'zzzzzzzzzz',
    ]) {
      expect(passwordProblem(common)).toMatch(/^This password is too common: /);
    }
  });
});
