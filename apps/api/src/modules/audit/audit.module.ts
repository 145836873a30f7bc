// The audit log's reading side as one module of the app: admins page through it. (Writing it
// is every module's: the service is one of the app's shared parts, `Core.audit`.)
import type { AppModule, Core } from '../module.js';
import { auditRoutes } from './audit.routes.js';

export function auditModule({ audit }: Core): AppModule {
  return {
    admin: async (admin) => {
      await admin.register(auditRoutes, { service: audit });
    },
  };
}
