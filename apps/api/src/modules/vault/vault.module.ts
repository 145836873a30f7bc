// The member's vault as one module of the app: their device keeps its records there, sealed.
import type { AppModule, Core } from '../module.js';
import { createVaultRepository } from './vault.repository.js';
import { vaultRoutes } from './vault.routes.js';
import { createVaultService } from './vault.service.js';

export function vaultModule({ db }: Core): AppModule {
  const service = createVaultService(createVaultRepository(db));
  return {
    api: async (api) => {
      await api.register(vaultRoutes, { service });
    },
  };
}
