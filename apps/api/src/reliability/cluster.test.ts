// Process level: the real server from source in cluster mode (WEB_CONCURRENCY=2) on PostgreSQL.
// A worker is SIGKILLed while members answer with their credentials: every answer acknowledged
// is stored once mixed, the background work moves to the other worker, and the primary starts a
// new one.
import { once } from 'node:events';
import http from 'node:http';
import { SurveyListSchema } from '@candor/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { obtainCredentialsOverHttp } from '../test/credentials.js';
import { createScratchPostgres } from '../test/database.js';
import {
  type ServerProcess,
  childPids,
  connectionsHeld,
  insertMembers,
  leaderPids,
  startServer,
} from '../test/servers.js';

const adminUrl = process.env.TEST_DATABASE_URL;

class Unanswered extends Error {}

/** The status of `req`'s answer once it has all arrived, or the error that cut it off. */
function statusOf(req: http.ClientRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
      res.on('error', reject);
    });
  });
}

/**
 * POSTs an answer on a new connection. A client gives up after 10 s (Unanswered): a connection
 * handed to a worker as it died was once never answered nor closed (lib/cluster-connections.ts).
 */
function postOnce(url: string, credential: string, body: string): Promise<number> {
  const req = http.request(url, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'candor-credential': credential },
    timeout: 10_000,
  });
  req.on('timeout', () => req.destroy(new Unanswered('no answer in 10 s')));
  const status = statusOf(req);
  req.end(body);
  return status;
}

/** What a device sends with its answers beside the choice. */
const PROFILE = { gender: 'female', age_band: '25-34', country: 'US' } as const;

/** A closed question of the listed surveys. */
async function closedQuestion(base: string) {
  const list = SurveyListSchema.parse(
    await (await fetch(`${base}/api/v1/surveys/open-closed-random-video-surveys`)).json(),
  );
  return list.results.flatMap((s) => s.questions).find((q) => q.type === 'Closed')!;
}

describe.skipIf(!adminUrl)('cluster mode on postgres', () => {
  // Undefined when beforeAll failed before making them; afterAll undoes what exists.
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | undefined;
  let primary: ServerProcess | undefined;

  beforeAll(async () => {
    scratch = await createScratchPostgres(adminUrl!);
    primary = await startServer({
      DATABASE_URL: scratch.url,
      WEB_CONCURRENCY: '2',
      RESULTS_REFRESH_SECONDS: '1',
      // The leader's mixer writes whatever waits in the inbox on each pass.
      MIX_MAX_WAIT_SECONDS: '0',
    });
  }, 90_000);

  afterAll(async () => {
    await primary?.stop();
    await scratch?.drop();
  });

  it('spreads connections that arrive together evenly over the workers', async () => {
    if (!primary) throw new Error('the cluster did not start');
    const workers = childPids(primary.child.pid!);
    expect(workers).toHaveLength(2);
    // 40 clients connect at once (as a load generator or a balancer does) and keep their
    // connections open. Letting the workers race to accept gave one of them 47 of 50.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 40 });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 40 }, () =>
          statusOf(http.get(`${primary!.origin}/api/health`, { agent })),
        ),
      );
      expect(statuses).toEqual(statuses.map(() => 200));
      const port = Number(new URL(primary.origin).port);
      const held = connectionsHeld(workers, port);
      // Half each (give or take the test's own start-up probe), and the primary keeps none.
      expect(Math.min(...held)).toBeGreaterThanOrEqual(19);
      expect(held[0]! + held[1]!).toBeGreaterThanOrEqual(40);
      await expect.poll(() => connectionsHeld([primary!.child.pid!], port)).toEqual([0]);
    } finally {
      agent.destroy();
    }
  });

  it('loses no acknowledged answer when a worker is killed, and the lead moves on', async () => {
    if (!primary || !scratch) throw new Error('the cluster did not start');
    const { origin: base, lines } = primary;
    await expect.poll(() => leaderPids(lines).length, { timeout: 15_000 }).toBe(1);
    const [leader] = leaderPids(lines) as [number];

    // Members answer one closed question each with its survey's credential (asked beforehand,
    // as at login), 8 at a time, while the leader is killed.
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    try {
      const question = await closedQuestion(base);
      const members = await insertMembers(
        db,
        Array.from({ length: 240 }, (_, i) => `+1555${String(1_000_000 + i).slice(1)}`),
      );
      const credentials: string[] = [];
      let issued = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (issued < members.length) {
            const m = issued++;
            const held = await obtainCredentialsOverHttp(base, members[m]!.token, [question.gid]);
            credentials[m] = held.get(question.gid)!;
          }
        }),
      );
      const acknowledged: string[] = [];
      let failed = 0;
      let unanswered = 0;
      const answerOnce = async (credential: string) => {
        try {
          // Each answer on a connection of its own, as from many clients: every one is handed
          // to a worker, some as the worker dies.
          const status = await postOnce(
            `${base}/api/v1/questions/${question.qid}/answer/`,
            credential,
            JSON.stringify({ choice: question.choices[0], profile: PROFILE }),
          );
          if (status === 201) acknowledged.push(credential);
          else failed += 1;
        } catch (err) {
          failed += 1; // the connection died with the worker
          if (err instanceof Unanswered) unanswered += 1;
        }
      };
      let next = 0;
      const runner = async () => {
        while (next < credentials.length) await answerOnce(credentials[next++]!);
      };
      const load = Promise.all(Array.from({ length: 8 }, runner));
      // Killed mid-load: once some answers are in, with most still to send.
      await expect
        .poll(() => acknowledged.length, { timeout: 15_000, interval: 20 })
        .toBeGreaterThan(30);
      process.kill(leader, 'SIGKILL');
      const sentAtKill = next;
      await load;

      expect(sentAtKill).toBeLessThan(members.length / 2);
      // Every request was answered or saw its connection close: none was left hanging.
      expect(unanswered).toBe(0);

      expect(acknowledged.length).toBeGreaterThan(200);
      // Acknowledged answers wait sealed in the inbox until a mix; the leader (the new one, if
      // the dead one was mixing) writes them all.
      await expect
        .poll(
          async () =>
            (await db.query<{ n: number }>('select count(*)::int as n from answer_inbox')).rows[0]!
              .n,
          { timeout: 20_000 },
        )
        .toBe(0);
      const { rows: stored } = await db.query<{ n: number }>(
        'select count(*)::int as n from answers where question_id = (select id from questions where qid = $1)',
        [question.qid],
      );
      // Every acknowledged answer is stored (a request cut with the worker may be stored too).
      expect(stored[0]!.n).toBeGreaterThanOrEqual(acknowledged.length);
      expect(stored[0]!.n).toBeLessThanOrEqual(acknowledged.length + failed);
    } finally {
      await db.end();
    }
    // Another process leads, and the primary has started one in place of the dead.
    await expect
      .poll(() => leaderPids(lines).filter((pid) => pid !== leader).length, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    await expect
      .poll(() => lines.some((l) => l.msg === 'an API process ended; starting another'), {
        timeout: 15_000,
      })
      .toBe(true);
  }, 120_000);
  it('finishes the requests in flight when it is stopped', async () => {
    if (!primary || !scratch) throw new Error('the cluster did not start');
    const { origin: base, child } = primary;
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    const [member] = await insertMembers(db, ['+15550999999']);
    await db.end();
    const question = await closedQuestion(base);
    const held = await obtainCredentialsOverHttp(base, member!.token, [question.gid]);
    const body = JSON.stringify({ choice: question.choices[0], profile: PROFILE });
    // The request's headers and half its body arrive, then the server is told to stop, then
    // the rest of the body: the answer is still taken and acknowledged.
    const req = http.request(`${base}/api/v1/questions/${question.qid}/answer/`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'candor-credential': held.get(question.gid)!,
      },
    });
    const status = statusOf(req);
    req.write(body.slice(0, 5));
    await new Promise((r) => setTimeout(r, 500));
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    req.end(body.slice(5));
    expect(await status).toBe(201);
    await exited;
  });
});
