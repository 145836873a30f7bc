// Time from `npm start` to the first successful page load, on a fresh clone after `npm ci`:
// the first start (build + new database + migrations + sample content) and a second start.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, median, root } from './lib';

async function timeStart(dir: string, port: number): Promise<number> {
  const started = Date.now();
  const child = spawn('npm', ['start'], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (;;) {
      if (child.exitCode !== null) {
        throw new Error(`npm start exited with ${child.exitCode}:\n${output.slice(-3000)}`);
      }
      try {
        const page = await fetch(`http://127.0.0.1:${port}/`);
        const list = await fetch(
          `http://127.0.0.1:${port}/api/v1/surveys/open-closed-random-video-surveys`,
        );
        if (page.ok && list.ok) return Date.now() - started;
      } catch {
        // not yet
      }
      if (Date.now() - started > 300_000) throw new Error('npm start: no page after 5 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    // npm exits at once; the server under it finishes its shutdown (and frees the data folder)
    // a moment later. The next start must not find it still there.
    await groupGone(child.pid!);
  }
}

async function groupGone(pgid: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(-pgid, Date.now() > deadline ? 'SIGKILL' : 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startupBench(runs = 3) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-clone-'));
  try {
    execFileSync('git', ['clone', '--quiet', root, dir]);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--silent'], {
      cwd: dir,
      stdio: 'ignore',
    });
    const first: number[] = [];
    const again: number[] = [];
    for (let i = 0; i < runs; i++) {
      fs.rmSync(path.join(dir, 'data'), { recursive: true, force: true });
      first.push(await timeStart(dir, await freePort()));
      again.push(await timeStart(dir, await freePort()));
    }
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    return [
      '| `npm start` on a fresh clone (after `npm ci`) | median | runs |',
      '|---|---|---|',
      `| first start: build, new database, migrations, sample content, first page | ${s(median(first))} | ${first.map(s).join(', ')} |`,
      `| next start: build, existing database, first page | ${s(median(again))} | ${again.map(s).join(', ')} |`,
    ].join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
