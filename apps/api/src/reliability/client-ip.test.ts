// Who is the client behind a proxy? Over real sockets, with TRUST_PROXY read as an operator sets
// it: only the hops the operator trusts may name the client, so whatever a client writes at the
// front of X-Forwarded-For is never believed, and a forged first hop buys no extra signups.
import fs from 'node:fs';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { freshPhone, signupBody } from '../test/accounts.js';
import { tempDataDir, testConfig, testSecrets } from '../test/app.js';
import { closeAll, createTestDatabase, engines } from '../test/database.js';

interface Listening {
  app: App;
  url: string;
  /** request.ip of each request so far, in the order they arrived. */
  ips: () => string[];
}

describe.each(engines)('client IP behind proxies on %s', (engine) => {
  let database: Database;
  const apps: App[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await closeAll(database);
  });

  /** A listening app with TRUST_PROXY=`trust`; each request's client IP is noted as it comes. */
  async function serve(trust: string): Promise<Listening> {
    const seen: string[] = [];
    const dataDir = tempDataDir();
    const app = await buildApp({
      config: testConfig({
        dataDir,
        trustProxy: loadConfig({ TRUST_PROXY: trust }).trustProxy,
      }),
      database,
      secrets: testSecrets(),
    });
    // The log keeps no address (lib/loggable-error.ts): the request's own ip is read here.
    app.addHook('onRequest', async (request) => {
      seen.push(request.ip);
    });
    apps.push(app);
    app.addHook('onClose', async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    return { app, url: `http://127.0.0.1:${port}`, ips: () => [...seen] };
  }

  /** The client IP the app sees for one request from this machine with `xff`. */
  async function ipFor(server: Listening, xff?: string): Promise<string> {
    const before = server.ips().length;
    const res = await fetch(`${server.url}/api/health`, {
      headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
    });
    expect(res.status).toBe(200);
    return server.ips()[before]!;
  }

  it('TRUST_PROXY=1: the client is the address the proxy appended, never one the client wrote', async () => {
    const server = await serve('1');
    expect(await ipFor(server, '6.6.6.6, 1.2.3.4')).toBe('1.2.3.4');
    expect(await ipFor(server, '6.6.6.6,7.7.7.7, 1.2.3.4')).toBe('1.2.3.4');
    expect(await ipFor(server, '1.2.3.4')).toBe('1.2.3.4');
    expect(await ipFor(server)).toBe('127.0.0.1');
  });

  it('TRUST_PROXY=addresses: trusted proxies are skipped from the right, others end the chain', async () => {
    const chain = await serve('127.0.0.1, 10.0.0.0/8');
    expect(await ipFor(chain, '6.6.6.6, 1.2.3.4')).toBe('1.2.3.4');
    expect(await ipFor(chain, '6.6.6.6, 1.2.3.4, 10.1.2.3')).toBe('1.2.3.4');
    // The socket's peer is not a listed proxy: its X-Forwarded-For is not believed at all.
    const elsewhere = await serve('10.0.0.0/8');
    expect(await ipFor(elsewhere, '1.2.3.4')).toBe('127.0.0.1');
    const off = await serve('false');
    expect(await ipFor(off, '1.2.3.4')).toBe('127.0.0.1');
  });

  it('a burst of signups with rotating forged first hops still meets the per-IP limit', async () => {
    const server = await serve('1');
    const limit = testConfig().sms.perIpPerHour;
    const client = '203.0.113.7';
    const burst = await Promise.all(
      Array.from({ length: limit + 3 }, (_, i) =>
        fetch(`${server.url}/api/v1/user/create/`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `198.18.${i >> 8}.${i & 255}, ${client}`,
          },
          body: JSON.stringify(signupBody(freshPhone())),
        }),
      ),
    );
    const statuses = burst.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array<number>(limit).fill(202), ...Array<number>(3).fill(429)]);
    expect(new Set(server.ips())).toEqual(new Set([client]));
    // Someone else behind the same proxy is not held back by it.
    const other = await fetch(`${server.url}/api/v1/user/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.9' },
      body: JSON.stringify(signupBody(freshPhone())),
    });
    expect(other.status).toBe(202);
  });
});
