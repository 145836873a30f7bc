import { type PasswordSecrets, passwordProblem, passwordSecrets } from '@candor/contracts';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

// The password never leaves this device (decision 020): what the API gets in its `password`
// fields is the login secret made here, and the vault's root made beside it stays here.

/** The number as E.164, the salt of its account's secrets; as typed when it does not parse. */
export function e164Of(phone: string): string {
  const compact = phone.replace(/[\s().-]/g, '');
  return parsePhoneNumberFromString(compact)?.number ?? compact;
}

/** The secrets of `password` for the account of `phone` (a slow hash: about 0.1-1 s). */
export function secretsFor(password: string, phone: string): Promise<PasswordSecrets> {
  return passwordSecrets(password, e164Of(phone));
}

let common: Promise<ReadonlySet<string>> | undefined;

/** Starts downloading the common-password list (a screen that chooses a password opens). */
export function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common/dist/passwords.json.mjs').then(
    (list: { default: string[] }) => new Set(list.default),
  );
  return common;
}

/**
 * Why a new password is refused, or null: the contracts' rule with the common-password list,
 * checked here because the server only ever sees the login secret.
 */
export async function newPasswordProblem(password: string): Promise<string | null> {
  return passwordProblem(password, await loadCommonPasswords());
}
