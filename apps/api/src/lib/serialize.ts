import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

const serialized = new WeakMap<object, string>();

/**
 * Validates `body` against its contract schema and stringifies it once per object: memoized
 * answers (the survey content) are sent as the same string without re-validating every time.
 */
export function serializeOnce<T extends object>(schema: z.ZodType<T>, body: T): string {
  let json = serialized.get(body);
  if (json === undefined) {
    json = JSON.stringify(schema.parse(body));
    serialized.set(body, json);
  }
  return json;
}

/** Sends JSON already checked against its contract (Fastify passes strings through). */
export function sendJson(reply: { type: FastifyReply['type'] }, json: string) {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** Sends a contract-checked body as pre-serialized JSON (Fastify passes strings through). */
export function sendJsonOnce<T extends object>(
  reply: { type: FastifyReply['type'] },
  schema: z.ZodType<T>,
  body: T,
) {
  return sendJson(reply, serializeOnce(schema, body));
}
