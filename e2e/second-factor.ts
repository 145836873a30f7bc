// Staff logins' second factor (decision 024) as the end-to-end tests give it: the TOTP secret
// each staff account enrolled, and codes computed from it with the same library the API uses,
// as an authenticator app would. Each code is good once, so the step last given per account is
// kept in the run's folder, shared by every test file (they run one after another).
import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { inject } from 'vitest';

const PERIOD = 30;

/** The folder of the run's TOTP records, one file per staff number. */
export const totpDir = (runDir: string) => path.join(runDir, 'totp');

interface TotpRecord {
  secret: string;
  /** The time step of the last code given; -1 for none. */
  step: number;
}

const fileOf = (dir: string, e164: string) => path.join(dir, `${e164.replace(/\D/g, '')}.json`);
const runTotpDir = () => totpDir(path.dirname(inject('blocksDir')));

/** The TOTP code of `secret` (base32) at `timestamp` (ms). */
export function totpCode(secret: string, timestamp: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), period: PERIOD }).generate({ timestamp });
}

/** Keeps the secret a staff number enrolled (the app on their phone, as it were). */
export function keepSecret(e164: string, secret: string, dir = runTotpDir()): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(fileOf(dir, e164), JSON.stringify({ secret, step: -1 } satisfies TotpRecord));
}

/** The secret a staff number enrolled in this run, if any. */
export function secretOf(e164: string, dir = runTotpDir()): string | undefined {
  const file = fileOf(dir, e164);
  return fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as TotpRecord).secret
    : undefined;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * A code of the number's secret that the API takes now and that was never given. The API takes
 * the steps before and after the current one too, but a code of the step before can expire
 * between this and the request reaching the API (CI once lost a login so), so codes are of the
 * current step or the next: two logins fit in one 30-second step, past that this waits.
 */
export function nextCode(e164: string, dir = runTotpDir()): Promise<string> {
  const next = queue.then(async () => {
    const file = fileOf(dir, e164);
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as TotpRecord;
    const current = Math.floor(Date.now() / 1000 / PERIOD);
    const step = Math.max(record.step + 1, current);
    if (step > current + 1) {
      await new Promise((r) => setTimeout(r, (step - 1) * PERIOD * 1000 - Date.now() + 100));
    }
    fs.writeFileSync(file, JSON.stringify({ ...record, step } satisfies TotpRecord));
    return totpCode(record.secret, step * PERIOD * 1000);
  });
  queue = next.catch(() => undefined);
  return next;
}
