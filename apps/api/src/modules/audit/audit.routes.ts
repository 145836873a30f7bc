import { AuditActorListSchema, AuditEntryListSchema, AuditLogQuerySchema } from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicOrigin } from '../../lib/origin.js';
import { errorResponses } from '../../lib/route-schemas.js';
import type { AuditService } from './audit.service.js';

/** The audit log. Registered inside the admin-only part of /v1/admin. */
export const auditRoutes: FastifyPluginAsyncZod<{ service: AuditService }> = async (
  app,
  { service },
) => {
  app.get(
    '/audit-log/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Staff actions, newest first; by action and by who acted',
        querystring: AuditLogQuerySchema,
        response: { 200: AuditEntryListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) =>
      service.list(request.query, `${publicOrigin(request)}/api/v1/admin/audit-log/`),
  );

  app.get(
    '/audit-log/actors/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Everyone who appears in the audit log, for its filter',
        response: { 200: AuditActorListSchema, ...errorResponses(401, 403) },
      },
    },
    async () => service.actors(),
  );
};
