// The soak (`npm run test:soak`, after the durability tests): mixed traffic on PostgreSQL at half
// the rate the API managed unthrottled in the same run, for SOAK_MINUTES (default 30). Passes
// when under 0.1% of requests fail, p99 stays under 500 ms and memory stops growing after the
// first 5 minutes: the median RSS sampled around the last minute within 10% of that around the
// 5th (a median, as RSS jumps by some 30 MiB for one sample now and then, both ways). Beside RSS
// it records the server's live heap after each full garbage collection (bench/memory-probe.mjs),
// which tells retained objects from memory the process merely holds. Figures are printed and
// kept in test-results/soak.json for docs/reliability.md.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { machineInfo, median, root, startCandor } from './lib';
import { type MixedResult, mixedDatabase, mixedLoad, rssMiB } from './mixed-load';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);

console.log(machineInfo());
const secret = crypto.randomBytes(48).toString('base64url');
const db = await mixedDatabase(secret);
const heapLog = path.join(
  os.tmpdir(),
  `candor-soak-heap-${crypto.randomBytes(4).toString('hex')}.jsonl`,
);
const server = await startCandor(
  {
    DATABASE_URL: db.databaseUrl,
    JWT_SECRET: secret,
    PSEUDONYM_SECRET: crypto.randomBytes(48).toString('base64url'),
    SEED_SAMPLE_CONTENT: 'false',
  },
  { heapLog },
);
const pid = server.child.pid!;
/**
 * The heap that survived the server's latest full garbage collection (old generation, code and
 * large objects), in MiB; NaN before the first one.
 */
const liveHeapMiB = (): number => {
  const lines = fs.existsSync(heapLog) ? fs.readFileSync(heapLog, 'utf8').trim().split('\n') : [];
  // The last complete line (the server may be writing one right now).
  for (const line of lines.reverse()) {
    try {
      return (JSON.parse(line) as { retained: number }).retained;
    } catch {
      continue;
    }
  }
  return NaN;
};
let failed = true;
try {
  const max = await mixedLoad(server.url, db.targets, { seconds: 20, connections: 50 });
  const rate = Math.round(max.rps / 2);
  console.log(
    `unthrottled: ${max.rps} req/s (p99 ${max.p99} ms); soaking at ${rate} req/s for ${MINUTES} min`,
  );
  // One-minute windows, answers going on from pair to pair: a slowdown shows when it starts.
  const rss: Array<{ minute: number; mib: number; heap: number }> = [];
  const windows: MixedResult[] = [];
  const cursor = { pair: 0 };
  const started = Date.now();
  const sampler = setInterval(
    () =>
      rss.push({ minute: (Date.now() - started) / 60_000, mib: rssMiB(pid), heap: liveHeapMiB() }),
    15_000,
  );
  for (let minute = 0; minute < MINUTES; minute++) {
    const w = await mixedLoad(server.url, db.targets, {
      seconds: 60,
      connections: 50,
      rate,
      cursor,
    });
    windows.push(w);
    console.log(
      `minute ${minute + 1}: ${w.rps} req/s, p50 ${w.p50} ms, p99 ${w.p99} ms, errors ${w.errors}, replayed answers ${w.replayed}, RSS ${rssMiB(pid)} MiB, live heap ${liveHeapMiB()} MiB`,
    );
  }
  clearInterval(sampler);
  const requests = windows.reduce((n, w) => n + w.requests, 0);
  const errors = windows.reduce((n, w) => n + w.errors, 0);
  const soak = {
    requests,
    errors,
    errorRate: requests ? errors / requests : 0,
    rps: Math.round(requests / (MINUTES * 60)),
    // The worst minute's p99 and the median minute's p50: conservative, without merging histograms.
    p99: Math.max(...windows.map((w) => w.p99)),
    p50: windows.map((w) => w.p50).sort((a, b) => a - b)[Math.floor(windows.length / 2)]!,
  };
  const around = (from: number, to: number, of: 'mib' | 'heap' = 'mib') => {
    const xs = rss
      .filter((s) => s.minute >= from && s.minute < to)
      .map((s) => s[of])
      .filter((x) => !Number.isNaN(x));
    return xs.length ? median(xs) : NaN;
  };
  // The 5th minute (or, in a short trial run, the middle of it) is the reference.
  const reference = Math.min(5, MINUTES / 2);
  const fifthWindow = [Math.max(0, reference - 1), reference + 1] as const;
  const lastWindow = [MINUTES - 1, MINUTES + 1] as const;
  const fifth = around(...fifthWindow);
  const lastMinute = around(...lastWindow);
  const growth = (lastMinute - fifth) / fifth;
  const figures = {
    minutes: MINUTES,
    unthrottledRps: max.rps,
    rate,
    achievedRps: soak.rps,
    requests: soak.requests,
    errors: soak.errors,
    errorRate: soak.errorRate,
    p50: soak.p50,
    p99: soak.p99,
    perMinute: windows.map((w) => ({ rps: w.rps, p99: w.p99, errors: w.errors })),
    rssMiB: { fifthMinute: fifth, lastMinute, peak: Math.max(...rss.map((s) => s.mib)) },
    liveHeapMiB: {
      fifthMinute: around(...fifthWindow, 'heap'),
      lastMinute: around(...lastWindow, 'heap'),
      peak: Math.max(...rss.map((s) => s.heap).filter((h) => !Number.isNaN(h))),
    },
    samplesMiB: rss.map((s) => ({
      minute: Math.round(s.minute * 100) / 100,
      rss: s.mib,
      heap: s.heap,
    })),
    growthAfterFiveMinutes: Math.round(growth * 1000) / 10,
  };
  console.log(JSON.stringify(figures, null, 2));
  fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'test-results/soak.json'), JSON.stringify(figures, null, 2));
  const problems = [
    soak.errorRate >= 0.001 && `error rate ${(soak.errorRate * 100).toFixed(3)}% (limit 0.1%)`,
    soak.p99 >= 500 && `p99 ${soak.p99} ms (limit 500 ms)`,
    !(growth < 0.1) && `memory grew ${(growth * 100).toFixed(1)}% after the 5th minute (limit 10%)`,
  ].filter(Boolean);
  if (problems.length) console.error(`soak failed: ${problems.join('; ')}`);
  failed = problems.length > 0;
} finally {
  await server.stop();
  await db.drop();
  fs.rmSync(heapLog, { force: true });
}
process.exit(failed ? 1 : 0);
