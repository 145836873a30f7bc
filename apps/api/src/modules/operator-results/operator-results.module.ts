// Operators' results as one module of the app: admins read each question's published figures
// and export a survey's; researchers' tokens read the same exports (modules/research).
import type { AppModule, Core } from '../module.js';
import { operatorResultsRoutes } from './operator-results.routes.js';
import {
  type OperatorResultsServiceDeps,
  createOperatorResultsService,
} from './operator-results.service.js';

export function operatorResultsModule(
  { audit, clock }: Core,
  /** The published results and the catalogue they are read against. */
  read: Pick<OperatorResultsServiceDeps, 'results' | 'surveys'>,
) {
  const service = createOperatorResultsService({ ...read, audit, clock });
  const module: AppModule = {
    admin: async (admin) => {
      await admin.register(operatorResultsRoutes, { service });
    },
  };
  /** The module, and its exports for the modules that read them. */
  return { module, service };
}
