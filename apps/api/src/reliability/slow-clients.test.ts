// Slow and greedy clients against a listening server, through real sockets: a slowloris that
// trickles its headers or body, a connection that never speaks, an idle keep-alive, and more
// connections than the cap. Small configured timeouts; each client gives up after a bounded
// number of ticks, so on a server without timeouts the assertions fail instead of hanging.
// HTTP only: the same on either database engine, so it runs on PGlite alone.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { HttpConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { createTestApp } from '../test/app.js';
import { closeAll, createTestDatabase } from '../test/database.js';

const TICK_MS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A raw client connection: what the server sent, and whether it hung up. */
class Conn {
  data = '';
  closed = false;
  readonly socket: net.Socket;

  /** `from`: the client's own address (any of 127.0.0.0/8 on Linux), another client each. */
  constructor(port: number, from = '127.0.0.1') {
    this.socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    this.socket.setEncoding('utf8');
    this.socket.on('data', (d: string) => (this.data += d));
    this.socket.on('close', () => (this.closed = true));
    this.socket.on('error', () => {
      // a reset by the server reads as closed
    });
  }

  write(text: string) {
    if (!this.closed && !this.socket.destroyed) this.socket.write(text);
  }

  /** Ticks until `done()` holds; false when the client gives up after `ticks`. */
  async until(done: () => boolean, ticks: number, eachTick?: () => void) {
    for (let i = 0; i < ticks && !done(); i++) {
      eachTick?.();
      await sleep(TICK_MS);
    }
    return done();
  }
}

const GET_HEALTH = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
const answered = (c: Conn, n = 1) => c.data.split('HTTP/1.1 200').length - 1 >= n;

describe('slow clients against a listening server', () => {
  let database: Database;
  const apps: App[] = [];
  const conns: Conn[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterAll(async () => {
    for (const c of conns) c.socket.destroy();
    for (const a of apps) await a.close();
    await closeAll(database);
  });

  async function listening(http: Partial<HttpConfig>): Promise<number> {
    const app = await createTestApp(database, {
      http: {
        headersTimeoutMs: 1000,
        requestTimeoutMs: 1000,
        keepAliveTimeoutMs: 1000,
        maxConnections: 100,
        maxConnectionsPerClient: null,
        ...http,
      },
    });
    apps.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    return (app.server.address() as net.AddressInfo).port;
  }
  const open = (port: number, from?: string) => {
    const c = new Conn(port, from);
    conns.push(c);
    return c;
  };

  it('cuts off slowloris clients (a header or body byte every 200 ms) with 408', async () => {
    const port = await listening({});
    const headerTricklers = Array.from({ length: 10 }, () => open(port));
    const bodyTricklers = Array.from({ length: 10 }, () => open(port));
    for (const c of headerTricklers) c.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    for (const c of bodyTricklers) {
      c.write(
        'POST /api/v1/page-views/ HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":"',
      );
    }
    // A byte each tick, for at most 50 ticks (10 s, ten times the configured timeout).
    const all = [...headerTricklers, ...bodyTricklers];
    const cutOff = await all[0]!.until(
      () => all.every((c) => c.closed),
      50,
      () => {
        for (const c of headerTricklers) c.write('X');
        for (const c of bodyTricklers) c.write('x');
      },
    );
    expect(all.filter((c) => !c.closed)).toHaveLength(0);
    expect(cutOff).toBe(true);
    expect(all.map((c) => c.data.slice(0, 12))).toEqual(all.map(() => 'HTTP/1.1 408'));
  });

  it('closes connections that never send a byte, and idle keep-alive connections', async () => {
    const port = await listening({});
    const silent = Array.from({ length: 10 }, () => open(port));
    const idle = Array.from({ length: 10 }, () => open(port));
    for (const c of idle) c.write(GET_HEALTH);
    expect(await idle[0]!.until(() => idle.every((c) => answered(c)), 50)).toBe(true);
    const all = [...silent, ...idle];
    await all[0]!.until(() => all.every((c) => c.closed), 50);
    expect(silent.filter((c) => !c.closed)).toHaveLength(0);
    expect(idle.filter((c) => !c.closed)).toHaveLength(0);
  });

  it('refuses connections past MAX_CONNECTIONS; the ones it holds keep working', async () => {
    const port = await listening({
      headersTimeoutMs: 30_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 30_000,
      maxConnections: 5,
    });
    // Each held connection has been answered, so the server has surely accepted it.
    const held = Array.from({ length: 5 }, () => open(port));
    for (const c of held) c.write(GET_HEALTH);
    expect(await held[0]!.until(() => held.every((c) => answered(c)), 50)).toBe(true);

    const extra = Array.from({ length: 5 }, () => open(port));
    for (const c of extra) c.write(GET_HEALTH);
    await extra[0]!.until(() => extra.every((c) => c.closed || answered(c)), 50);
    expect(extra.map((c) => ({ closed: c.closed, answered: answered(c) }))).toEqual(
      extra.map(() => ({ closed: true, answered: false })),
    );

    // The five held connections are still open and serve a second request each.
    for (const c of held) c.write(GET_HEALTH);
    expect(await held[0]!.until(() => held.every((c) => answered(c, 2)), 50)).toBe(true);
    expect(held.filter((c) => c.closed)).toHaveLength(0);
  });

  it('lets one client hold only MAX_CONNECTIONS_PER_CLIENT; another is still served', async () => {
    const port = await listening({
      headersTimeoutMs: 30_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 30_000,
      maxConnections: 20,
      maxConnectionsPerClient: 5,
    });
    // One client floods: 30 idle keep-alive connections and 10 slowloris ones (scaled down from
    // the 10,000 and 5,000 that left a probe 0 of 348 and 3 of 83 answers).
    const idle = Array.from({ length: 30 }, () => open(port, '127.0.0.2'));
    for (const c of idle) c.write(GET_HEALTH);
    const slow = Array.from({ length: 10 }, () => open(port, '127.0.0.2'));
    for (const c of slow) c.write('GET /api/health HTTP/1.1\r\n');
    const flood = [...idle, ...slow];
    await flood[0]!.until(
      () =>
        flood.filter((c) => c.closed).length >= 35 && idle.every((c) => c.closed || answered(c)),
      50,
    );
    expect(flood.filter((c) => !c.closed)).toHaveLength(5);

    // Other clients (each address its own) are served at once, several connections each.
    const probes = ['127.0.0.3', '127.0.0.4', '127.0.0.5'].flatMap((from) =>
      Array.from({ length: 3 }, () => open(port, from)),
    );
    for (const c of probes) c.write(GET_HEALTH);
    expect(await probes[0]!.until(() => probes.every((c) => answered(c) || c.closed), 50)).toBe(
      true,
    );
    expect(probes.filter((c) => !answered(c))).toHaveLength(0);

    // A flooding connection that ends frees its place for that client (once the server has
    // seen it close: a few tries).
    idle.find((c) => !c.closed)?.socket.destroy();
    let again: Conn | undefined;
    for (let i = 0; i < 10 && !(again && answered(again)); i++) {
      again = open(port, '127.0.0.2');
      again.write(GET_HEALTH);
      await again.until(() => answered(again!) || again!.closed, 50);
    }
    expect(answered(again!)).toBe(true);
  });
});
