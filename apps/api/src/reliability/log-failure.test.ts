// The log's destination failing never stops the server: standard output on a full disk
// (/dev/full: every write fails with ENOSPC), or a reader that is gone before the first line.
// Before lib/log-destination.ts the first hung the process for good (pino's exit handler retried
// the failed write forever, SIGTERM unheard) and the second ended it (EPIPE from the banner).
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../test/servers.js';

const started: ServerProcess[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.stop();
});

async function health(server: ServerProcess): Promise<number> {
  const res = await fetch(`${server.origin}/api/health`, { signal: AbortSignal.timeout(5000) });
  await res.arrayBuffer();
  return res.status;
}

describe('the log destination failing', () => {
  it('a full disk: every request still answered (each one logged), and SIGTERM still stops it', async () => {
    const full = fs.openSync('/dev/full', 'w');
    try {
      const server = await startServer({ EMBEDDED_DATABASE: 'pglite' }, { stdout: full });
      started.push(server);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push(await health(server));
      expect(statuses).toEqual(statuses.map(() => 200));
      started.pop();
      await server.stop();
      expect(server.child.exitCode).toBe(0);
    } finally {
      fs.closeSync(full);
    }
  });

  it('a reader gone before the first line: the server starts and answers', async () => {
    const server = await startServer({ EMBEDDED_DATABASE: 'pglite' }, { stdout: 'closed' });
    started.push(server);
    for (let i = 0; i < 10; i++) expect(await health(server)).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
