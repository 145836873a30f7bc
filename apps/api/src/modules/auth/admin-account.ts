import crypto from 'node:crypto';
import { passwordSecrets } from '@candor/contracts';
import type { Db } from '../../db/client.js';
import { hashPassword, passwordProblem } from '../../lib/passwords.js';
import { normalisePhone } from '../../lib/phone.js';
import { createAuthRepository } from './auth.repository.js';
import type { Identities } from './identity.js';
import { createSecondFactorRepository } from './second-factor.repository.js';

export const DEMO_ADMIN_PHONE = '+15555550100';

export interface AdminInput {
  phone: string;
  password: string;
  /** Region for a national-form `phone`. */
  defaultRegion: string;
  name?: string;
  country?: string;
  now?: Date;
}

/** Thrown with a message for the person at the terminal. */
export class AdminInputError extends Error {
  override name = 'AdminInputError';
}

/** The admin's number in E.164, or AdminInputError when the number or the password will not do. */
export function checkAdminInput(input: Pick<AdminInput, 'phone' | 'password' | 'defaultRegion'>) {
  let phone;
  try {
    phone = normalisePhone(input.phone, input.defaultRegion);
  } catch {
    throw new AdminInputError(`"${input.phone}" is not a valid phone number.`);
  }
  const problem = passwordProblem(input.password);
  if (problem) throw new AdminInputError(`Password refused: ${problem}`);
  return phone;
}

/**
 * Creates a verified, active admin, or promotes the account that has the number (its password
 * replaced, its second factor removed and its sessions ended: the operator's recovery of an
 * admin who lost both). Either way the admin enrols a second factor at the first login
 * (decision 024). Used by `npm run create-admin` and DEMO_ADMIN.
 */
export async function createOrPromoteAdmin(
  db: Db,
  identities: Identities,
  input: AdminInput,
): Promise<{ outcome: 'created' | 'promoted'; phone: string; uuid: string }> {
  const phone = checkAdminInput(input);
  const now = input.now ?? new Date();
  const repo = createAuthRepository(db, identities);
  // The web app logs in with the password's login secret, made on the device (decision 020):
  // the operator typed the password here, so the secret is made here the same way.
  const { login } = await passwordSecrets(input.password, phone.e164);
  const passwordHash = await hashPassword(login);
  const verified = { role: 'admin', status: 'active', phoneVerifiedAt: now, passwordHash } as const;

  const existing = await repo.findUserByPhone(phone.e164);
  if (existing) {
    await repo.revokeAllOfUser(existing.id, now);
    await createSecondFactorRepository(db).reset(existing.id);
    await repo.updateUser(existing.id, {
      ...verified,
      phoneVerifiedAt: existing.phoneVerifiedAt ?? now,
    });
    return { outcome: 'promoted', phone: phone.e164, uuid: existing.uuid };
  }
  const created = await repo.insertUser({
    phoneE164: phone.e164,
    name: input.name ?? 'Admin',
    country: input.country ?? phone.country,
    ...verified,
  });
  if (!created) throw new AdminInputError(`${phone.e164} was created meanwhile; run again.`);
  return { outcome: 'created', phone: phone.e164, uuid: created.uuid };
}

/** DEMO_ADMIN: the demo admin, created once with a random password (returned only then). */
export async function ensureDemoAdmin(
  db: Db,
  identities: Identities,
): Promise<{ phone: string; password?: string }> {
  const repo = createAuthRepository(db, identities);
  if (await repo.findUserByPhone(DEMO_ADMIN_PHONE)) return { phone: DEMO_ADMIN_PHONE };
  const password = crypto.randomBytes(12).toString('base64url');
  await createOrPromoteAdmin(db, identities, {
    phone: DEMO_ADMIN_PHONE,
    password,
    defaultRegion: 'US',
    name: 'Demo Admin',
    country: 'US',
  });
  return { phone: DEMO_ADMIN_PHONE, password };
}
