import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { jsonNotFound } from './error-handler.js';

/**
 * Serves the built web app: hashed assets cached for a year, everything else revalidated,
 * and index.html for any other GET so client-side routes (and their not-found page) work.
 */
async function web(
  app: FastifyInstance,
  opts: {
    root: string | null;
    /** A page's own HTML (a survey's link-preview tags), else null for index.html as it is. */
    page?: (request: FastifyRequest) => Promise<string | null>;
  },
) {
  const root = opts.root;
  if (!root || !fs.existsSync(path.join(root, 'index.html'))) {
    app.log.warn('The web app is not built (npm run build); serving the API only.');
    app.setNotFoundHandler(jsonNotFound);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (!wantsPage || request.url.startsWith('/api/') || path.extname(request.url.split('?')[0]!)) {
      return jsonNotFound(request, reply);
    }
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8');
    const page = (await opts.page?.(request)) ?? null;
    return page === null ? reply.sendFile('index.html') : reply.send(page);
  });
}

export default fp(web, { name: 'web' });
