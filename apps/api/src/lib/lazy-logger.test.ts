import Fastify from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../test/app.js';
import { closeAll, createTestDatabase } from '../test/database.js';
import { memoryLog } from '../test/log.js';
import { lazyChildLoggerFactory } from './lazy-logger.js';

/** A bare Fastify app on `log` with the lazy factory, and a route that logs what it is told. */
function appOn(log: ReturnType<typeof memoryLog>) {
  const app = Fastify({ loggerInstance: log.logger, childLoggerFactory: lazyChildLoggerFactory });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/warns', async (request) => {
    request.log.warn({ body: { password: 'hunter2' } }, 'something odd');
    request.log.child({ step: 'inner' }).error('inner trouble');
    return { ok: true };
  });
  return app;
}

const linesOf = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('lazy request loggers', () => {
  it('makes no child logger for a request that writes nothing at the level', async () => {
    const log = memoryLog('warn');
    const child = vi.spyOn(log.logger, 'child');
    const app = appOn(log);
    await app.ready();
    const before = child.mock.calls.length;
    for (let i = 0; i < 5; i++) expect((await app.inject('/quiet')).statusCode).toBe(200);
    expect(child.mock.calls.length).toBe(before);
    expect(log.text).toBe('');
    await app.close();
  });

  it('writes what a request logs with its request id, redacted, children included', async () => {
    const log = memoryLog('warn');
    const app = appOn(log);
    await app.inject('/warns');
    const [warned, inner] = linesOf(log.text);
    expect(warned).toMatchObject({ level: 40, msg: 'something odd', reqId: 'req-1' });
    expect(warned!.body).toEqual({ password: '[Redacted]' });
    expect(inner).toMatchObject({ level: 50, msg: 'inner trouble', reqId: 'req-1', step: 'inner' });
    expect(log.text).not.toContain('hunter2');
    await app.close();
  });

  it("logs Fastify's own request lines when their level is on, each with its request id", async () => {
    const log = memoryLog('info');
    const app = appOn(log);
    await app.inject('/quiet');
    const lines = linesOf(log.text);
    expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(lines.every((l) => l.reqId === 'req-1')).toBe(true);
  });

  it('is what the app uses: a quiet request at the production level makes no child', async () => {
    const database = await createTestDatabase('pglite');
    const log = memoryLog('warn');
    const child = vi.spyOn(log.logger, 'child');
    const app = await createTestApp(database, {}, { logger: log.logger });
    try {
      const before = child.mock.calls.length;
      expect((await app.inject('/api/v1/questions/not-a-question/results/')).statusCode).toBe(404);
      expect(child.mock.calls.length).toBe(before);
    } finally {
      await closeAll(app, database);
    }
  });
});

afterAll(() => {
  vi.restoreAllMocks();
});
