import { VAULT_SIZES, VaultSchema, VaultWriteSchema } from '@candor/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas.js';
import type { VaultService } from './vault.service.js';

const tags = ['member data'];
const security = [{ bearerAuth: [] }];

/** `GET`/`PUT /v1/user/vault/`: the member's sealed vault, for their devices only. */
export const vaultRoutes: FastifyPluginAsyncZod<{ service: VaultService }> = async (
  app,
  { service },
) => {
  app.get(
    '/v1/user/vault/',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "The member's end-to-end encrypted vault (opaque to the server)",
        security,
        response: { 200: VaultSchema, ...errorResponses(401) },
      },
    },
    async (request) => service.read(request.user!.uuid),
  );

  app.put(
    '/v1/user/vault/',
    {
      onRequest: app.requireUser,
      // The largest vault in base64url, with room for the JSON around it.
      bodyLimit: Math.ceil((VAULT_SIZES.at(-1)! * 4) / 3) + 1024,
      schema: {
        tags,
        summary:
          'Replace the vault, over the version read (409 when another device wrote first); ' +
          'padded to one of the allowed sizes',
        security,
        body: VaultWriteSchema,
        response: { 200: VaultSchema, ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => service.write(request.user!.uuid, request.body),
  );
};
