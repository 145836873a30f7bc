// Process level: two real API processes on one PostgreSQL (and one Redis), members answering
// through both at once with their credentials (the leader mixes what they send into answers). Either process could fold the queue and publish snapshots; only the
// elected leader does (app.ts, db/client.ts lead()). Triggers this test adds to its own scratch
// database record every change of a question's tally: which process made it (each connects
// with its own application_name), the open period's count of entering answers before and
// after (a fold adds to it, a publication empties it into the snapshot), the published step
// (`periods`) before and after, when its transaction began and when the row was written.
import crypto from 'node:crypto';
import { type ListedQuestion, SurveyListSchema } from '@candor/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thresholdOf } from '../modules/results/privacy.js';
import { RESULTS_LOCK } from '../modules/results/results.repository.js';
import { obtainCredentialsOverHttp, redeemOverHttp } from '../test/credentials.js';
import { createScratchPostgres } from '../test/database.js';
import {
  type ServerProcess,
  dropRedisKeys,
  insertMembers,
  leaderPids,
  startServer,
} from '../test/servers.js';

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

const NAMES = ['candor-a', 'candor-b'] as const;
/** How long the publication of the slow question takes (a busy database). */
const SLOW_SECONDS = 2.5;

const OBSERVE = `
  create table observed_tallies (
    seq bigserial primary key,
    question_id integer not null,
    by text not null default current_setting('application_name'),
    began timestamptz not null default now(),
    at timestamptz not null default clock_timestamp(),
    old_events integer not null,
    new_events integer not null,
    old_periods integer not null,
    new_periods integer not null,
    published boolean not null);
  create function observe_tally() returns trigger language plpgsql as $$
  begin
    insert into observed_tallies
      (question_id, old_events, new_events, old_periods, new_periods, published)
    values (new.question_id,
            coalesce((old.pending->>'events')::int, 0), coalesce((new.pending->>'events')::int, 0),
            coalesce((old.snapshot->>'periods')::int, 0), coalesce((new.snapshot->>'periods')::int, 0),
            new.published_at is distinct from old.published_at);
    return null;
  end $$;
  create trigger observe_tally after update on question_tallies
    for each row execute function observe_tally();`;

/** A publication as recorded. */
interface Published {
  by: string;
  began: Date;
  at: Date;
  old_events: number;
  old_periods: number;
  new_periods: number;
}

describe.skipIf(!adminUrl)('results with two API processes on postgres', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let db: pg.Client;
  const servers: ServerProcess[] = [];
  const prefix = `candor-test:${crypto.randomUUID()}:`;
  let closed: ListedQuestion[];
  let phones = 0;

  beforeAll(async () => {
    scratch = await createScratchPostgres(adminUrl!);
    // One after the other: the first migrates and seeds the sample surveys.
    for (const name of NAMES) {
      const url = new URL(scratch.url);
      url.searchParams.set('application_name', name);
      servers.push(
        await startServer({
          DATABASE_URL: url.toString(),
          RESULTS_REFRESH_SECONDS: '1',
          // The leader's mixer writes whatever waits in the inbox on each pass.
          MIX_MAX_WAIT_SECONDS: '0',
          ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix } : {}),
        }),
      );
    }
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    await db.query(OBSERVE);
    const list = SurveyListSchema.parse(
      await (
        await fetch(`${servers[0]!.origin}/api/v1/surveys/open-closed-random-video-surveys`)
      ).json(),
    );
    closed = list.results
      .flatMap((s) => s.questions)
      .filter((q) => q.type === 'Closed' && q.status === 'Open');
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await db.end();
    await scratch.drop();
    if (redisUrl) await dropRedisKeys(redisUrl, prefix);
  });

  /**
   * `count` new members, each answering every question given with its survey's credential
   * (asked through either process), 16 at a time through both. The answers wait in the inbox
   * until the leader mixes them.
   */
  async function answer(questions: ListedQuestion[], count: number): Promise<number[]> {
    const members = await insertMembers(
      db,
      Array.from({ length: count }, () => `+1555${String(1_000_000 + phones++).slice(1)}`),
    );
    const gids = [...new Set(questions.map((q) => q.gid))];
    const held: Array<Map<string, string>> = [];
    let issued = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (issued < members.length) {
          const m = issued++;
          held[m] = await obtainCredentialsOverHttp(
            servers[m % 2]!.origin,
            members[m]!.token,
            gids,
          );
        }
      }),
    );
    const jobs = members.flatMap((_, i) =>
      questions.map((q) => ({
        credential: held[i]!.get(q.gid)!,
        q,
        choice: q.choices[i % q.choices.length]!,
      })),
    );
    const statuses: number[] = [];
    let next = 0;
    const runner = async () => {
      while (next < jobs.length) {
        const j = next++;
        const { credential, q, choice } = jobs[j]!;
        const res = await redeemOverHttp(servers[j % 2]!.origin, q.qid, credential, { choice });
        await res.text();
        statuses.push(res.status);
      }
    };
    await Promise.all(Array.from({ length: 16 }, runner));
    return statuses;
  }

  /** The name of the one process that says it leads (waiting for the election). */
  async function leaderName(): Promise<string> {
    const leading = () => servers.map((s) => leaderPids(s.lines).length > 0);
    await expect.poll(() => leading().filter(Boolean).length, { timeout: 15_000 }).toBe(1);
    return NAMES[leading().indexOf(true)]!;
  }

  const queued = async () =>
    (await db.query<{ n: number }>('select count(*)::int as n from results_queue')).rows[0]!.n;
  /** Answers acknowledged and not yet mixed (written as answers). */
  const waiting = async () =>
    (await db.query<{ n: number }>('select count(*)::int as n from answer_inbox')).rows[0]!.n;

  it('folds every answer exactly once, on the leader only', async () => {
    // 60 members answer 8 closed questions (none of the last survey's, kept for the next test).
    const questions = closed.filter((q) => q.gid !== closed.at(-1)!.gid).slice(0, 8);
    expect(questions).toHaveLength(8);
    const statuses = await answer(questions, 60);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    await expect.poll(waiting, { timeout: 20_000 }).toBe(0);
    await expect.poll(queued, { timeout: 20_000 }).toBe(0);

    // Per question: answers stored, and entering answers added to its open periods by folds.
    const { rows } = await db.query<{ qid: string; stored: number; folded: number }>(
      `select q.qid,
              (select count(*)::int from answers a where a.question_id = q.id) as stored,
              (select coalesce(sum(o.new_events - o.old_events), 0)::int from observed_tallies o
               where o.question_id = q.id and not o.published) as folded
       from questions q where q.qid = any($1) order by q.qid`,
      [questions.map((q) => q.qid)],
    );
    expect(rows).toHaveLength(questions.length);
    expect(rows.filter((r) => r.stored !== 60 || r.folded !== r.stored)).toEqual([]);
    // Every fold and every publication so far was made by the leader.
    const { rows: makers } = await db.query<{ by: string }>(
      'select distinct by from observed_tallies',
    );
    expect(makers.map((m) => m.by)).toEqual([await leaderName()]);
  }, 60_000);

  it('publishes each step once, on the leader only, though a publication takes seconds', async () => {
    // A question of another survey, whose publication is slowed down: while the leader writes
    // it, any other process that tested the same open period would be waiting to publish it too.
    // Of that survey's questions, the one at the lowest step (the sample answers leave some a
    // step or two on, and the list's order is random), with the step it is at and the last
    // change recorded, in one snapshot of the database.
    const last = closed.filter((c) => c.gid === closed.at(-1)!.gid);
    const { rows: found } = await db.query<{
      id: number;
      qid: string;
      periods: number;
      seq: string;
    }>(
      `select q.id, q.qid, coalesce((t.snapshot->>'periods')::int, 0) as periods,
              (select coalesce(max(seq), 0) from observed_tallies) as seq
       from questions q left join question_tallies t on t.question_id = q.id
       where q.qid = any($1) order by periods, q.id limit 1`,
      [last.map((c) => c.qid)],
    );
    const { id, periods: before, seq: mark } = found[0]!;
    const q = last.find((c) => c.qid === found[0]!.qid)!;
    // Enough answers that the trigger fires on them whatever its noise (its threshold doubles
    // with each step; the noise of the count and of the threshold has a scale of 8 each).
    const crowd = Math.max(80, thresholdOf(before) + 80);
    await db.query(`
      create function slow_publication() returns trigger language plpgsql as $$
      begin perform pg_sleep(${SLOW_SECONDS}); return new; end $$;
      create trigger slow_publication before update on question_tallies for each row
        when (new.question_id = ${id} and new.published_at is distinct from old.published_at)
        execute function slow_publication();`);
    const publications = async () =>
      (
        await db.query<Published>(
          `select by, began, at, old_events, old_periods, new_periods
           from observed_tallies where question_id = $1 and published and seq > $2 order by seq`,
          [id, mark],
        )
      ).rows;

    // The crowd's answers arrive together: folds wait (the test holds the lock they take) until
    // all are mixed and queued, so one fold takes them and one period holds them.
    await db.query('select pg_advisory_lock($1)', [RESULTS_LOCK]);
    const statuses = await answer([q], crowd);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    await expect.poll(waiting, { timeout: 20_000 }).toBe(0);
    await db.query('select pg_advisory_unlock($1)', [RESULTS_LOCK]);
    // The period holding them is published, and nothing is still being published after it.
    await expect
      .poll(async () => (await publications()).some((p) => p.old_events > 0), { timeout: 30_000 })
      .toBe(true);
    const busy = async () =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid()
             and (wait_event = 'PgSleep' or wait_event_type = 'Lock')`,
        )
      ).rows[0]!.n;
    for (let quiet = 0; quiet < 2;) {
      await new Promise((r) => setTimeout(r, 1200));
      quiet = (await busy()) === 0 ? quiet + 1 : 0;
    }

    const pubs = await publications();
    const { rows: now } = await db.query<{ periods: number; pending: number }>(
      `select coalesce((snapshot->>'periods')::int, 0) as periods,
              coalesce((pending->>'events')::int, 0) as pending
       from question_tallies where question_id = $1`,
      [id],
    );
    // Each publication is one step on from the one before, begun only after that one was
    // stored: none was decided on a period already being published.
    pubs.forEach((p, i) => {
      expect(p.new_periods).toBe(p.old_periods + 1);
      if (i > 0) expect(p.began.getTime()).toBeGreaterThanOrEqual(pubs[i - 1]!.at.getTime());
    });
    expect(now[0]!.periods).toBe(before + pubs.length);
    // Each answer is in exactly one published period, or still in the open one.
    expect(pubs.reduce((n, p) => n + p.old_events, 0) + now[0]!.pending).toBe(crowd);
    expect([...new Set(pubs.map((p) => p.by))]).toEqual([await leaderName()]);
  }, 60_000);
});
