// A log reader that stops reading (`candor | sleep 600`): standard output is a pipe that fills
// and is never drained. Before, SIGTERM never finished: pino's exit-time flush retried the
// pipe's EAGAIN forever, so neither the shutdown deadline nor a second signal could run, and a
// cluster's workers outlived their primary's SIGKILL. Shutdown is bounded whatever the reader
// does: the lines that cannot be written are dropped, and counted on stderr.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServerProcess, childPids, startServer } from '../test/servers.js';
import { createScratchPostgres } from '../test/database.js';

const adminUrl = process.env.TEST_DATABASE_URL;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The writing end of a pipe whose reader never reads (it stays open, so no EPIPE). */
function stalledPipe(): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-stall-'));
  const fifo = path.join(dir, 'log');
  execFileSync('mkfifo', [fifo]);
  const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const writer = fs.openSync(fifo, 'w');
  cleanups.push(() => {
    fs.closeSync(writer);
    fs.closeSync(reader);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return writer;
}

/** Enough requests (each logs a line) to fill the pipe several times over. */
async function fillThePipe(origin: string): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    const res = await fetch(`${origin}/api/v1/surveys/none-such-${i}`);
    await res.arrayBuffer();
  }
}

/** Whether `pid` still runs (a zombie nobody has reaped yet has ended). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function exited(server: ServerProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  server.child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => {
    if (server.child.exitCode !== null) resolve(server.child.exitCode);
    else server.child.once('exit', (c) => resolve(c));
  });
  return { code, stderr };
}

describe('a log reader that stops reading', () => {
  it('one process: SIGTERM finishes, the unwritten lines dropped and counted', async () => {
    const server = await startServer({ EMBEDDED_DATABASE: 'pglite' }, { stdout: stalledPipe() });
    cleanups.push(() => server.stop());
    await fillThePipe(server.origin);
    const done = exited(server);
    server.child.kill('SIGTERM');
    const { code, stderr } = await done;
    expect(code).toBe(0);
    expect(stderr).toMatch(/the log's reader is not reading: \d+ log lines? dropped/);
  }, 120_000);

  describe.skipIf(!adminUrl)('a cluster (WEB_CONCURRENCY=2, PostgreSQL)', () => {
    /** A cluster writing to a stalled pipe, its pipe filled, and its workers' pids. */
    async function stalledCluster() {
      const scratch = await createScratchPostgres(adminUrl!);
      cleanups.push(() => scratch.drop());
      const primary = await startServer(
        { DATABASE_URL: scratch.url, WEB_CONCURRENCY: '2' },
        { stdout: stalledPipe() },
      );
      cleanups.push(() => primary.stop());
      const workers = childPids(primary.child.pid!);
      expect(workers).toHaveLength(2);
      cleanups.push(() => {
        for (const pid of workers.filter(alive)) process.kill(pid, 'SIGKILL');
      });
      await fillThePipe(primary.origin);
      return { primary, workers };
    }

    it('SIGTERM stops the primary and both workers', async () => {
      const { primary, workers } = await stalledCluster();
      const done = exited(primary);
      primary.child.kill('SIGTERM');
      const { code, stderr } = await done;
      expect(code).toBe(0);
      expect(stderr).toMatch(/the log's reader is not reading: \d+ log lines? dropped/);
      expect(workers.filter(alive)).toEqual([]);
    }, 180_000);

    it('the workers end with a primary killed with SIGKILL', async () => {
      const { primary, workers } = await stalledCluster();
      const done = exited(primary);
      primary.child.kill('SIGKILL');
      await done;
      // Each notices its primary gone and shuts down; before, both hung in the log's flush.
      await expect
        .poll(() => workers.filter(alive), { timeout: 60_000, interval: 200 })
        .toEqual([]);
    }, 180_000);
  });
});
