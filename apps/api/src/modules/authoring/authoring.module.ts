// Authoring as one module of the app: admins make, edit, publish, close, archive, delete,
// export and import surveys (decision 010).
import type { SurveysService } from '../surveys/surveys.service.js';
import type { AppModule, Core } from '../module.js';
import { createAuthoringRepository } from './authoring.repository.js';
import { authoringRoutes } from './authoring.routes.js';
import { createAuthoringService } from './authoring.service.js';

export function authoringModule(
  { db, audit, clock }: Core,
  deps: Pick<Parameters<typeof createAuthoringService>[1], 'results' | 'onChange'> & {
    surveys: SurveysService;
    /** A survey deleted with its answers: its dead rows are vacuumed. */
    vacuumAfterDelete: () => void;
  },
): AppModule {
  const service = createAuthoringService(createAuthoringRepository(db), {
    audit,
    results: deps.results,
    ...(deps.onChange ? { onChange: deps.onChange } : {}),
    vacuumAfterDelete: deps.vacuumAfterDelete,
    clock,
  });
  return {
    admin: async (admin) => {
      await admin.register(authoringRoutes, { service, surveys: deps.surveys });
    },
  };
}
