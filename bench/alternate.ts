// Side by side on one noisy machine: the answer-ingest load (wrk, 50 connections, fresh answers)
// against several Candor servers in turn, 10 s each, round after round, so that every variant
// sees the same moments of the machine. Each variant has its own fresh PostgreSQL database,
// prepared as answer-ingest prepares it, then changed by the variant's SQL, and its own server
// environment (e.g. WEB_CONCURRENCY, or BENCH_SERVER_ENTRY for another build's server file).
import crypto from 'node:crypto';
import pg from 'pg';
import { ingest, prepare, writePairFiles } from './answer-ingest';
import { createPostgresDatabase, median, startCandor } from './lib';

export interface Variant {
  label: string;
  sql?: string;
  env?: Record<string, string>;
}

export interface Alternated {
  label: string;
  /** Medians over the rounds. */
  rps: number;
  p99: number;
  runs: number[];
  /** CPU µs per answer (bench/cpu.ts), medians over the rounds: the API's, and all processes'. */
  apiCpu: number;
  totalCpu: number;
}

export async function alternate(variants: Variant[], rounds: number): Promise<Alternated[]> {
  const secret = crypto.randomBytes(32).toString('hex');
  const setups = [];
  try {
    for (const variant of variants) {
      const db = await createPostgresDatabase();
      const prepared = await prepare({ databaseUrl: db.url }, secret);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      if (variant.sql) await client.query(variant.sql);
      const server = await startCandor({
        DATABASE_URL: db.url,
        JWT_SECRET: secret,
        PSEUDONYM_SECRET: secret,
        ACCESS_TOKEN_TTL: '3600',
        ...variant.env,
      });
      const files = writePairFiles(prepared);
      // Warm: the code compiled, most members' respondents made.
      const cursor = ingest(server.url, files, 0, 5).used;
      setups.push({
        ...variant,
        db,
        client,
        server,
        files,
        cursor,
        rps: [] as number[],
        p99: [] as number[],
        apiCpu: [] as number[],
        totalCpu: [] as number[],
      });
    }
    for (let round = 0; round < rounds; round++) {
      for (const s of setups) {
        // The previous runs' answers folded first: no run competes with a backlog.
        for (;;) {
          const { rows } = await s.client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM results_queue',
          );
          if (rows[0]!.n === 0) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        const run = ingest(s.server.url, s.files, s.cursor);
        s.cursor += run.used;
        s.rps.push(Math.round(run.result.rps));
        s.p99.push(run.result.p99);
        s.apiCpu.push(run.cpu.api);
        s.totalCpu.push(run.cpu.total);
      }
    }
    return setups.map((s) => ({
      label: s.label,
      rps: median(s.rps),
      p99: median(s.p99),
      runs: s.rps,
      apiCpu: median(s.apiCpu),
      totalCpu: median(s.totalCpu),
    }));
  } finally {
    for (const s of setups) {
      await s.server.stop();
      await s.client.end();
      await s.db.drop();
    }
  }
}
