// Mixed traffic like a day of real use, for the memory benchmark and the soak: for every 10
// requests, 4 survey list reads, 2 survey detail reads, 2 fresh answers (a new member and question
// pair each time, redeemed with the member's credential for the survey and no session, decision
// 020), 1 results read of a closed survey and 1 member's own answered questions. The credentials
// are asked before each run (as members' devices do at login), untimed.
import fs from 'node:fs';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client';
import { obtainCredentialsOverHttp } from '../apps/api/src/test/credentials';
import { prepare } from './answer-ingest';
import { createPostgresDatabase } from './lib';

export interface MixedTargets {
  tokens: string[];
  /** The questions answered, each with its survey and a body carrying a device's profile. */
  answers: Array<{ qid: string; gid: string; body: string }>;
  gids: string[];
  closedQid: string;
  /** Member i's credentials by survey, once asked (`ensureCredentials`). */
  credentials: Array<Map<string, string>>;
}

/** Answers an unthrottled run is given fresh pairs for; past them it sends replays (200). */
export const UNTHROTTLED_ANSWERS = 20_000;

/**
 * Asks the credentials of members [held, upTo) for every answered survey, 8 members at a time,
 * one request each (as a device at login).
 */
export async function ensureCredentials(url: string, t: MixedTargets, upTo: number) {
  const gids = [...new Set(t.answers.map((a) => a.gid))];
  const last = Math.min(upTo, t.tokens.length);
  let next = t.credentials.length;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < last) {
        const m = next++;
        t.credentials[m] = await obtainCredentialsOverHttp(url, t.tokens[m]!, gids);
      }
    }),
  );
}

/** The classes devices send with their answers. */
const PROFILES = [
  { gender: 'female', age_band: '25-34', country: 'US' },
  { gender: 'male', age_band: '35-44', country: 'GB' },
  { gender: 'female', age_band: '18-24', country: 'IN' },
  { gender: 'male', age_band: '45-54', country: 'NG' },
];

/** A fresh PostgreSQL database, prepared with members, and a way to drop it. */
export async function mixedDatabase(jwtSecret: string) {
  const scratch = await createPostgresDatabase();
  const databaseUrl = scratch.url;
  const prepared = await prepare({ databaseUrl }, jwtSecret);
  const database = await openDatabase({ databaseUrl, dataDir: null });
  const surveyOf = await database.db.execute(sql`
    select q.qid::text as qid, s.gid::text as gid
    from questions q join surveys s on s.id = q.survey_id`);
  const gidOf = new Map(
    (surveyOf as { rows: Array<{ qid: string; gid: string }> }).rows.map((r) => [r.qid, r.gid]),
  );
  const result = await database.db.execute(sql`
    select s.gid::text as gid, s.closed_at is not null as closed,
           (select q.qid::text from questions q where q.survey_id = s.id and q.type = 'Closed'
            order by q.position limit 1) as qid
    from surveys s where s.published_at is not null and s.release_date <= now()`);
  await database.close();
  const rows = (result as { rows: Array<{ gid: string; closed: boolean; qid: string }> }).rows;
  const targets: MixedTargets = {
    tokens: prepared.tokens,
    answers: prepared.targets.map((a, i) => ({
      qid: a.qid,
      gid: gidOf.get(a.qid)!,
      body: JSON.stringify({
        ...(JSON.parse(a.body) as object),
        profile: PROFILES[i % PROFILES.length],
      }),
    })),
    gids: rows.map((r) => r.gid),
    closedQid: rows.find((r) => r.closed)!.qid,
    credentials: [],
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
  /** Answers sent past the fresh pairs prepared for the run: replays of an earlier answer. */
  replayed: number;
}

/**
 * Runs the mix for `seconds` with `connections`; `rate` caps the total requests per second. The
 * credentials for the answers the run can send are asked first (untimed): for a capped run, as
 * many as its rate allows; for an unthrottled one, UNTHROTTLED_ANSWERS, replayed past them.
 */
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
  const perMember = t.answers.length;
  const budget = rate ? Math.ceil(rate * seconds * 0.2 * 1.2) : UNTHROTTLED_ANSWERS;
  const membersNeeded = Math.ceil((cursor.pair + budget) / perMember) + 1;
  await ensureCredentials(url, t, membersNeeded);
  const freshPairs = t.credentials.length * perMember;
  let replayed = 0;
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
      // Pair n: member n div Q, question n mod Q: none repeats, and each member answers
      // every question with its few credentials. Past the members with credentials: a replay.
      let n = cursor.pair++;
      if (n >= freshPairs) {
        replayed++;
        n %= freshPairs;
      }
      const member = Math.floor(n / perMember);
      const target = t.answers[n % perMember]!;
      return {
        ...req,
        path: `/api/v1/questions/${target.qid}/answer/`,
        headers: { ...json, 'candor-credential': t.credentials[member]!.get(target.gid)! },
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
    replayed,
  };
}

/** Resident memory of a process, in MiB (from /proc). */
export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}
