// Process level: the connection caps hold for a cluster as a whole (WEB_CONCURRENCY=2, on
// PostgreSQL). Its primary passes each connection to a worker, and a passed connection skips
// the worker's own cap: with MAX_CONNECTIONS=100, 1,000 were held (issue 34). Scaled down here:
// MAX_CONNECTIONS=12 and MAX_CONNECTIONS_PER_CLIENT=5, through real sockets from 3 addresses.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchPostgres } from '../test/database.js';
import { type ServerProcess, childPids, connectionsHeld, startServer } from '../test/servers.js';

const adminUrl = process.env.TEST_DATABASE_URL;
const GET_HEALTH = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

/** A keep-alive client connection from `from` that asks for /api/health once. */
function ask(port: number, from: string) {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  const state = { socket, data: '', closed: false };
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (state.data += d));
  socket.on('close', () => (state.closed = true));
  socket.on('error', () => undefined); // a reset reads as closed
  socket.write(GET_HEALTH);
  return state;
}
type Asked = ReturnType<typeof ask>;
const answered = (c: Asked) => c.data.startsWith('HTTP/1.1 200');

describe.skipIf(!adminUrl)('connection caps of a cluster', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | undefined;
  let primary: ServerProcess | undefined;
  const sockets: Asked[] = [];

  beforeAll(async () => {
    scratch = await createScratchPostgres(adminUrl!);
    primary = await startServer({
      DATABASE_URL: scratch.url,
      WEB_CONCURRENCY: '2',
      MAX_CONNECTIONS: '12',
      MAX_CONNECTIONS_PER_CLIENT: '5',
    });
  }, 120_000);

  afterAll(async () => {
    for (const c of sockets) c.socket.destroy();
    await primary?.stop();
    await scratch?.drop();
  });

  it('holds at most MAX_CONNECTIONS in all, and MAX_CONNECTIONS_PER_CLIENT of one client', async () => {
    if (!primary) throw new Error('the cluster did not start');
    const port = Number(new URL(primary.origin).port);
    const workers = childPids(primary.child.pid!);
    expect(workers).toHaveLength(2);
    const heldNow = () => connectionsHeld(workers, port).reduce((a, b) => a + b, 0);
    // The start-up probe's keep-alive connection (from 127.0.0.1), if still open, counts too.
    const before = heldNow();
    expect(before).toBeLessThanOrEqual(1);

    const batch = async (from: string, n: number) => {
      const mine = Array.from({ length: n }, () => ask(port, from));
      sockets.push(...mine);
      await expect
        .poll(() => mine.every((c) => c.closed || answered(c)), { timeout: 20_000 })
        .toBe(true);
      return mine;
    };
    // One client floods; a second and a third take what is left of the 12.
    const flood = await batch('127.0.0.2', 20);
    expect(flood.filter(answered)).toHaveLength(5);
    const second = await batch('127.0.0.3', 5);
    expect(second.filter(answered)).toHaveLength(5);
    const third = await batch('127.0.0.4', 5);
    expect(third.filter(answered)).toHaveLength(2 - before);
    expect(heldNow()).toBe(12);

    // Places freed are taken again: the flood's end lets the third client in.
    for (const c of flood) c.socket.destroy();
    await expect
      .poll(
        async () => {
          const [c] = await batch('127.0.0.4', 1);
          return answered(c!);
        },
        { timeout: 20_000 },
      )
      .toBe(true);
  }, 120_000);
});
