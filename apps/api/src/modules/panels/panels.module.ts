// Research panels as one module of the app: admins set a survey's panel up; a participant's
// completion is checked and claimed with their survey's credential.
import { derivePanelKey } from '../../lib/keys.js';
import type { AppModule, Core } from '../module.js';
import { createPanelsRepository } from './panels.repository.js';
import { panelAdminRoutes, panelCompletionRoutes } from './panels.routes.js';
import { type PanelsServiceDeps, createPanelsService } from './panels.service.js';

export function panelsModule(
  { db, secrets, keys, audit, clock }: Core,
  /** How far a credential's holder is through its survey (modules/credentials). */
  credentialProgress: PanelsServiceDeps['credentialProgress'],
): AppModule {
  const service = createPanelsService(createPanelsRepository(db), {
    credentialProgress,
    audit,
    codeKey: keys.panelCode,
    panelKey: derivePanelKey(secrets),
    clock,
  });
  return {
    api: async (api) => {
      await api.register(panelCompletionRoutes, { service });
    },
    admin: async (admin) => {
      await admin.register(panelAdminRoutes, { service });
    },
  };
}
