// Users as one module of the app: admins list, search and change members (role, standing).
import type { Identities } from '../auth/identity.js';
import type { SessionChanges } from '../auth/session-changes.js';
import type { AppModule, Core } from '../module.js';
import { createUsersRepository } from './users.repository.js';
import { usersRoutes } from './users.routes.js';
import { createUsersService } from './users.service.js';

export function usersModule(
  { db, audit, clock }: Core,
  /** Accounts' sealed numbers, and the session changes a role or standing change announces. */
  accounts: { identities: Identities; sessionChanges: SessionChanges },
): AppModule {
  const service = createUsersService(
    createUsersRepository(db, accounts.identities, accounts.sessionChanges),
    { audit, clock },
  );
  return {
    admin: async (admin) => {
      await admin.register(usersRoutes, { service });
    },
  };
}
