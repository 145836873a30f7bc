// Researchers' tokens as one module of the app: admins make and revoke them; a token reads the
// published results and exports in its scope under /api/v1/research (decision 031).
import { createPublicReadLimit } from '../../lib/public-read-limit.js';
import type { AppModule, Core } from '../module.js';
import { createResearchRepository } from './research.repository.js';
import { researchRoutes, researchTokenRoutes } from './research.routes.js';
import { createResearchService } from './research.service.js';

/** Requests a minute a researcher's script may make, per address and per token. */
const RESEARCH_READS_PER_MINUTE = 120;

export function researchModule(
  { app, db, keys, audit, clock }: Core,
  /** The exports staff download, which a token reads under the same rules. */
  exports: Parameters<typeof createResearchService>[1]['exports'],
): AppModule {
  const service = createResearchService(createResearchRepository(db), {
    audit,
    exports,
    clock,
  });
  const limit = (scope: string) =>
    createPublicReadLimit(app.rateLimits, keys.ip, scope, RESEARCH_READS_PER_MINUTE);
  return {
    // A token an admin made, not a session.
    api: async (api) => {
      await api.register(researchRoutes, {
        service,
        perIp: limit('research'),
        perToken: limit('research-token'),
        prefix: '/v1/research',
      });
    },
    admin: async (admin) => {
      await admin.register(researchTokenRoutes, { service });
    },
  };
}
