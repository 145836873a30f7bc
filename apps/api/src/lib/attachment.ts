import type { FastifyReply } from 'fastify';

/** A download: the body and the file name the browser saves it under. */
export interface Download<T> {
  body: T;
  fileName: string;
}

/** Marks a JSON reply as a file to save (`fileName` is made of safe characters by its caller). */
export function asAttachment<T>(reply: FastifyReply, { body, fileName }: Download<T>): T {
  reply.header('content-disposition', `attachment; filename="${fileName}"`);
  return body;
}

/** Sends CSV text as a file to save. */
export function sendCsv(reply: FastifyReply, { body, fileName }: Download<string>) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(body);
}
