import { count, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { answerInbox, answers, respondents } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { deriveCredentialKeys, deriveProfileKey } from '../../lib/keys.js';
import { sealJson } from '../../lib/profile-seal.js';
import { createMember } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import {
  type ReleasedSurvey,
  obtainCredential,
  redeem,
  releasedSurveys,
} from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { createSurveysRepository } from '../surveys/surveys.repository.js';
import { createSurveysService } from '../surveys/surveys.service.js';
import { createCredentialsRepository } from './credentials.repository.js';
import { createCredentialsService } from './credentials.service.js';

/**
 * The mixer keeps up with a backlog: one timer pass takes batch after batch while full ones come,
 * instead of one batch per RESULTS_REFRESH_SECONDS. Batches of 50 rows here stand for the real 250
 * (the rules of a batch do not depend on its size); the inbox is filled through redemption, one
 * answer at a time, so one answer per row.
 */
const BATCH = 50;
const ANSWERS = 130;

describe.each(engines)('the mixer drains a backlog in one pass, on %s', (engine) => {
  let database: Database;
  let app: App;
  const secrets = testSecrets();
  let survey: ReleasedSurvey;

  /** A second mixer on the same database and secrets, with small batches (the app's: 250 rows). */
  const mixer = () =>
    createCredentialsService(
      createCredentialsRepository(database.db, {
        sealInbox: (entries) => sealJson(deriveCredentialKeys(secrets).inbox, entries),
      }),
      {
        surveys: createSurveysService(createSurveysRepository(database.db)),
        results: app.results,
        keys: deriveCredentialKeys(secrets),
        profileKey: deriveProfileKey(secrets),
        mixMinPeople: 5,
        mixMaxWaitSeconds: 600,
        // A pass's time is its interval (at least 2 s): 30 s, so a slow machine still ends the
        // pass by draining, not by its time.
        intervalSeconds: 30,
        mixBatch: BATCH,
        onError: (err) => {
          throw err;
        },
      },
    );
  const waiting = async () => (await database.db.select({ n: count() }).from(answerInbox))[0]!.n;
  const written = async () =>
    (
      await database.db
        .select({ n: count() })
        .from(answers)
        .innerJoin(respondents, eq(respondents.id, answers.respondentId))
        .where(like(respondents.pseudonym, 'cred:%'))
    )[0]!.n;

  /** `n` answers acknowledged into the inbox: each new member answers the survey's questions. */
  async function fill(n: number): Promise<void> {
    const perMember = survey.questions.length;
    for (let left = n; left > 0; left -= perMember) {
      const m = await createMember(app);
      const credential = await obtainCredential(app, m.token, survey.gid);
      for (const q of survey.questions.slice(0, Math.min(left, perMember))) {
        expect((await redeem(app, q.qid, credential, { choice: q.labels[0] })).statusCode).toBe(
          201,
        );
      }
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db, { now: new Date() });
    const open = (await releasedSurveys(database.db)).filter((s) => !s.closed);
    // 14 questions in the seed: 130 answers come from 10 people, so every batch of 50 (or the
    // last 30) holds at least 5 of them; 4 people fill more than a batch (56).
    survey = open
      .filter((s) => s.questions.length >= 13)
      .sort((a, b) => a.questions.length - b.questions.length)[0]!;
    app = await createTestApp(
      database,
      { resultsRefreshSeconds: 0, mixing: { minPeople: 5, maxWaitSeconds: 600 } },
      { secrets },
    );
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('writes every waiting answer in one timer pass when more than a batch wait', async () => {
    await fill(ANSWERS);
    expect(await waiting()).toBe(ANSWERS);
    const before = await written();
    // Only the mixer's interval is faked: exactly one tick fires, and the database runs for real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const service = mixer();
    service.start();
    vi.advanceTimersByTime(30_000);
    await service.stop(); // waits for the pass the tick started
    expect(await waiting()).toBe(0);
    expect((await written()) - before).toBe(ANSWERS);
  }, 120_000);

  it('mix(true) drains everything too and says how many it wrote', async () => {
    await fill(ANSWERS);
    const before = await written();
    expect(await mixer().mix(true)).toBe(ANSWERS);
    expect(await waiting()).toBe(0);
    expect((await written()) - before).toBe(ANSWERS);
  }, 120_000);

  it('still leaves a batch of too few people waiting', async () => {
    // 4 members' answers, more than a batch but fewer than 5 people: held back.
    await fill(survey.questions.length * 4);
    const held = await waiting();
    expect(held).toBeGreaterThan(BATCH);
    expect(await mixer().mix()).toBe(0);
    expect(await waiting()).toBe(held);
    expect(await mixer().mix(true)).toBe(held);
  }, 120_000);
});
