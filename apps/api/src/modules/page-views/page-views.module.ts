// Page views as one module of the app: the web app reports them, admins read their counts.
import type { AppModule, Core } from '../module.js';
import { createPageViewsRepository } from './page-views.repository.js';
import { pageViewStatsRoutes, pageViewsRoutes } from './page-views.routes.js';
import { createPageViewsService } from './page-views.service.js';

export function pageViewsModule({ app, config, db, keys, clock }: Core): AppModule {
  const service = createPageViewsService(createPageViewsRepository(db), {
    limits: app.rateLimits,
    ipKey: keys.ip,
    enabled: config.analytics,
    clock,
  });
  return {
    api: async (api) => {
      await api.register(pageViewsRoutes, { service });
    },
    admin: async (admin) => {
      await admin.register(pageViewStatsRoutes, { service });
    },
  };
}
