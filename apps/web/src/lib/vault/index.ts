// The member's end-to-end encrypted vault (decision 020): keys, sealing, merging and sync.
export {
  emptyVault,
  mergeVaults,
  type VaultAnswer,
  type VaultContents,
  type VaultCredential,
  type VaultProfile,
  type VaultRating,
} from './contents';
export { VaultError, type VaultErrorCode } from './errors';
export {
  forgetAllVaultKeys,
  forgetVaultKey,
  holdVaultSecret,
  resumeVault,
  takeHeldSecret,
  unlockVault,
  useVaultStore,
  type UnlockOutcome,
  type VaultSecret,
  type VaultLockReason,
  type VaultState,
} from './session';
export {
  flushVault,
  provideVaultData,
  replaceLockedVault,
  startVaultSchedule,
  stopVaultSchedule,
  vaultChanged,
} from './schedule';
export { startNewVault, syncVault, type SyncResult } from './sync';
