import {
  AdminUserListSchema,
  AdminUserSchema,
  ErrorBodySchema,
  RoleChangeRequestSchema,
  UserSearchQuerySchema,
  ValidationErrorBodySchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicOrigin } from '../../lib/origin.js';
import type { UsersService } from './users.service.js';

// Any uuid text that names no account is a 404 from the service, not a field error.
const UuidParamsSchema = z.object({ uuid: z.string() });
const tags = ['admin'];
const errors = {
  400: ValidationErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
};

/** Accounts for admins. Registered inside the admin-only part of /v1/admin. */
export const usersRoutes: FastifyPluginAsyncZod<{ service: UsersService }> = async (
  app,
  { service },
) => {
  app.get(
    '/users/',
    {
      schema: {
        tags,
        summary: 'Accounts whose number starts with the digits given, newest first',
        querystring: UserSearchQuerySchema,
        response: { 200: AdminUserListSchema, ...errors },
      },
    },
    async (request) => {
      const url = new URL(`${publicOrigin(request)}/api/v1/admin/users/`);
      if (request.query.phone) url.searchParams.set('phone', request.query.phone);
      return service.search(request.query, url.toString());
    },
  );

  app.post(
    '/users/:uuid/role/',
    {
      schema: {
        tags,
        summary: "Change an account's role (its sessions end so the new role applies)",
        params: UuidParamsSchema,
        body: RoleChangeRequestSchema,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request) => service.setRole(request.params.uuid, request.body.role, request.user!),
  );

  for (const [verb, suspended] of [
    ['suspend', true],
    ['unsuspend', false],
  ] as const) {
    app.post(
      `/users/:uuid/${verb}/`,
      {
        schema: {
          tags,
          summary: suspended
            ? 'Suspend: the account cannot log in and its answers leave the results'
            : 'Lift a suspension: the account can log in and its answers count again',
          params: UuidParamsSchema,
          response: { 200: AdminUserSchema, ...errors },
        },
      },
      async (request) => service.setSuspended(request.params.uuid, suspended, request.user!),
    );
  }
};
