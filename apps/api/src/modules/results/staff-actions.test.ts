/**
 * Staff actions and the release schedule (issue 28, point 4; decision 021), through the real API
 * on both engines with the mechanism's own noise from a seeded source, scored as an attacker
 * would score them. Closing and reopening a survey used to force a release each time: an admin
 * could flush every question, suspend one member, and close again, so that the next release
 * held that member's leaving answers alone on every question; each forced release also doubled
 * the question's threshold, so repeated cycles froze its graph. Only the background trigger
 * (tick()) releases here: no test calls releaseNow, which staff cannot reach.
 */
import { AdminSurveySchema, type QuestionResults, QuestionResultsSchema } from '@candor/contracts';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { questions } from '../../db/schema.js';
import { deriveProfileKey } from '../../lib/keys.js';
import { createMember, get, json, post } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { memberDevice } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { seededNoise } from '../../test/noise.js';
import { heldPendingOf, snapshotOf } from '../../test/results.js';
import { PARAMETERS, thresholdOf } from './privacy.js';

const ADMIN = '/api/v1/admin';
const CHOICES = ['Yes', 'No', 'Maybe'] as const;
type Choice = (typeof CHOICES)[number];
/** Questions of the attacked survey: a target's whole answer sheet is what is scored. */
const SHEET = 60;
/** Members the admin isolates, one after the other. */
const TARGETS = 8;
/** People who answered every question before the target, spread over the choices. */
const CROWD = 20;
/** Random sheets the target's true one is scored against. */
const DECOYS = 200;

/** A small seeded generator (mulberry32): answers and decoys, the same every run. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(engines)('staff actions and releases through the API on %s', (engine) => {
  let database: Database;
  let app: App;
  let admin: { uuid: string; token: string };
  const secrets = testSecrets();
  const profileKey = deriveProfileKey(secrets);
  const random = generator(28);
  const pick = (): Choice => CHOICES[Math.floor(random() * CHOICES.length)]!;
  const staff = () => ({ token: admin.token });

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    app = await createTestApp(
      database,
      { resultsRefreshSeconds: 0, contentCacheSeconds: 0 },
      { secrets, noise: seededNoise(engine === 'pglite' ? 2801 : 2802) },
    );
    admin = await createMember(app, { role: 'admin' });
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  /** A published survey of `n` closed questions (Yes, No, Maybe): its gid, qids and ids. */
  async function survey(n: number) {
    const created = await post(
      app,
      `${ADMIN}/surveys/`,
      {
        name: 'Closed and reopened',
        author: 'Candor team',
        cover_headline: 'Questions under attack',
        intro_screen_text: 'Honest answers.',
        outro_screen_text: 'Thanks.',
        variant: 'v1_large',
        release_date: new Date(Date.now() - 60_000).toISOString(),
      },
      staff(),
    );
    const { gid } = AdminSurveySchema.parse(json(created));
    let qids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await post(
        app,
        `${ADMIN}/surveys/${gid}/questions/`,
        {
          type: 'Closed',
          question: `Question ${i + 1}?`,
          choices: [...CHOICES],
          randomise_answers: false,
          timer_seconds: 0,
        },
        staff(),
      );
      qids = AdminSurveySchema.parse(json(res)).questions.map((q) => q.qid);
    }
    await post(app, `${ADMIN}/surveys/${gid}/publish/`, {}, staff());
    const rows = await database.db
      .select({ id: questions.id, qid: questions.qid })
      .from(questions)
      .where(inArray(questions.qid, qids));
    return { gid, qs: qids.map((qid) => ({ qid, id: rows.find((r) => r.qid === qid)!.id })) };
  }
  type Q = Awaited<ReturnType<typeof survey>>['qs'][number];
  type Device = ReturnType<typeof memberDevice>;

  /** An answer with the member's credential (no session): counted once mixed. */
  async function answer(q: Q, device: Device, choice: Choice) {
    const res = await device.answer(q.qid, { choice });
    expect(res.statusCode, res.body).toBe(201);
  }

  /** `count` new members answer every question, spread over the choices; then a mix. */
  async function crowd(qs: Q[], count: number) {
    for (let i = 0; i < count; i++) {
      const device = memberDevice(app, await createMember(app));
      for (const [k, q] of qs.entries()) await answer(q, device, CHOICES[(i + k) % 3]!);
    }
    await app.credentials.mix(true);
  }

  /** What staff can do: close, reopen; and the server's background tick in between. */
  async function close(gid: string) {
    const res = await post(app, `${ADMIN}/surveys/${gid}/close/`, {}, staff());
    expect(res.statusCode, res.body).toBe(200);
    await app.results.tick();
  }
  async function reopen(gid: string) {
    const res = await post(app, `${ADMIN}/surveys/${gid}/reopen/`, {}, staff());
    expect(res.statusCode, res.body).toBe(200);
    await app.results.tick();
  }

  async function read(q: Q): Promise<QuestionResults> {
    const res = await get(app, `${ADMIN}/questions/${q.qid}/results/`, staff());
    expect(res.statusCode, res.body).toBe(200);
    return QuestionResultsSchema.parse(json(res));
  }

  const countsOf = (r: QuestionResults) =>
    CHOICES.map((c) => r.choices.find((x) => x.choice === c)?.count ?? 0);

  it("an admin closing and reopening around a suspension cannot pick out a target's answer sheet", async () => {
    const { gid, qs } = await survey(SHEET);
    await crowd(qs, CROWD);
    const targets = [];
    for (let t = 0; t < TARGETS; t++) {
      const member = await createMember(app);
      const device = memberDevice(app, member);
      const truth = qs.map(() => pick());
      for (const [i, q] of qs.entries()) await answer(q, device, truth[i]!);
      targets.push({ ...member, truth });
    }
    await app.credentials.mix(true);

    // The attack: close and reopen (everything so far released). Then, per target: read every
    // question, suspend the target, close and reopen, read again. What moved in between is the
    // target's answers leaving, plus the noise of one release.
    await close(gid);
    await reopen(gid);
    const sigma2 = PARAMETERS.sigma2.all;
    const scores: number[] = [];
    for (const target of targets) {
      const before = await Promise.all(qs.map(read));
      const suspended = await post(app, `${ADMIN}/users/${target.uuid}/suspend/`, {}, staff());
      expect(suspended.statusCode, suspended.body).toBe(200);
      await close(gid);
      await reopen(gid);
      const after = await Promise.all(qs.map(read));
      // Scored on the whole sheet: the log-likelihood of every question's change given a sheet
      // (its answers leaving, plus the overall row's Gaussian noise), the true sheet against
      // random ones; ties count half.
      const moved = qs.map((_, i) => {
        const b = countsOf(before[i]!);
        return countsOf(after[i]!).map((n, k) => n - b[k]!);
      });
      const likelihood = (sheet: Choice[]) =>
        moved.reduce((sum, d, i) => {
          const gone = CHOICES.map((c) => (c === sheet[i] ? -1 : 0));
          return sum - d.reduce((s, x, k) => s + (x - gone[k]!) ** 2, 0) / (2 * sigma2);
        }, 0);
      const own = likelihood(target.truth);
      let beaten = 0;
      for (let d = 0; d < DECOYS; d++) {
        const other = likelihood(qs.map(() => pick()));
        beaten += own > other ? 1 : own === other ? 0.5 : 0;
      }
      scores.push(beaten / DECOYS);
    }
    // Each close used to release every question, so each target's leaving answers were alone in
    // a release: their true sheet beat random ones nearly always. Now a close releases each
    // question once in its life, and never what staff changed (held for the trigger): what moves
    // is noise (a period that noise ends on a quiet question), and a sheet's rank is chance,
    // uniform with mean 0.5 (the mean of 8 is above 0.7 with a chance of about 2%).
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    expect(mean, `true sheets beat ${scores.join(', ')} of random ones`).toBeLessThanOrEqual(0.7);
    // And nothing of the targets left: their answers came with credentials, which name no
    // account, so a suspension finds none of them to take out (decision 020): nothing waits,
    // held for the trigger, to leave.
    for (const q of qs) {
      const stored = await heldPendingOf(database.db, q.id, profileKey);
      const held = Object.values(stored?.held?.cells ?? {}).reduce((n, v) => n + v, 0);
      expect(held).toBe(0);
    }
  }, 600_000);

  it("repeated closing and reopening neither freezes a question's graph nor speeds it up", async () => {
    const { gid, qs } = await survey(1);
    const [q] = qs as [Q];
    const snapshot = async () => (await snapshotOf(database.db, q.id))!;
    // Answers, ten at a time, the trigger testing as they come, until three updates (20, 40,
    // 80): the fourth period's threshold (160) is one noise alone does not reach on a quiet
    // question, so what happens next is the staff's doing or the answers'.
    for (let n = 0; n < 40 && ((await snapshotOf(database.db, q.id))?.periods ?? 0) < 3; n++) {
      await crowd(qs, 10);
      await app.results.tick();
    }
    const first = await snapshot();
    expect(first.periods).toBe(3);
    const updatesBefore = (await read(q)).updates;

    // Twenty cycles, each close and reopen followed by the background tick.
    for (let c = 0; c < 20; c++) {
      await close(gid);
      await reopen(gid);
    }
    const cycled = await snapshot();
    // Not sped up: one release for the first close, whatever the number of cycles (each close
    // used to release: 20 more updates).
    expect((await read(q)).updates - updatesBefore).toBeLessThanOrEqual(1);
    // Not frozen: the threshold the trigger tests is where the answers left it (each close
    // used to double it: 160 * 2^20 new answers before the next update).
    expect(thresholdOf(cycled.periods)).toBe(thresholdOf(first.periods));

    // And answers move the graph on their own again: twice the threshold in new answers.
    await crowd(qs, 2 * thresholdOf(first.periods));
    for (let t = 0; t < 5; t++) await app.results.tick();
    expect((await snapshot()).periods, 'the trigger released again').toBe(first.periods + 1);
  }, 300_000);
});
