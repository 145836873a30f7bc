import type { FastifyRequest } from 'fastify';

/** The origin people reach Candor at: PUBLIC_URL when set, else the request's own. */
export function publicOrigin(request: FastifyRequest): string {
  return request.server.config.publicUrl ?? `${request.protocol}://${request.host}`;
}
