// Mixed traffic like a day of real use, for the memory benchmark and the soak: for every 10
// requests, 4 survey list reads, 2 survey detail reads, 2 fresh answers (a new member and question
// each time), 1 results read of a closed survey and 1 member's own answered questions.
import fs from 'node:fs';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client';
import { prepare } from './answer-ingest';
import { createPostgresDatabase } from './lib';

export interface MixedTargets {
  tokens: string[];
  answers: Array<{ qid: string; body: string }>;
  gids: string[];
  closedQid: string;
}

/** A fresh PostgreSQL database, prepared with members, and a way to drop it. */
export async function mixedDatabase(jwtSecret: string) {
  const scratch = await createPostgresDatabase();
  const databaseUrl = scratch.url;
  const prepared = await prepare({ databaseUrl }, jwtSecret);
  const database = await openDatabase({ databaseUrl, dataDir: null });
  const result = await database.db.execute(sql`
    select s.gid::text as gid, s.closed_at is not null as closed,
           (select q.qid::text from questions q where q.survey_id = s.id and q.type = 'Closed'
            order by q.position limit 1) as qid
    from surveys s where s.published_at is not null and s.release_date <= now()`);
  await database.close();
  const rows = (result as { rows: Array<{ gid: string; closed: boolean; qid: string }> }).rows;
  const targets: MixedTargets = {
    tokens: prepared.tokens,
    answers: prepared.targets,
    gids: rows.map((r) => r.gid),
    closedQid: rows.find((r) => r.closed)!.qid,
  };
  return {
    databaseUrl,
    targets,
    drop: scratch.drop,
  };
}

export interface MixedResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Share of requests that failed (non-2xx, errors, timeouts). */
  errorRate: number;
}

/** Runs the mix for `seconds` with `connections`; `rate` caps the total requests per second. */
export async function mixedLoad(
  url: string,
  t: MixedTargets,
  {
    seconds,
    connections,
    rate,
    cursor = { pair: 0 },
  }: {
    seconds: number;
    connections: number;
    rate?: number;
    /** Where the fresh answer pairs go on from: pass the same object to consecutive runs. */
    cursor?: { pair: number };
  },
): Promise<MixedResult> {
  const json = { 'content-type': 'application/json' };
  const auth = (i: number) => ({ authorization: `Bearer ${t.tokens[i % t.tokens.length]}` });
  const list = { method: 'GET' as const, path: '/api/v1/surveys/open-closed-random-video-surveys' };
  const detail = (i: number) => ({
    method: 'GET' as const,
    path: `/api/v1/surveys/${t.gids[i % t.gids.length]}/video-survey`,
  });
  const answer = {
    method: 'POST' as const,
    setupRequest: (req: autocannon.Request) => {
      // Pair n: member n mod M, question (n div M) mod Q: none repeats for M x Q requests.
      const n = cursor.pair++;
      const member = n % t.tokens.length;
      const target = t.answers[Math.floor(n / t.tokens.length) % t.answers.length]!;
      return {
        ...req,
        path: `/api/v1/questions/${target.qid}/answer/`,
        headers: { ...json, ...auth(member) },
        body: target.body,
      };
    },
  };
  // A member's read: a visitor's is limited per address (300 a minute), and every request here
  // comes from one address.
  const results = {
    method: 'GET' as const,
    path: `/api/v1/questions/${t.closedQid}/results/`,
    headers: auth(1),
  };
  const mine = {
    method: 'GET' as const,
    setupRequest: (req: autocannon.Request) => ({
      ...req,
      path: '/api/v1/questions/my-attempted-questions/',
      headers: auth(cursor.pair),
    }),
  };
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    requests: [list, detail(0), answer, list, results, detail(1), list, answer, mine, list],
  });
  const errors = r.errors + r.non2xx + r.timeouts;
  const requests = r.requests.total + r.errors + r.timeouts;
  return {
    requests,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors,
    errorRate: requests ? errors / requests : 0,
  };
}

/** Resident memory of a process, in MiB (from /proc). */
export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}
