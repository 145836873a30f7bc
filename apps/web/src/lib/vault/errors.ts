export type VaultErrorCode =
  /** The contents do not fit the largest size: nothing was written. */
  | 'VAULT_TOO_LARGE'
  /** The password's key does not unwrap the data key: another password (or a damaged header). */
  | 'VAULT_WRONG_PASSWORD'
  /** The data key does not open the contents: damaged, or sealed under another data key. */
  | 'VAULT_UNREADABLE'
  /** Not a vault this code can read (length, format version, iteration count). */
  | 'VAULT_FORMAT'
  /** No key on this device that opens the account's vault (see session.ts). */
  | 'VAULT_LOCKED'
  /** Other devices kept writing: the compare-and-swap lost every retry. */
  | 'VAULT_BUSY';

/** A vault failure, with a `code` to switch on and a sentence a person can read. */
export class VaultError extends Error {
  override name = 'VaultError';
  constructor(
    readonly code: VaultErrorCode,
    message: string,
  ) {
    super(message);
  }
}
