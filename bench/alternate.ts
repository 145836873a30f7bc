// Side by side on one noisy machine: the answer-ingest load (wrk, 50 connections, fresh answers)
// against several Candor servers in turn, 10 s each, round after round, so that every variant
// sees the same moments of the machine. Each variant has its own fresh PostgreSQL database,
// prepared as answer-ingest prepares it, then changed by the variant's SQL, and its own server
// environment (e.g. WEB_CONCURRENCY, or BENCH_SERVER_ENTRY for another build's server file).
// Answers are redeemed with credentials (decision 020), asked untimed from the first variant's
// server; its surveys' keys are copied into the other variants' databases before their servers
// start, so the same credentials answer on every variant (bench/ingest-credentials.ts).
import crypto from 'node:crypto';
import pg from 'pg';
import {
  credentialsFor,
  drained,
  ingest,
  prepare,
  serverSecrets,
  writePairFiles,
} from './answer-ingest';
import { type CredentialState, readCredentialState } from './ingest-credentials';
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
  /** Medians over the rounds: answers in the inbox when a run ended, seconds until it was empty. */
  inboxLeft: number;
  mixedAfter: number;
  /** Over all rounds: replies of 400 and over (a 401: sent without a credential), socket errors. */
  non2xx: number;
  socketErrors: number;
}

export async function alternate(variants: Variant[], rounds: number): Promise<Alternated[]> {
  const secret = crypto.randomBytes(32).toString('hex');
  const setups = [];
  let credentials: string[][] | undefined;
  let state: CredentialState | undefined;
  try {
    for (const variant of variants) {
      const db = await createPostgresDatabase();
      const prepared = await prepare({ databaseUrl: db.url, credentials: state }, secret);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      if (variant.sql) await client.query(variant.sql);
      const server = await startCandor({
        DATABASE_URL: db.url,
        ...serverSecrets(secret),
        ...variant.env,
      });
      if (!credentials) {
        credentials = await credentialsFor(server.url, prepared);
        state = await readCredentialState(db.url);
      }
      const files = writePairFiles(prepared, credentials);
      // Warm: the code compiled, the credentials verified.
      const cursor = ingest(server.url, files, 0, 5).used;
      await drained(client, secret);
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
        inboxLeft: [] as number[],
        mixedAfter: [] as number[],
        non2xx: 0,
        socketErrors: 0,
      });
    }
    for (let round = 0; round < rounds; round++) {
      for (const s of setups) {
        const run = ingest(s.server.url, s.files, s.cursor);
        s.cursor += run.used;
        s.rps.push(Math.round(run.result.rps));
        s.p99.push(run.result.p99);
        s.apiCpu.push(run.cpu.api);
        s.totalCpu.push(run.cpu.total);
        s.non2xx += run.non2xx;
        s.socketErrors += run.socketErrors;
        // The run's answers mixed and folded before the next run: none competes with a backlog.
        const left = await drained(s.client, secret);
        s.inboxLeft.push(left.left);
        s.mixedAfter.push(left.mixedAfter);
      }
    }
    return setups.map((s) => ({
      label: s.label,
      rps: median(s.rps),
      p99: median(s.p99),
      runs: s.rps,
      apiCpu: median(s.apiCpu),
      totalCpu: median(s.totalCpu),
      inboxLeft: median(s.inboxLeft),
      mixedAfter: median(s.mixedAfter),
      non2xx: s.non2xx,
      socketErrors: s.socketErrors,
    }));
  } finally {
    for (const s of setups) {
      await s.server.stop();
      await s.client.end();
      await s.db.drop();
    }
  }
}
