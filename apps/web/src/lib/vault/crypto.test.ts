import { type PasswordSecrets, passwordSecrets, VAULT_SIZES } from '@candor/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyVault, type VaultContents } from './contents';
import {
  fromBase64Url,
  generateDataKey,
  type KeyEnvelope,
  newWrappingKey,
  openVault,
  PBKDF2_ITERATIONS,
  deriveLegacyWrappingKey,
  readEnvelope,
  sealVault,
  toBase64Url,
  unwrapDataKey,
  deriveWrappingKey,
  VAULT_CAPACITY,
  wrapDataKey,
  wrappingKeyFor,
} from './crypto';
import { VaultError } from './errors';

const PASSWORD = 'correct horse battery staple';
const NUMBER = '+447700900123';

/** Contents whose JSON is exactly `bytes` long (one answer's text fills it). */
function contentsOfJsonLength(bytes: number): VaultContents {
  const base: VaultContents = {
    ...emptyVault('2026-11-26T10:00:00.000Z'),
    answers: [{ qid: 'q', gid: 'g', date: '2026-11-26', answer: '', isBlank: false }],
  };
  const fill = bytes - new TextEncoder().encode(JSON.stringify(base)).length;
  if (fill < 0) throw new Error('too small');
  base.answers[0]!.answer = 'x'.repeat(fill);
  expect(new TextEncoder().encode(JSON.stringify(base)).length).toBe(bytes);
  return base;
}

const sample: VaultContents = {
  v: 1,
  answers: [
    {
      qid: 'qid-secret-1',
      gid: 'gid-secret',
      date: '2026-11-20',
      answer: 'Über-secret answer',
      isBlank: false,
    },
  ],
  ratings: [{ qid: 'qid-secret-1', score: 4 }],
  credentials: [{ gid: 'gid-secret', keyId: 'key-1', token: 'prepared.signature' }],
  profile: { gender: 'female', yearOfBirth: 1990, country: 'FR' },
  updatedAt: '2026-11-26T10:00:00.000Z',
};

async function expectVaultError(promise: Promise<unknown>, code: string, message: RegExp) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VaultError);
  expect((err as VaultError).code).toBe(code);
  expect((err as VaultError).message).toMatch(message);
}

describe('the sealed vault', () => {
  let dataKey: CryptoKey;
  let envelope: KeyEnvelope;
  let secrets: PasswordSecrets;

  beforeAll(async () => {
    dataKey = await generateDataKey();
    secrets = await passwordSecrets(PASSWORD, NUMBER);
    envelope = await wrapDataKey(dataKey, await newWrappingKey(secrets.vaultRoot));
  });

  it('opens with the password to what was sealed, and base64url carries it unchanged', async () => {
    const blob = await sealVault(sample, dataKey, envelope);
    expect(blob.length).toBe(VAULT_SIZES[0]);
    const text = toBase64Url(blob);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    // The contract's own length rule accepts it.
    expect(Math.floor((text.length * 3) / 4)).toBe(VAULT_SIZES[0]);
    const back = fromBase64Url(text);
    const stored = readEnvelope(back);
    expect(stored).toMatchObject({ format: 2, iterations: 0 });
    const key = await unwrapDataKey(
      stored,
      await deriveWrappingKey(secrets.vaultRoot, stored.salt),
    );
    expect(await openVault(back, key)).toEqual(sample);
  });

  it('seals the same contents differently each time (fresh IV)', async () => {
    const a = toBase64Url(await sealVault(sample, dataKey, envelope));
    const b = toBase64Url(await sealVault(sample, dataKey, envelope));
    expect(a).not.toBe(b);
  });

  it('refuses another password with a clear error', async () => {
    const blob = await sealVault(sample, dataKey, envelope);
    const stored = readEnvelope(blob);
    const other = await passwordSecrets('another password entirely', NUMBER);
    await expectVaultError(
      unwrapDataKey(stored, await deriveWrappingKey(other.vaultRoot, stored.salt)),
      'VAULT_WRONG_PASSWORD',
      /sealed under another password/,
    );
    // The same password for another number is another root.
    const elsewhere = await passwordSecrets(PASSWORD, '+447700900124');
    await expectVaultError(
      unwrapDataKey(stored, await deriveWrappingKey(elsewhere.vaultRoot, stored.salt)),
      'VAULT_WRONG_PASSWORD',
      /sealed under another password/,
    );
  });

  it('refuses another data key, and any changed byte of the contents, the padding or the header', async () => {
    const blob = await sealVault(sample, dataKey, envelope);
    await expectVaultError(openVault(blob, await generateDataKey()), 'VAULT_UNREADABLE', /damaged/);
    // One byte in the contents, one in the padding (the end), one in the contents' IV, one in
    // the wrapped key: GCM refuses each.
    for (const at of [200, blob.length - 1, 85, 40]) {
      const tampered = blob.slice();
      tampered[at]! ^= 1;
      await expectVaultError(openVault(tampered, dataKey), 'VAULT_UNREADABLE', /damaged/);
    }
    // A changed salt changes the password's key: the wrapped key no longer unwraps.
    const salted = blob.slice();
    salted[7]! ^= 1;
    const stored = readEnvelope(salted);
    await expectVaultError(
      unwrapDataKey(stored, await deriveWrappingKey(secrets.vaultRoot, stored.salt)),
      'VAULT_WRONG_PASSWORD',
      /damaged/,
    );
  });

  it('refuses lengths, formats and iteration counts it does not write', async () => {
    const blob = await sealVault(sample, dataKey, envelope);
    expect(() => readEnvelope(blob.slice(0, 4000))).toThrow(/one of 4096/);
    const future = blob.slice();
    future[0] = 3;
    expect(() => readEnvelope(future)).toThrow(/format 3/);
    // Format 2 names no count; format 1 only a strong one.
    const counted = blob.slice();
    new DataView(counted.buffer).setUint32(1, PBKDF2_ITERATIONS);
    expect(() => readEnvelope(counted)).toThrow(/iteration count/);
    const weak = blob.slice();
    weak[0] = 1;
    new DataView(weak.buffer).setUint32(1, 1000);
    expect(() => readEnvelope(weak)).toThrow(/iteration count/);
    expect(() => fromBase64Url('not base64!')).toThrow(VaultError);
  });

  it('pads to the smallest allowed size that fits, at each boundary, and no further', async () => {
    for (const [i, size] of VAULT_SIZES.entries()) {
      const room = VAULT_CAPACITY[i]!;
      const full = await sealVault(contentsOfJsonLength(room), dataKey, envelope);
      expect(full.length).toBe(size);
      expect((await openVault(full, dataKey)).answers[0]!.answer.length).toBeGreaterThan(0);
      const next = VAULT_SIZES[i + 1];
      if (next !== undefined) {
        const over = await sealVault(contentsOfJsonLength(room + 1), dataKey, envelope);
        expect(over.length).toBe(next);
        expect(await openVault(over, dataKey)).toEqual(contentsOfJsonLength(room + 1));
      }
    }
    // The smallest vault of all, an empty one, is the smallest size.
    expect((await sealVault(emptyVault(), dataKey, envelope)).length).toBe(VAULT_SIZES[0]);
  });

  it('refuses contents larger than the largest size with a clear error', async () => {
    const room = VAULT_CAPACITY.at(-1)!;
    await expectVaultError(
      sealVault(contentsOfJsonLength(room + 1), dataKey, envelope),
      'VAULT_TOO_LARGE',
      /no longer fit the vault .*this device keeps them/,
    );
  });

  it('still opens a vault sealed before the root (format 1) with the password typed', async () => {
    const salt = globalThis.crypto.getRandomValues(new Uint8Array(16));
    const legacy = await wrapDataKey(dataKey, {
      key: await deriveLegacyWrappingKey(PASSWORD, salt),
      salt,
      format: 1,
      iterations: PBKDF2_ITERATIONS,
    });
    const blob = await sealVault(sample, dataKey, legacy);
    const stored = readEnvelope(blob);
    expect(stored).toMatchObject({ format: 1, iterations: PBKDF2_ITERATIONS });
    const key = await unwrapDataKey(
      stored,
      await wrappingKeyFor(stored, { ...secrets, password: PASSWORD }),
    );
    expect(await openVault(blob, key)).toEqual(sample);
  });

  it('does not open with what the server sees: the login secret, as a password or as a root', async () => {
    // The server holds the login secret (it is what a login sends) and the sealed vault; neither
    // the format 1 derivation nor HKDF over it opens the vault.
    const blob = await sealVault(sample, dataKey, envelope);
    const stored = readEnvelope(blob);
    const asPassword = await deriveLegacyWrappingKey(secrets.login, stored.salt);
    await expectVaultError(unwrapDataKey(stored, asPassword), 'VAULT_WRONG_PASSWORD', /another/);
    const loginBytes = new TextEncoder().encode(secrets.login);
    const asRoot = await globalThis.crypto.subtle.importKey('raw', loginBytes, 'HKDF', false, [
      'deriveKey',
    ]);
    await expectVaultError(
      unwrapDataKey(stored, await deriveWrappingKey(asRoot, stored.salt)),
      'VAULT_WRONG_PASSWORD',
      /another/,
    );
  });
});
