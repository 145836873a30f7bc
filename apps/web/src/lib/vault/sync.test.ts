import 'fake-indexeddb/auto';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type LoginResponse,
  type TokenPair,
  type TotpEnrolment,
  VAULT_SIZES,
  type Vault,
  needsSecondFactor,
  passwordSecrets,
} from '@candor/contracts';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApiBase } from '../api-client';
import { storeTokens } from '../tokens';
import { emptyVault, mergeVaults, type VaultContents } from './contents';
import { fromBase64Url, openVault, sealVault, toBase64Url } from './crypto';
import { VaultError } from './errors';
import { deleteDeviceKey, findDeviceKey, saveDeviceKey } from './key-store';
import { unlockVault, useVaultStore } from './session';
import { startNewVault, SYNC_ATTEMPTS, syncVault } from './sync';

// The sync loop against the real API: the server from source (as apps/api's process tests
// start it), on PGlite in a temporary DATA_DIR, reached over HTTP like the browser reaches it.
// A web test imports nothing of the API: it only runs it.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const serverEntry = path.join(repoRoot, 'apps/api/src/server.ts');
const PHONE = '+12025550147';
const PASSWORDS = [
  'correct horse battery staple',
  'a second long passphrase',
  'third passphrase here',
];

/** What the login screen hands the vault for a password typed (the root, and the password). */
const typed = async (password: string) => ({
  vaultRoot: (await passwordSecrets(password, PHONE)).vaultRoot,
  password,
});

let child: ChildProcess;
let dataDir: string;
let origin = '';
let uuid = '';

async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

async function call<T>(method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${origin}/api${url}`, {
    method,
    headers: {
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json().catch(() => null)) as T;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Logs in over the API (as the login screen does) and stores the session's tokens. The account
 * is an admin (made by create-admin): its first login sets up an authenticator (decision 024),
 * whose code is computed here as the app would.
 */
async function login(password: string): Promise<void> {
  const { login: secret } = await passwordSecrets(password, PHONE);
  const step = await call<LoginResponse>('POST', '/token/', {
    phone_number: PHONE,
    password: secret,
  });
  let tokens: TokenPair;
  if (needsSecondFactor(step)) {
    const { secret } = await call<TotpEnrolment>('POST', '/token/totp/enrol/', {
      challenge: step.challenge,
    });
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    tokens = await call<TokenPair>('POST', '/token/totp/', { challenge: step.challenge, code });
  } else {
    tokens = step;
  }
  storeTokens(tokens);
  uuid = (await call<{ uuid: string }>('GET', '/v1/user/detail/', undefined, tokens.access)).uuid;
}

/**
 * The member, made as an operator makes the first one (`create-admin`, before the server holds
 * the data folder): the signup's texts are not what this file tests.
 */
async function createMember(env: NodeJS.ProcessEnv): Promise<void> {
  const cli = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'apps/api/src/cli/create-admin.ts'), '--phone', PHONE],
    {
      cwd: repoRoot,
      env: { ...env, CANDOR_ADMIN_PASSWORD: PASSWORDS[0] },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let out = '';
  cli.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(cli, 'exit')) as [number];
  if (code !== 0) throw new Error(`create-admin failed:\n${out}`);
}

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-vault-test-'));
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_DATABASE: 'pglite',
    SEED_SAMPLE_CONTENT: 'false',
    WEB_CONCURRENCY: '1',
    LOG_LEVEL: 'warn',
    REDIS_URL: '',
    PUBLIC_URL: '',
  };
  await createMember(env);
  child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: repoRoot,
    env,
    stdio: [
      'ignore',
      process.env.VAULT_TEST_SERVER_LOG
        ? fs.openSync(process.env.VAULT_TEST_SERVER_LOG, 'w')
        : 'ignore',
      'pipe',
    ],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const up = await fetch(`${origin}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no server:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  setApiBase(`${origin}/api`);
  await login(PASSWORDS[0]!);
}, 180_000);

async function stopServer(): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
}

afterAll(async () => {
  await stopServer();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const ANSWER_TEXT = 'my secret written answer about the neighbours';
const QID = '7a1c9f3e-0d4b-4c55-9a11-3f2b8e6d0c01';
const GID = 'c0ffee00-1234-4abc-8def-00000000beef';
const TOKEN = 'cHJlcGFyZWQtbWVzc2FnZQ.c2lnbmF0dXJlLW9mLXRoZS1zdXJ2ZXk';

/** A device's records in memory, read and applied as the answering feature will. */
function device(initial: VaultContents) {
  let records = initial;
  const applied: VaultContents[] = [];
  let reads = 0;
  return {
    read: () => {
      reads++;
      return Promise.resolve(records);
    },
    apply: (merged: VaultContents) => {
      applied.push(merged);
      records = merged;
      return Promise.resolve();
    },
    get records() {
      return records;
    },
    get reads() {
      return reads;
    },
    applied,
  };
}

const mine = device({
  ...emptyVault('2026-11-26T10:00:00.000Z'),
  answers: [{ qid: QID, gid: GID, date: '2026-11-26', answer: ANSWER_TEXT, isBlank: false }],
  credentials: [{ gid: GID, keyId: 'key-1', token: TOKEN }],
  profile: { gender: 'female', yearOfBirth: 1990, country: 'US' },
});

const stored = () =>
  call<Vault>('GET', '/v1/user/vault/', undefined, localStorage.getItem('AuthToken')!);

/** Another device's write, with the same data key (as a second device that opened the vault). */
async function writeAsOtherDevice(extra: VaultContents['answers'][number]): Promise<void> {
  const key = (await findDeviceKey(uuid))!;
  const remote = await stored();
  const theirs = await openVault(fromBase64Url(remote.blob!), key.key);
  const next = mergeVaults(theirs, { ...emptyVault(), answers: [extra] });
  const blob = toBase64Url(await sealVault(next, key.key, key.envelope));
  await call(
    'PUT',
    '/v1/user/vault/',
    { version: remote.version, blob },
    localStorage.getItem('AuthToken')!,
  );
}

describe('the vault against the real API', () => {
  it('is created at the first login, opened by a second device with the password, and merged both ways', async () => {
    expect(await unlockVault(uuid, await typed(PASSWORDS[0]!))).toBe('created');
    const first = await syncVault(mine.read, mine.apply);
    expect(first).toEqual({ status: 'synced', version: 1, size: VAULT_SIZES[0] });

    // A second device: no key of its own, one answer the first has not seen.
    await deleteDeviceKey(uuid);
    const other = device({
      ...emptyVault('2026-11-26T11:00:00.000Z'),
      answers: [{ qid: 'q-other', gid: GID, date: '2026-11-26', answer: 'No', isBlank: false }],
    });
    expect(await unlockVault(uuid, await typed(PASSWORDS[0]!))).toBe('opened');
    expect(await syncVault(other.read, other.apply)).toMatchObject({
      status: 'synced',
      version: 2,
    });
    expect(other.records.answers.map((a) => a.answer).sort()).toEqual(['No', ANSWER_TEXT].sort());
    expect(other.records.credentials).toEqual(mine.records.credentials);
    expect(other.records.profile).toMatchObject(mine.records.profile!);

    // The first device syncs again and gets the second's answer.
    expect(await syncVault(mine.read, mine.apply)).toMatchObject({ status: 'synced', version: 3 });
    expect(mine.records.answers).toHaveLength(2);
  }, 60_000);

  it('merges a write another device made between its read and its write (409), and loses neither', async () => {
    let injected = false;
    const racing = device(mine.records);
    const read = async () => {
      if (!injected) {
        injected = true;
        await writeAsOtherDevice({
          qid: 'q-race',
          gid: GID,
          date: '2026-11-27',
          answer: 'Yes',
          isBlank: false,
        });
      }
      return racing.read();
    };
    const before = (await stored()).version;
    const result = await syncVault(read, racing.apply);
    // The other device's write (before + 1), then ours over it (before + 2).
    expect(result).toMatchObject({ status: 'synced', version: before + 2 });
    expect(racing.reads).toBe(2);
    const key = (await findDeviceKey(uuid))!;
    const final = await openVault(fromBase64Url((await stored()).blob!), key.key);
    expect(final.answers.map((a) => a.qid).sort()).toEqual([QID, 'q-other', 'q-race'].sort());
    expect(racing.records).toEqual(final);
  }, 60_000);

  it('gives up after SYNC_ATTEMPTS lost writes with a clear error, the vault left as the other device wrote it', async () => {
    let n = 0;
    const loser = device(mine.records);
    const read = async () => {
      await writeAsOtherDevice({
        qid: `q-busy-${n++}`,
        gid: GID,
        date: '2026-11-27',
        answer: 'Yes',
        isBlank: false,
      });
      return loser.read();
    };
    const err = await syncVault(read, loser.apply).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VaultError);
    expect((err as VaultError).code).toBe('VAULT_BUSY');
    expect(n).toBe(SYNC_ATTEMPTS);
    const key = (await findDeviceKey(uuid))!;
    const final = await openVault(fromBase64Url((await stored()).blob!), key.key);
    expect(final.answers.some((a) => a.qid === `q-busy-${SYNC_ATTEMPTS - 1}`)).toBe(true);
  }, 60_000);

  it('after a reset on the device holding the key, re-wraps it: a new device opens the vault with the new password', async () => {
    // A reset changes the password the member types next; the vault sees only that.
    expect(await unlockVault(uuid, await typed(PASSWORDS[1]!))).toBe('rewrapped');
    expect(await syncVault(mine.read, mine.apply)).toMatchObject({ status: 'synced' });
    await deleteDeviceKey(uuid);
    expect(await unlockVault(uuid, await typed(PASSWORDS[1]!))).toBe('opened');
    const fresh = device(emptyVault());
    await syncVault(fresh.read, fresh.apply);
    expect(fresh.records.answers.map((a) => a.answer)).toContain(ANSWER_TEXT);
  }, 60_000);

  it('after a reset on a device without the key, locks and writes nothing until the member starts a new vault', async () => {
    const oldDevice = (await findDeviceKey(uuid))!;
    await deleteDeviceKey(uuid);
    expect(await unlockVault(uuid, await typed(PASSWORDS[2]!))).toBe('locked');
    expect(useVaultStore.getState()).toMatchObject({
      status: 'locked',
      reason: 'password-changed',
      canStartNew: true,
    });
    const before = await stored();
    const here = device({
      ...emptyVault('2026-11-28T00:00:00.000Z'),
      answers: [{ qid: 'q-new', gid: GID, date: '2026-11-28', answer: 'Maybe', isBlank: false }],
    });
    expect(await syncVault(here.read, here.apply)).toEqual({ status: 'locked' });
    expect(await stored()).toEqual(before);

    // The member agreed: a new vault with this device's records replaces the old one.
    expect(await startNewVault(here.read, here.apply)).toMatchObject({
      status: 'synced',
      version: before.version + 1,
    });
    await deleteDeviceKey(uuid);
    expect(await unlockVault(uuid, await typed(PASSWORDS[2]!))).toBe('opened');
    const next = device(emptyVault());
    await syncVault(next.read, next.apply);
    expect(next.records.answers.map((a) => a.qid)).toEqual(['q-new']);

    // The device that held the old key no longer opens it, and does not overwrite it.
    await saveDeviceKey(oldDevice);
    const { resumeVault } = await import('./session');
    expect(await resumeVault(uuid)).toBe(true);
    const kept = await stored();
    expect(await syncVault(mine.read, mine.apply)).toEqual({ status: 'locked' });
    expect(useVaultStore.getState().reason).toBe('replaced');
    expect(await stored()).toEqual(kept);
    // Logging in there with the current password opens the new vault and merges its records in.
    expect(await unlockVault(uuid, await typed(PASSWORDS[2]!))).toBe('opened');
    await syncVault(mine.read, mine.apply);
    expect(mine.records.answers.map((a) => a.qid)).toContain('q-new');
    expect(mine.records.answers.map((a) => a.answer)).toContain(ANSWER_TEXT);
  }, 90_000);

  it('leaves nothing readable on the server: no answer text, question, survey or credential in the row or the database files', async () => {
    const row = await stored();
    const bytes = fromBase64Url(row.blob!);
    expect(VAULT_SIZES as readonly number[]).toContain(bytes.length);
    const secrets = [ANSWER_TEXT, QID, GID, TOKEN, 'neighbours'];
    const latin1 = (b: Uint8Array) => Array.from(b, (c) => String.fromCharCode(c)).join('');
    for (const s of secrets) {
      expect(row.blob).not.toContain(s);
      expect(latin1(bytes)).not.toContain(s);
    }
    // The database's own files, after the server has closed them.
    await stopServer();
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (!e.name.endsWith('.jsonl')) files.push(p); // the SMS outbox is not the database
      }
    };
    walk(dataDir);
    const all = files.map((f) => fs.readFileSync(f).toString('latin1'));
    // The search reads where the row is: the stored blob is found. The member's number is not:
    // it is sealed under the account's own key (decision 026).
    expect(all.some((text) => text.includes(row.blob!.slice(0, 64)))).toBe(true);
    expect(all.some((text) => text.includes(PHONE))).toBe(false);
    for (const s of secrets) expect(all.filter((text) => text.includes(s))).toHaveLength(0);
  }, 60_000);
});
