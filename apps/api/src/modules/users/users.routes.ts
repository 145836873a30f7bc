import {
  AdminUserListSchema,
  AdminUserSchema,
  RevealNumberRequestSchema,
  RevealedNumberSchema,
  RoleChangeRequestSchema,
  UserListQuerySchema,
  UserSearchQuerySchema,
} from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicOrigin } from '../../lib/origin.js';
import { UuidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import type { UsersService } from './users.service.js';

const tags = ['admin'];
const errors = errorResponses(400, 401, 403, 404);

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
        summary: 'Every account, newest first, numbers masked',
        description:
          'Numbers are masked ("+44 ••• ••• •123"). To find an account by its number, POST ' +
          'users/search/: a number never goes in a URL.',
        querystring: UserListQuerySchema,
        response: { 200: AdminUserListSchema, ...errors },
      },
    },
    async (request) =>
      service.search(
        { page: request.query.page, page_size: request.query.page_size },
        `${publicOrigin(request)}/api/v1/admin/users/`,
      ),
  );

  app.post(
    '/users/search/',
    {
      schema: {
        tags,
        summary: 'Accounts whose number starts with the digits given, newest first',
        description:
          'The digits go in the body, so no URL, history or log holds them. To turn a page, POST ' +
          'the same body with `page` (`next` and `previous` say which pages exist). Numbers are ' +
          'masked ("+44 ••• ••• •123"), except the account whose whole number was searched for ' +
          '(phone_whole). The whole number of another needs reveal-number.',
        body: UserSearchQuerySchema,
        response: { 200: AdminUserListSchema, ...errors },
      },
    },
    async (request) =>
      service.search(request.body, `${publicOrigin(request)}/api/v1/admin/users/search/`),
  );

  app.post(
    '/users/:uuid/reveal-number/',
    {
      schema: {
        tags,
        summary: "Reveal an account's whole number, for a reason (audited, rate limited)",
        description:
          'Writes the audit entry user.number_revealed (who, whose, the reason) in the same ' +
          'transaction before answering. At most 10 reveals per staff member per hour (429).',
        params: UuidParamsSchema,
        body: RevealNumberRequestSchema,
        response: { 200: RevealedNumberSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) =>
      service.revealNumber(request.params.uuid, request.body.reason, request.user!),
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

  app.post(
    '/users/:uuid/suspend/',
    {
      schema: {
        tags,
        summary: 'Suspend: the account cannot log in and its answers leave the results',
        params: UuidParamsSchema,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request) => service.setSuspended(request.params.uuid, true, request.user!),
  );

  app.post(
    '/users/:uuid/unsuspend/',
    {
      schema: {
        tags,
        summary: 'Lift a suspension: the account can log in and its answers count again',
        params: UuidParamsSchema,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request) => service.setSuspended(request.params.uuid, false, request.user!),
  );

  app.post(
    '/users/:uuid/second-factor/reset/',
    {
      schema: {
        tags,
        summary:
          "Reset a staff member's second factor: their sessions end and their next login enrols a new one",
        params: UuidParamsSchema,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request) => service.resetSecondFactor(request.params.uuid, request.user!),
  );
};
