import {
  AuditEntryListSchema,
  OperatorQuestionResultsSchema,
  QuestionResultsSchema,
  SurveyExportSchema,
  SurveyReachSchema,
} from '@candor/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import type { Database } from '../../db/client.js';
import { choices, questions, ratings, respondents, surveys, timings } from '../../db/schema.js';
import { seedSampleContent } from '../../db/seed/seed.js';
import { type MemberOptions, createMember, freshIp, get, json } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { memberDevice } from '../../test/credentials.js';
import { lineCells, marginParts } from './operator-results.service.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';
import { zeroNoise } from '../../test/noise.js';

type Who = 'visitor' | 'member' | 'under_review' | 'moderator' | 'admin';

interface Q {
  id: number;
  qid: string;
  labels: string[];
}

/** The cells of one CSV line written as the export writes them: every cell quoted. */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  const re = /"((?:[^"]|"")*)"(,|$)/g;
  let m: RegExpExecArray | null;
  let at = 0;
  while ((m = re.exec(line)) && m.index === at) {
    cells.push(m[1]!.replace(/""/g, '"'));
    at = re.lastIndex;
    if (m[2] === '') break;
  }
  if (at !== line.length) throw new Error(`not a fully quoted CSV line: ${line}`);
  return cells;
}

describe('a randomized-response line of the CSV (decision 028)', () => {
  it('gives the estimate, its margin’s parts scaled from the sent share’s, then what was sent', () => {
    const sent = { count: 120, percent: 30, margin: 4 };
    // 3 choices at m = 3: keep - other = 0.4, so the estimate’s margin is 4 / 0.4 = 10.
    const line = { choice: 'Often', count: 50, percent: 12.5, margin: 10, sent };
    const [choice, count, percent, margin, sampling, privacy, respondents, ...rest] = lineCells(
      line,
      400,
      3,
    );
    expect([choice, count, percent, margin, respondents]).toEqual(['Often', 50, 12.5, 10, 400]);
    const [sentSampling, sentPrivacy] = marginParts(30, 4, 400);
    expect(sampling).toBeCloseTo(sentSampling! * 2.5, 1);
    expect(privacy).toBeCloseTo(sentPrivacy! * 2.5, 1);
    expect(Math.hypot(sampling as number, privacy as number)).toBeCloseTo(10, 0);
    expect(rest).toEqual([3, 120, 30, 4]);
    // An ordinary line: its own parts, and nothing sent apart.
    const plain = lineCells({ ...line, sent: null }, 400, null);
    expect(plain.slice(4, 6)).toEqual(marginParts(12.5, 10, 400));
    expect(plain.slice(7)).toEqual([null, null, null, null]);
  });
});

describe.each(engines)('operators’ results and exports on %s', (engine) => {
  let database: Database;
  let app: App;
  const tokens = {} as Record<Who, string | undefined>;
  let admin: { uuid: string; token: string };
  let seq = 0;

  const gidOf = async (slug: string) => {
    const [s] = await database.db
      .select({ gid: surveys.gid })
      .from(surveys)
      .where(eq(surveys.slug, slug));
    return s!.gid;
  };

  /** The questions of a sample survey in order, with their choice labels as results list them. */
  async function questionsOf(slug: string): Promise<Q[]> {
    const rows = await database.db
      .select({ id: questions.id, qid: questions.qid })
      .from(questions)
      .innerJoin(surveys, eq(surveys.id, questions.surveyId))
      .where(eq(surveys.slug, slug))
      .orderBy(asc(questions.position));
    const out: Q[] = [];
    for (const r of rows) {
      const labels = await database.db
        .select({ label: choices.label })
        .from(choices)
        .where(eq(choices.questionId, r.id))
        .orderBy(asc(choices.isBlank), asc(choices.position));
      out.push({ ...r, labels: labels.map((l) => l.label) });
    }
    return out;
  }

  /** A respondent row written directly (counted in results unless `counts` is false). */
  async function respondent(counts = true) {
    const [row] = await database.db
      .insert(respondents)
      .values({
        pseudonym: `p-${seq++}`,
        // Ratings and times are not broken down: their profile is never opened.
        profile: 'not-opened',
        standing: counts ? 'counting' : 'waiting',
      })
      .returning({ id: respondents.id });
    return row!.id;
  }

  async function timing(questionId: number, durationMs: number, counts = true, kind = 'answer') {
    await database.db.insert(timings).values({
      respondentId: await respondent(counts),
      questionId,
      kind: kind as 'answer' | 'graph',
      durationMs,
      tokenHash: `t-${seq++}`,
    });
  }

  async function rating(questionId: number, score: number, counts = true) {
    await database.db
      .insert(ratings)
      .values({ respondentId: await respondent(counts), questionId, score });
  }

  async function latestAudit() {
    const log = AuditEntryListSchema.parse(
      json(await get(app, '/api/v1/admin/audit-log/?page_size=1', { token: admin.token })),
    );
    return log.results[0];
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    await seedSampleContent(database.db);
    // Without noise: these tests check what is counted and shown; privacy.test.ts the noise.
    app = await createTestApp(
      database,
      { resultsRefreshSeconds: 0, contentCacheSeconds: 0 },
      { noise: zeroNoise },
    );
    admin = await createMember(app, { role: 'admin' });
    tokens.visitor = undefined;
    tokens.member = (await createMember(app)).token;
    tokens.under_review = (await createMember(app, { status: 'under_review' })).token;
    tokens.moderator = (await createMember(app, { role: 'moderator' })).token;
    tokens.admin = admin.token;
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  it('lets only admins read results and export (401 visitor, 403 members and moderators)', async () => {
    const [q] = await questionsOf('taboos');
    const gid = await gidOf('taboos');
    const unknown = crypto.randomUUID();
    const routes = [
      [`/api/v1/admin/questions/${q!.qid}/results/`, 200],
      [`/api/v1/admin/questions/${q!.qid}/results/?breakdown=age`, 200],
      [`/api/v1/admin/surveys/${gid}/export.json`, 200],
      [`/api/v1/admin/surveys/${gid}/export.csv`, 200],
      [`/api/v1/admin/surveys/${gid}/reach/`, 200],
      [`/api/v1/admin/surveys/${unknown}/reach/`, 404],
      [`/api/v1/admin/questions/${unknown}/results/`, 404],
      [`/api/v1/admin/surveys/${unknown}/export.json`, 404],
      [`/api/v1/admin/surveys/${unknown}/export.csv`, 404],
      ['/api/v1/admin/questions/not-a-uuid/results/', 404],
      ['/api/v1/admin/surveys/not-a-uuid/export.csv', 404],
    ] as const;
    for (const [url, adminStatus] of routes) {
      for (const who of Object.keys(tokens) as Who[]) {
        const res = await get(app, url, tokens[who] ? { token: tokens[who] } : {});
        const expected = who === 'visitor' ? 401 : who === 'admin' ? adminStatus : 403;
        expect(res.statusCode, `${who} ${url}`).toBe(expected);
      }
    }
    const bad = await get(app, `/api/v1/admin/questions/${q!.qid}/results/?breakdown=height`, {
      token: admin.token,
    });
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).toEqual({ breakdown: ['Break down by gender, age or country.'] });
  });

  it('shows answer timings and ratings from the published snapshot, under 10 without a median or mean; counted members only', async () => {
    const [q] = await questionsOf('time-travel');
    const url = `/api/v1/admin/questions/${q!.qid}/results/`;
    const read = async () => {
      // Folded, then a release forced (ratings and times do not move the trigger).
      await app.results.tick();
      await app.results.releaseNow(q!.id);
      const res = await get(app, url, { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      return OperatorQuestionResultsSchema.parse(json(res));
    };
    // Before anyone answered: empty published results, no figures.
    const empty = await read();
    expect(empty).toMatchObject({
      qid: q!.qid,
      respondents: null,
      quality: { timed_answers: 0, answer_time_median_ms: null, fast_share: null },
      ratings: { count: 0, mean: null },
    });

    // Nine answer times: counted, but too few to describe.
    for (const ms of [100, 200, 300, 2000, 2000, 4000, 4000, 4000, 4000]) await timing(q!.id, ms);
    // Neither graph timings nor members who do not count are answer times.
    await timing(q!.id, 1, true, 'graph');
    await timing(q!.id, 1, false);
    for (let i = 0; i < 9; i++) await rating(q!.id, 7);
    await rating(q!.id, 0, false);
    expect((await read()).quality).toEqual({
      timed_answers: 9,
      answer_time_median_ms: null,
      fast_share: null,
    });
    expect((await read()).ratings).toEqual({ count: 9, mean: null });

    // The tenth. From the histogram of doubling buckets: half the weight is reached at the top
    // of the 2-4 s bucket (median 4000 ms); 100, 200 and 300 lie under a third of it.
    await timing(q!.id, 4000);
    await rating(q!.id, 8);
    const figures = await read();
    expect(figures.quality).toEqual({
      timed_answers: 10,
      answer_time_median_ms: 4000,
      fast_share: 30,
    });
    expect(figures.ratings).toEqual({ count: 10, mean: 7.1 });
  });

  describe('exports', () => {
    let consent: Q[];
    let consentGid: string;

    async function answer(q: Q, choice: string, opts: MemberOptions = {}) {
      const m = await createMember(app, opts);
      // With the member's credential, no session; counted once mixed.
      const res = await memberDevice(app, m).answer(q.qid, { choice });
      expect(res.statusCode, res.body).toBe(201);
    }

    beforeAll(async () => {
      consent = await questionsOf('consent');
      consentGid = await gidOf('consent');
      const q = consent[0]!;
      const [a, b, c] = q.labels;
      for (let i = 0; i < 12; i++) await answer(q, a!);
      for (let i = 0; i < 11; i++) await answer(q, b!, { gender: 'male', country: 'GB' });
      for (let i = 0; i < 3; i++) await answer(q, c!, { gender: 'male', yearOfBirth: 1960 });
      await app.credentials.mix(true);
      // 26 entering answers pass the first threshold (20): one tick publishes them.
      expect(await app.results.tick()).toContain(q.id);
    });

    it('exports JSON: the published numbers members see, with margins, groups not shown null; audited', async () => {
      const res = await get(app, `/api/v1/admin/surveys/${consentGid}/export.json`, {
        token: admin.token,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toBe('attachment; filename="candor-consent.json"');
      const exported = SurveyExportSchema.parse(json(res));
      expect(exported.gid).toBe(consentGid);
      expect(exported.questions.map((x) => x.qid)).toEqual(consent.map((x) => x.qid));
      expect(exported.questions.map((x) => x.position)).toEqual(
        [...exported.questions.map((x) => x.position)].sort((x, y) => x - y),
      );

      const first = exported.questions[0]!;
      expect(first.results.respondents).toBe(26);
      const [a, b, c] = consent[0]!.labels;
      const byLabel = new Map(first.results.choices.map((x) => [x.choice, x]));
      // Without noise the published numbers are the true ones; each comes with its margin
      // (what the noise of one update may move it by, 95 times in 100).
      expect(byLabel.get(a!)).toMatchObject({ count: 12, percent: 46.2 });
      expect(byLabel.get(b!)).toMatchObject({ count: 11 });
      expect(byLabel.get(c!)).toMatchObject({ count: 3, percent: 11.5 });
      expect(byLabel.get(c!)!.margin).toBeGreaterThan(10);
      // A question nobody answered publishes nothing.
      expect(exported.questions[1]!.results.respondents).toBeNull();

      // The same numbers a member who answered sees, overall and per breakdown.
      const mine = async (breakdown?: string) =>
        QuestionResultsSchema.parse(
          json(
            await get(
              app,
              `/api/v1/questions/${first.qid}/results/${breakdown ? `?breakdown=${breakdown}` : ''}`,
              // As members read them too, without the session (the web app's way).
              { ip: freshIp() },
            ),
          ),
        );
      expect(first.results).toEqual(await mine());
      for (const d of ['gender', 'age', 'country'] as const) {
        expect(first.breakdowns[d]).toEqual((await mine(d)).breakdown);
      }
      // 12 women and 14 men are too few to stand out of a group's noise: neither is shown.
      const group = (key: string) => first.breakdowns.gender.groups.find((g) => g.key === key)!;
      expect(group('female')).toMatchObject({ suppressed: true, respondents: null });
      expect(group('female').choices.every((x) => x.count === null)).toBe(true);
      expect(group('male')).toMatchObject({ suppressed: true, respondents: null });
      expect(group('male').choices.every((x) => x.count === null)).toBe(true);

      expect(await latestAudit()).toMatchObject({
        actor: admin.uuid,
        actor_role: 'admin',
        action: 'results.export',
        target: `survey:${consentGid}`,
        details: { format: 'json' },
      });
    });

    it("gives an open question's written and blank shares their margin in the CSV", async () => {
      const taboos = await questionsOf('taboos');
      const open = taboos.at(-1)!;
      for (let i = 0; i < 18; i++) {
        const m = await createMember(app);
        const text = i < 3 ? '' : `secret number ${i}`;
        const res = await memberDevice(app, m).answer(open.qid, { text });
        expect(res.statusCode, res.body).toBe(201);
      }
      await app.credentials.mix(true);
      // Folded, then released (18 do not pass the first threshold of 20).
      await app.results.tick();
      await app.results.releaseNow(open.id);
      const gid = await gidOf('taboos');
      const exported = SurveyExportSchema.parse(
        json(await get(app, `/api/v1/admin/surveys/${gid}/export.json`, { token: admin.token })),
      );
      const results = exported.questions.find((x) => x.qid === open.qid)!.results;
      expect(results.respondents).toBe(18);
      expect(results.margin).toBeGreaterThan(5);
      const csv = await get(app, `/api/v1/admin/surveys/${gid}/export.csv`, {
        token: admin.token,
      });
      const rows = csv.body
        .slice(0, -2)
        .split('\r\n')
        .map(cellsOf)
        .filter((r) => r[1] === open.qid && r[3] === 'all');
      // Every share carries its interval: written and left blank, not an empty margin cell.
      expect(rows.map((r) => [r[5], r[7], r[8]])).toEqual([
        ['Written answer', '83.3', String(results.margin)],
        ['Leave blank', '16.7', String(results.margin)],
      ]);
    });

    it('exports surveys of any status: closed and not yet released', async () => {
      for (const slug of ['money', 'crime']) {
        const res = await get(app, `/api/v1/admin/surveys/${await gidOf(slug)}/export.json`, {
          token: admin.token,
        });
        expect(res.statusCode, slug).toBe(200);
        const body = SurveyExportSchema.parse(json(res));
        expect(body.questions.map((x) => x.qid)).toEqual(
          (await questionsOf(slug)).map((x) => x.qid),
        );
      }
      // The scheduled survey is not listed: its questions' results route is a 404.
      const [scheduled] = await questionsOf('crime');
      const res = await get(app, `/api/v1/admin/questions/${scheduled!.qid}/results/`, {
        token: admin.token,
      });
      expect(res.statusCode).toBe(404);
    });

    it('exports CSV: quoted cells, CRLF, formulas neutralised, empty suppressed cells; audited', async () => {
      const q = consent[0]!;
      const [a, , c] = q.labels;
      // Text an attacker could plant: a question and choice labels a spreadsheet would run.
      const questionText = '+1 "quoted" question';
      const formula = '=HYPERLINK("http://evil.example","click")';
      await database.db.update(questions).set({ text: questionText }).where(eq(questions.id, q.id));
      await database.db
        .update(choices)
        .set({ label: formula })
        .where(and(eq(choices.questionId, q.id), eq(choices.label, a!)));
      await database.db
        .update(choices)
        .set({ label: '@SUM(A1)' })
        .where(and(eq(choices.questionId, q.id), eq(choices.label, c!)));
      // Read afresh: the CSV test renamed choices.
      const second = (await questionsOf('consent'))[1]!;
      await database.db
        .update(choices)
        .set({ label: '-2' })
        .where(and(eq(choices.questionId, second.id), eq(choices.label, second.labels[0]!)));

      const exported = SurveyExportSchema.parse(
        json(
          await get(app, `/api/v1/admin/surveys/${consentGid}/export.json`, {
            token: admin.token,
          }),
        ),
      );
      const res = await get(app, `/api/v1/admin/surveys/${consentGid}/export.csv`, {
        token: admin.token,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="candor-consent.csv"');
      const body = res.body;
      expect(body.endsWith('\r\n')).toBe(true);
      expect(/[^\r]\n/.test(body)).toBe(false);
      const lines = body.slice(0, -2).split('\r\n');
      expect(lines[0]).toBe(
        '"question_position","qid","question","breakdown","group","choice","count","percent","margin","sampling_margin","privacy_margin","respondents","rr_weight","sent_count","sent_percent","sent_margin","gap_points","gap_low","gap_high"',
      );
      // One row per choice, for the overall result and every group of each breakdown.
      const expectedRows = exported.questions.reduce(
        (n, x) =>
          n +
          x.results.choices.length *
            (1 +
              x.breakdowns.gender.groups.length +
              x.breakdowns.age.groups.length +
              x.breakdowns.country.groups.length),
        0,
      );
      expect(lines).toHaveLength(1 + expectedRows);

      const rows = lines.slice(1).map(cellsOf);
      expect(rows.every((r) => r.length === 19)).toBe(true);
      const overall = rows.filter((r) => r[1] === q.qid && r[3] === 'all');
      expect(overall.map((r) => r[5])).toEqual([
        `'${formula}`,
        q.labels[1],
        "'@SUM(A1)",
        ...q.labels.slice(3),
      ]);
      expect(overall[0]).toEqual([
        String(exported.questions[0]!.position),
        q.qid,
        `'${questionText}`,
        'all',
        '',
        `'${formula}`,
        '12',
        String(exported.questions[0]!.results.choices[0]!.percent),
        String(exported.questions[0]!.results.choices[0]!.margin),
        ...marginParts(
          exported.questions[0]!.results.choices[0]!.percent,
          exported.questions[0]!.results.choices[0]!.margin,
          26,
        ).map(String),
        '26',
        // An ordinary question: no randomized response, nothing sent apart, no gap.
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ]);
      // The two parts of every shown margin add up to it as variances (to the rounding), and
      // neither is missing: the privacy noise and who happened to answer both count.
      for (const r of rows.filter((row) => row[8] !== '')) {
        const [margin, sampling, privacy] = [r[8], r[9], r[10]].map(Number) as [
          number,
          number,
          number,
        ];
        expect(sampling).toBeGreaterThan(0);
        expect(privacy).toBeGreaterThan(0);
        expect(Math.abs(Math.sqrt(sampling ** 2 + privacy ** 2) - margin)).toBeLessThan(0.15);
      }
      // Written out: quotes doubled inside a quoted cell.
      expect(body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
      expect(body).toContain(`"'+1 ""quoted"" question"`);
      const minus = rows.find((r) => r[1] === second.qid && r[3] === 'all')!;
      expect(minus[5]).toBe("'-2");
      // Breakdown rows name their group; groups not shown have empty cells.
      const maleRows = rows.filter((r) => r[1] === q.qid && r[3] === 'gender' && r[4] === 'male');
      expect(maleRows).toHaveLength(q.labels.length);
      expect(maleRows.every((r) => r.slice(6).every((cell) => cell === ''))).toBe(true);

      expect(await latestAudit()).toMatchObject({
        actor: admin.uuid,
        action: 'results.export',
        target: `survey:${consentGid}`,
        details: { format: 'csv' },
      });
      // A failed export (unknown survey) writes no entry.
      const before = await latestAudit();
      await get(app, `/api/v1/admin/surveys/${crypto.randomUUID()}/export.csv`, {
        token: admin.token,
      });
      expect((await latestAudit())!.id).toBe(before!.id);
    });

    it('shows operators the same published numbers as members, without answering', async () => {
      const q = consent[0]!;
      const res = await get(app, `/api/v1/admin/questions/${q.qid}/results/?breakdown=gender`, {
        token: admin.token,
      });
      expect(res.statusCode).toBe(200);
      const staff = OperatorQuestionResultsSchema.parse(json(res));
      const member = QuestionResultsSchema.parse(
        json(
          await get(app, `/api/v1/questions/${q.qid}/results/?breakdown=gender`, {
            ip: freshIp(),
          }),
        ),
      );
      const { quality, ratings: rated, ...published } = staff;
      expect(published).toEqual(member);
      expect(quality.timed_answers).toBe(0);
      expect(rated.count).toBe(0);
      expect(staff.breakdown!.groups.some((g) => g.suppressed)).toBe(true);
    });

    it('says how far people got from the published counts alone, each with its margin', async () => {
      const url = `/api/v1/admin/surveys/${consentGid}/reach/`;
      const read = async () =>
        SurveyReachSchema.parse(json(await get(app, url, { token: admin.token })));
      // Read afresh: the CSV test renamed choices.
      const [first, second] = await questionsOf('consent');
      const before = await read();
      expect(before.shuffled).toBe(false);
      expect(before.steps.map((s) => s.qid)).toEqual(consent.map((q) => q.qid));
      // The first question's 26 are published, but its noise is too large to divide by; the
      // second has none yet: unknown, not 0%.
      expect(before.steps[0]).toMatchObject({ respondents: 26, kept_percent: null });
      // Its noise's standard deviation (the 95% margin / 1.96) is over a fifth of it.
      expect(before.steps[0]!.respondents_margin! / 1.959964).toBeGreaterThan(26 / 5);
      expect(before.steps[1]).toMatchObject({ respondents: null, kept_percent: null });
      expect(before.typical_time_ms).toBeNull();

      // 60 more answer the first, 30 the second; both released. Without noise here, the counts
      // are exact: 30 of 86.
      for (let i = 0; i < 60; i++) await answer(first!, first!.labels[0]!);
      for (let i = 0; i < 30; i++) await answer(second!, second!.labels[0]!);
      await app.credentials.mix(true);
      await app.results.tick();
      for (const q of [first!, second!]) await app.results.releaseNow(q.id);
      const after = await read();
      const [one, two] = [after.steps[0]!, after.steps[1]!];
      expect(one).toMatchObject({ respondents: 86, kept_percent: 100, kept_margin: 0 });
      expect(two).toMatchObject({ respondents: 30, kept_percent: 34.9 });
      // r = 30 / 86: var = v2 / 86^2 + 30^2 v1 / 86^4, in points at 95% (the delta method).
      const v = (m: number) => (m / 1.959964) ** 2;
      const expected =
        1.959964 *
        Math.sqrt(
          v(two.respondents_margin!) / 86 ** 2 + (30 ** 2 * v(one.respondents_margin!)) / 86 ** 4,
        ) *
        100;
      expect(two.kept_margin!).toBeGreaterThan(0);
      expect(Math.abs(two.kept_margin! - expected)).toBeLessThan(1);
    });
  });
});
