// API memory: resident set size (RSS) of the API process at rest, during and after 5 minutes of
// mixed traffic on PostgreSQL; baseline: a bare Fastify process at rest, measured in the same run.
import crypto from 'node:crypto';
import { startBare, startCandor } from './lib';
import { UNTHROTTLED_ANSWERS, mixedDatabase, mixedLoad, rssMiB } from './mixed-load';

const LOAD_SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 300);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function memoryBench(): Promise<string> {
  const secret = crypto.randomBytes(48).toString('base64url');
  const db = await mixedDatabase(secret);
  const server = await startCandor({
    DATABASE_URL: db.databaseUrl,
    JWT_SECRET: secret,
    PSEUDONYM_SECRET: crypto.randomBytes(48).toString('base64url'),
    SEED_SAMPLE_CONTENT: 'false',
  });
  const pid = server.child.pid!;
  try {
    await sleep(5000);
    const atRest = rssMiB(pid);
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMiB(pid)), 10_000);
    const load = await mixedLoad(server.url, db.targets, {
      seconds: LOAD_SECONDS,
      connections: 20,
    });
    clearInterval(sampler);
    const afterLoad = rssMiB(pid);
    await sleep(10_000);
    const settled = rssMiB(pid);

    // Baseline: a bare Fastify process serving one fixed body, at rest.
    const bare = await startBare(`${server.url}/api/health`);
    await sleep(3000);
    const bareRest = rssMiB(bare.child.pid!);
    await bare.stop();

    const first = samples.slice(0, 3);
    const last = samples.slice(-3);
    return [
      `Mixed load: ${LOAD_SECONDS} s, 20 connections, ${load.requests} requests, ${load.rps} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms, errors ${load.errors}; answers with each member's credential, ${load.replayed} of them replays past the ${UNTHROTTLED_ANSWERS.toLocaleString('en')} fresh pairs.`,
      '',
      '| process | RSS MiB |',
      '|---|---|',
      `| bare Fastify at rest (baseline) | ${bareRest} |`,
      `| Candor API at rest (PostgreSQL) | ${atRest} (${(atRest / bareRest).toFixed(1)}x) |`,
      `| Candor API, first 30 s of load | ${first.join(', ')} |`,
      `| Candor API, last 30 s of load | ${last.join(', ')} |`,
      `| Candor API, peak during load | ${Math.max(...samples)} |`,
      `| Candor API, end of load | ${afterLoad} |`,
      `| Candor API, 10 s after | ${settled} |`,
    ].join('\n');
  } finally {
    await server.stop();
    await db.drop();
  }
}
