import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

// YouTube videos play in the privacy-enhanced (no-cookie) player's frame, driven by YouTube's
// iframe API: that script and the widget script it loads are the only third-party scripts.
// Vimeo's player API is bundled; its videos play in Vimeo's frame.
const YOUTUBE_SCRIPTS = 'https://www.youtube.com/iframe_api https://www.youtube.com/s/player/';
const YOUTUBE_FRAME = 'https://www.youtube-nocookie.com';
const VIMEO_FRAME = 'https://player.vimeo.com';

/**
 * The Content-Security-Policy of every response. No inline script anywhere (the built app has
 * none); styles may be inline (the toast library and the video players inject theirs). Direct
 * video links may be on any https host (played by <video>, never fetched by script: HLS streams
 * are served by Candor itself). Trusted Types: strings never reach a DOM sink that runs script
 * (innerHTML, script src) except through the web app's one default policy (lib/trusted-types).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' ${YOUTUBE_SCRIPTS}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https://i.ytimg.com https://i.vimeocdn.com",
  "media-src 'self' blob: https:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  `frame-src ${YOUTUBE_FRAME} ${VIMEO_FRAME}`,
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
].join('; ');

/**
 * The API docs' policy (Swagger UI, its own pages under /api/docs/): the same without Trusted
 * Types, which Swagger UI does not support (it sets innerHTML with plain strings).
 */
export const DOCS_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.split('; ')
  .filter((d) => !d.startsWith('require-trusted-types-for'))
  .join('; ');

const HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  // Other sites learn only that a visit came from Candor, never the page (a survey's address);
  // YouTube's player needs that much to play embedded videos.
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // The privacy page promises no camera or microphone: the browser enforces it.
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

/**
 * Security headers on every response (pages, files, API answers and errors). A route that sets
 * its own Content-Security-Policy (the API docs) keeps it. No CORS headers are ever sent: the web
 * app is served from the API's own origin, so no other origin is granted anything.
 */
async function securityHeaders(app: FastifyInstance) {
  // A callback hook, not an async one: every response passes here, and nothing is awaited.
  app.addHook('onSend', (_request, reply, payload, done) => {
    withSecurityHeaders(reply);
    done(null, payload);
  });
}

/** HEADERS with the lower-case names Fastify keeps them under, computed once. */
const ENTRIES = Object.entries(HEADERS).map(
  ([name, value]) => [name.toLowerCase(), value] as const,
);

/** Sets the headers a reply does not set itself; for replies that skip hooks (router errors). */
export function withSecurityHeaders(reply: FastifyReply): FastifyReply {
  for (const [name, value] of ENTRIES) {
    if (!reply.hasHeader(name)) reply.header(name, value);
  }
  return reply;
}

export default fp(securityHeaders, { name: 'security-headers' });
