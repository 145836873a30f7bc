import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { publicOrigin } from '../lib/origin.js';
import { jsonNotFound } from './error-handler.js';
import {
  type PageContributor,
  type PageParts,
  chunkTags,
  createPageCache,
  parseTemplate,
  pickEncoding,
  readChunkFiles,
  renderPage,
} from './web-page.js';

/** The module every page loads after the outdated-browser check: the shell, router and home. */
const APP_MODULE = 'src/app/app.tsx';
/** Pages whose screen is a module of its own (app/router.tsx loads it lazily). */
const ROUTE_MODULES: Array<[RegExp, string]> = [
  [/^\/surveys\/[^/]+$/, 'src/app/routes/survey.tsx'],
];

export interface WebOptions {
  root: string | null;
  /**
   * What modules add to pages (a page's snapshot, its data, its preload hints, its head tags),
   * asked in this order for every page; each answers for the paths that are its own.
   */
  pages?: PageContributor[];
}

/**
 * Serves the built web app: hashed assets cached for a year, everything else revalidated, and
 * for any other GET the app's page (index.html with what `pages` add: see web-page.ts) so
 * client-side routes (and their not-found page) work.
 */
async function web(app: FastifyInstance, opts: WebOptions) {
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

  const template = parseTemplate(fs.readFileSync(path.join(root, 'index.html'), 'utf8'));
  const chunkFiles = readChunkFiles(root);
  // Every page runs the app module once the browser check passes: its scripts are fetched with
  // the page instead of one round trip later, its style sheet applies to the first paint.
  const appFiles = chunkFiles(APP_MODULE);
  const appParts: PageParts = { head: chunkTags(appFiles) };
  // A page whose screen loads lazily gets that screen's files too, rather than after the app's.
  const routeParts = ROUTE_MODULES.map(([pattern, module]) => ({
    pattern,
    parts: { head: chunkTags(chunkFiles(module), { except: appFiles }) } satisfies PageParts,
  }));
  const contributors = opts.pages ?? [];
  const cache = createPageCache();

  async function partsFor(request: FastifyRequest): Promise<PageParts[]> {
    const url = new URL(request.url, 'http://candor.invalid');
    let pagePath: string;
    try {
      pagePath = decodeURIComponent(url.pathname);
    } catch {
      pagePath = url.pathname;
    }
    const page = { path: pagePath, query: url.searchParams, origin: publicOrigin(request) };
    const parts = await Promise.all(
      contributors.map(async (contribute) => {
        try {
          return await contribute(page);
        } catch (err) {
          // A page without its extras still works: the app fetches what it needs.
          request.log.warn({ err }, 'page extras failed; serving the page without them');
          return undefined;
        }
      }),
    );
    const route = routeParts.find((r) => r.pattern.test(pagePath));
    // The page's own parts first: its largest picture and its data are asked for before the
    // app's scripts, which a slow phone's few connections would otherwise serve first.
    return [...parts.filter((p) => p !== undefined), ...(route ? [route.parts] : []), appParts];
  }

  async function sendPage(request: FastifyRequest, reply: FastifyReply) {
    const built = await cache.get(renderPage(template, await partsFor(request)));
    // The page holds nothing personal (the session lives in the browser, never in the HTML),
    // but it changes with the survey content: browsers and proxies revalidate every time.
    reply
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Accept-Encoding')
      .header('ETag', built.etag)
      .type('text/html; charset=utf-8');
    if (request.headers['if-none-match'] === built.etag) return reply.code(304).send();
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding) reply.header('Content-Encoding', encoding);
    return reply.send(encoding === 'br' ? built.br : encoding === 'gzip' ? built.gzip : built.raw);
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (!wantsPage || request.url.startsWith('/api/') || path.extname(request.url.split('?')[0]!)) {
      return jsonNotFound(request, reply);
    }
    return sendPage(request, reply);
  });
}

export default fp(web, { name: 'web' });
