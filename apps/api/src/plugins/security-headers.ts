import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

// YouTube and Vimeo videos play in their players' frames; YouTube's player is a script of its own.
const YOUTUBE = 'https://www.youtube.com https://www.youtube-nocookie.com';
const VIMEO = 'https://player.vimeo.com';

/**
 * The Content-Security-Policy of every response. No inline script anywhere (the built app has
 * none); styles may be inline (the toast library and the video players inject theirs). Direct
 * video links may be on any https host, and HLS streams are fetched by script.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' ${YOUTUBE}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https://i.ytimg.com https://i.vimeocdn.com",
  "media-src 'self' blob: https:",
  "connect-src 'self' https:",
  "worker-src 'self' blob:",
  `frame-src ${YOUTUBE} ${VIMEO}`,
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

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
  app.addHook('onSend', async (_request, reply) => {
    withSecurityHeaders(reply);
  });
}

/** Sets the headers a reply does not set itself; for replies that skip hooks (router errors). */
export function withSecurityHeaders(reply: FastifyReply): FastifyReply {
  for (const [name, value] of Object.entries(HEADERS)) {
    if (!reply.hasHeader(name)) reply.header(name, value);
  }
  return reply;
}

export default fp(securityHeaders, { name: 'security-headers' });
