import type { Vault, VaultWrite } from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import type { VaultRepository } from './vault.repository.js';

/**
 * The member's end-to-end encrypted vault (decision 020): the server stores and returns an
 * opaque blob, never a key, and lets two devices write without losing each other's changes.
 */
export function createVaultService(repo: VaultRepository) {
  return {
    async read(uuid: string): Promise<Vault> {
      const stored = await repo.read(uuid);
      return stored ?? { version: 0, blob: null };
    },

    /** Writes the vault over the version the device read; another device's write first: 409. */
    async write(uuid: string, { version, blob }: VaultWrite): Promise<Vault> {
      const written = await repo.write(uuid, version, blob);
      if (written === undefined) {
        throw new AppError(
          'INVALID_STATE',
          'Your vault changed on another device: read it again, merge, and save.',
        );
      }
      return { version: written, blob };
    },
  };
}

export type VaultService = ReturnType<typeof createVaultService>;
