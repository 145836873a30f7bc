import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GidParamsSchema, errorResponses } from '../../lib/route-schemas.js';
import type { ShareService } from './share.service.js';

/** A day when the link names the current image (its `?v=`), else five minutes. */
const VERSIONED_MAX_AGE = 86_400;
const UNVERSIONED_MAX_AGE = 300;

/** `GET /v1/surveys/{gid}/share-image.png`: a listed survey's link-preview image. */
export const shareRoutes: FastifyPluginAsyncZod<{ service: ShareService }> = async (
  app,
  { service },
) => {
  app.get(
    '/v1/surveys/:gid/share-image.png',
    {
      schema: {
        tags: ['surveys'],
        summary:
          "A listed survey's link-preview image (PNG, 1200x630: its name, headline, question " +
          'count and cover; never an answer or a result)',
        params: GidParamsSchema,
        querystring: z.object({ v: z.string().max(64).optional() }),
        produces: ['image/png'],
        response: {
          // Sent as bytes: Fastify serializes only JSON, so the image goes as it is.
          200: z.custom<Buffer>((v) => Buffer.isBuffer(v)).describe('image/png, 1200x630'),
          304: z.undefined().describe('Not modified: the cached image (its ETag) is current'),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const { png, version } = await service.image(request.params.gid);
      const etag = `"${version}"`;
      const maxAge = request.query.v === version ? VERSIONED_MAX_AGE : UNVERSIONED_MAX_AGE;
      reply
        .header('Cache-Control', `public, max-age=${maxAge}`)
        .header('ETag', etag)
        // Public by nature: any site (a chat app, a social network) may show it.
        .header('Cross-Origin-Resource-Policy', 'cross-origin');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type('image/png').send(png);
    },
  );
};
