import crypto from 'node:crypto';
import { QuestionResultsSchema, SurveyResultsSchema, type SurveySummary } from '@candor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { seedSampleAnswers } from '../../db/seed/sample-answers.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { PUBLIC_READS_PER_IP_PER_MINUTE } from '../../lib/public-read-limit.js';
import { deriveProfileKey } from '../../lib/keys.js';
import { createMember, freshIp, get, json } from '../../test/accounts.js';
import { createTestApp, testSecrets } from '../../test/app.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

// A survey's results in one read (the end results, the mirror): what each question's own read
// gives, in the survey's order, for one read of the per-address limit.
describe.each(engines)('a survey’s results in one read on %s', (engine) => {
  let database: Database;
  let app: App;
  const secrets = testSecrets();
  let listed: SurveySummary[];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    await seedSampleAnswers(database.db, { profileKey: deriveProfileKey(secrets) });
    app = await createTestApp(database, { resultsRefreshSeconds: 0 }, { secrets });
    await app.results.tick();
    const res = await get(app, '/api/v1/surveys/open-closed-random-video-surveys?page_size=100');
    listed = json<{ results: SurveySummary[] }>(res).results;
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('gives every question’s published results, in order, as each question’s own read does', async () => {
    expect(listed.length).toBeGreaterThan(1);
    for (const s of listed) {
      const res = await get(app, `/api/v1/surveys/${s.gid}/results/`, { ip: freshIp() });
      expect(res.statusCode, res.body).toBe(200);
      const all = SurveyResultsSchema.parse(json(res));
      expect(all.gid).toBe(s.gid);
      expect(all.questions.map((q) => q.qid)).toEqual(s.questions.map((q) => q.qid));
      for (const q of all.questions) {
        const one = await get(app, `/api/v1/questions/${q.qid}/results/`, { ip: freshIp() });
        expect(QuestionResultsSchema.parse(json(one))).toEqual(q);
      }
    }
    // Published numbers, not empty shells: the sample answers are counted somewhere.
    const counted = await get(app, `/api/v1/surveys/${listed[0]!.gid}/results/`, { ip: freshIp() });
    expect(
      SurveyResultsSchema.parse(json(counted)).questions.some((q) => (q.respondents ?? 0) > 0),
    ).toBe(true);
  });

  it('is the same read with or without a session, and refuses what is not a listed survey', async () => {
    const s = listed[0]!;
    const { token } = await createMember(app);
    const plain = await get(app, `/api/v1/surveys/${s.gid}/results/`, { ip: freshIp() });
    const withSession = await get(app, `/api/v1/surveys/${s.gid}/results/`, {
      ip: freshIp(),
      token,
    });
    expect(json(withSession)).toEqual(json(plain));
    for (const gid of [crypto.randomUUID(), 'not-a-gid', s.questions[0]!.qid]) {
      const res = await get(app, `/api/v1/surveys/${gid}/results/`, { ip: freshIp() });
      expect(res.statusCode).toBe(404);
      expect(json(res)).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('costs one read of the per-address limit, shared with the questions’ reads', async () => {
    const s = listed[0]!;
    const ip = freshIp();
    // A burst at once, as a page of many graphs would send: all but the limit's worth refused.
    const burst = await Promise.all(
      Array.from({ length: PUBLIC_READS_PER_IP_PER_MINUTE + 20 }, (_, i) =>
        get(
          app,
          i % 2
            ? `/api/v1/surveys/${s.gid}/results/`
            : `/api/v1/questions/${s.questions[0]!.qid}/results/`,
          { ip },
        ),
      ),
    );
    const codes = burst.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(PUBLIC_READS_PER_IP_PER_MINUTE);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
    expect(
      (await get(app, `/api/v1/surveys/${s.gid}/results/`, { ip: freshIp() })).statusCode,
    ).toBe(200);
  });
});
