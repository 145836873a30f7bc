import { UPLOAD_MAX_BYTES, UploadedImageSchema } from '@candor/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas.js';
import { UPLOADS_PATH, type ImagesService } from './images.service.js';

const MEGABYTES = UPLOAD_MAX_BYTES / 1024 / 1024;

/** `POST /admin/uploads/`: the body is the image itself. Registered inside the admin-only scope. */
export const imageUploadRoutes: FastifyPluginAsyncZod<{ service: ImagesService }> = async (
  app,
  { service },
) => {
  // In this scope only: any body arrives as bytes, up to the upload limit; the service checks
  // the type, so a wrong one gets a message about images, not about JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: UPLOAD_MAX_BYTES },
    (_r, body, done) => done(null, body),
  );
  app.post(
    '/uploads/',
    {
      bodyLimit: UPLOAD_MAX_BYTES,
      config: { tooLarge: `Images can be at most ${MEGABYTES} MB.` },
      schema: {
        tags: ['admin'],
        summary: `Upload an image (JPEG, PNG, WebP or GIF, at most ${MEGABYTES} MB); stored as WebP`,
        consumes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
        response: { 201: UploadedImageSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const stored = await service.store(body, request.headers['content-type'], request.user!);
      return reply.status(201).send(stored);
    },
  );
};

/** Serves stored images: names are content hashes, so they never change. */
export async function imageFiles(app: FastifyInstance, { service }: { service: ImagesService }) {
  app.get<{ Params: { name: string } }>(`${UPLOADS_PATH}:name`, async (request, reply) => {
    const bytes = await service.read(request.params.name);
    if (!bytes) {
      reply.callNotFound();
      return;
    }
    return reply
      .header('Content-Type', 'image/webp')
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('X-Content-Type-Options', 'nosniff')
      .send(bytes);
  });
}
