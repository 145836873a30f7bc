// Issue 17's reveal, as a person meets it: what approximate and hidden numbers mean, said on the
// graph in words; breakdowns without enough answers greyed with when they unlock; and the outro
// and the mirror showing one's most unusual answers against everyone's, grouped by survey.
import type { AdminSurvey, QuestionResults, SurveyDetail, SurveyResults } from '@candor/contracts';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { AUTHORED_PREFIX, call, sampleSurvey, token } from './api';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { type Admin, it } from './fixtures';
import {
  answerInPage,
  deviceAnswers,
  endResults,
  logIn,
  questionHeading,
  screenshot,
} from './screens';

const sizes = [
  ['phone', phone],
  ['desktop', desktop],
] as const satisfies ReadonlyArray<readonly [string, BrowserContextOptions]>;
/** Drawn at once: assertions and screenshots on what is drawn, not on its growth. */
const still = (options: BrowserContextOptions): BrowserContextOptions => ({
  ...options,
  reducedMotion: 'reduce',
});

const APPROXIMATE =
  'Approximate: every number is rounded and lightly blurred, so nobody’s answer can be worked out.';

/** Publishes a one-question survey nobody has answered yet, as an admin would (API). */
async function publishFresh(admin: Admin): Promise<SurveyDetail> {
  const as = async (path: string, body: object) =>
    call(path, { body, token: await token(admin), ip: admin.ip });
  const made = await as('/api/v1/admin/surveys/', {
    name: `${AUTHORED_PREFIX}Fresh ${Date.now().toString(36)}`,
    cover_headline: 'Nobody has answered this yet',
    // Released days ago: no "New" badge (shell.e2e counts the sample survey's one).
    release_date: new Date(Date.now() - 3 * 86_400_000).toISOString(),
  });
  expect(made.status).toBe(201);
  const { gid } = (await made.json()) as AdminSurvey;
  const q = await as(`/api/v1/admin/surveys/${gid}/questions/`, {
    type: 'Closed',
    question: 'Would you tell a stranger your salary?',
    choices: ['Yes', 'No', 'Only if they asked first'],
  });
  expect(q.status).toBe(201);
  expect((await as(`/api/v1/admin/surveys/${gid}/publish/`, {})).status).toBe(200);
  const detail = await call(`/api/v1/surveys/${gid}/video-survey`);
  return (await detail.json()) as SurveyDetail;
}

/** Answers the closed question on screen with its first choice, as a visitor would. */
async function answerFirstChoice(page: Page, question: string) {
  await questionHeading(page, question).waitFor();
  await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
  await page.getByRole('heading', { name: 'How everyone answered' }).waitFor();
}

/**
 * The published shares of the member's 3 most unusual answers of survey `s`, from its results
 * and the member's own answers (as the device computes them): the smallest shares shown, hidden
 * ones and blanks left out, rounded as shown.
 */
function smallestOf(results: SurveyResults, own: Map<string, string>, s: SurveyDetail): string[] {
  const closed = new Set(s.questions.filter((q) => q.type === 'Closed').map((q) => q.qid));
  return results.questions
    .filter((r) => closed.has(r.qid))
    .flatMap((r) => {
      const mine = r.choices.find((c) => !c.is_blank && c.choice === own.get(r.qid));
      return mine && mine.percent !== null ? [[mine.percent, mine.margin] as const] : [];
    })
    .sort(([a], [b]) => a - b)
    .slice(0, 3)
    .map(([percent, margin]) =>
      // A share inside its noise is shown as "<N%" (the top of its interval), never as 0%.
      margin !== null && percent - margin <= 0
        ? `<${Math.max(1, Math.ceil(percent + margin))}%`
        : `${Math.round(percent)}%`,
    );
}

/** The summary's three answers: each one's share as shown, and its line of words. */
async function summaryOf(page: Page, title: string) {
  // A region of its own on the outro; inside its survey's section in the mirror (one region
  // per survey there, so no two landmarks share a name).
  const summary = page
    .locator('.unusual')
    .filter({ has: page.getByRole('heading', { name: title }) });
  await summary.waitFor();
  const items = summary.getByRole('listitem');
  await expect(items.count()).resolves.toBe(3);
  const percents = await summary.locator('.unusual__percent').allTextContents();
  return { summary, percents, lines: await summary.locator('.unusual__share').allTextContents() };
}

describe('the numbers explained in words, and breakdowns that unlock', () => {
  it.for(sizes)(
    'on a %s, a graph says what approximate means, and a young question greys its breakdowns',
    { timeout: 120_000 },
    async ([size, options], { people, admin }) => {
      const s = await sampleSurvey((x) => x.name === 'Time Travel');
      const fresh = await publishFresh(admin);
      const { context, page, watch } = await people.newPage(still(options));

      // A graph with hundreds of answers: what its numbers are, in words, on screen.
      await page.goto(`/surveys/${s.gid}`);
      await page.getByRole('button', { name: 'Start the survey' }).click();
      await answerFirstChoice(page, s.questions[0]!.question);
      const graph = page.getByRole('figure', { name: 'How everyone answered' });
      const note = graph.getByText(APPROXIMATE, { exact: false });
      await note.waitFor();
      expect(await note.isVisible()).toBe(true);
      await expect(note.textContent()).resolves.toMatch(
        /Each share is within ±\d+ points? of the true one, 95 times in 100 \(the shaded band on each bar\)\. It allows for who happened to answer as well as the blur, and speaks for people like those who answered, not for everyone\.$/,
      );
      await graph.locator('.chart--bars').waitFor();
      await screenshot(page, `insight-graph-notes-${size}`);
      // By country: the countries merged into one group say so.
      const by = graph.getByRole('group', { name: 'Show answers by' });
      await by.getByRole('button', { name: 'Country', exact: true }).click();
      await graph.locator('.groups__item').first().waitFor();
      await graph
        .getByText('Countries with few answers are counted together', { exact: false })
        .waitFor();
      await screenshot(page, `insight-graph-country-${size}`);

      // A question nobody has answered: its breakdowns greyed, each saying when it unlocks.
      const q = fresh.questions[0]!;
      const published = (await (
        await call(`/api/v1/questions/${q.qid}/results/`)
      ).json()) as QuestionResults;
      const unlocks = published.breakdown_unlocks;
      await page.goto(`/surveys/${fresh.gid}`);
      await page.getByRole('button', { name: 'Start the survey' }).click();
      await answerFirstChoice(page, q.question);
      const young = page.getByRole('figure', { name: 'How everyone answered' });
      const switcher = young.getByRole('group', { name: 'Show answers by' });
      const gender = switcher.getByRole('button', {
        name: `Gender unlocks at ${unlocks.gender.unlocks_at} answers`,
      });
      await gender.waitFor();
      await expect(gender.getAttribute('aria-disabled')).resolves.toBe('true');
      const country = switcher.getByRole('button', {
        name: `Country unlocks at ${unlocks.country.unlocks_at} answers`,
      });
      await expect(country.getAttribute('aria-disabled')).resolves.toBe('true');
      // Greyed, yet reached by the keyboard and announced with its reason; a press opens nothing.
      await gender.focus();
      await expect(gender.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      const reason = young.getByText('A breakdown compares groups', { exact: false });
      expect(await reason.isVisible()).toBe(true);
      await expect(gender.getAttribute('aria-describedby')).resolves.toBe(
        await reason.getAttribute('id'),
      );
      await page.keyboard.press('Enter');
      await gender.click({ force: true });
      await expect(gender.getAttribute('aria-pressed')).resolves.toBe('false');
      await expect(young.locator('.groups').count()).resolves.toBe(0);
      // The greyed look: dimmer than an open tab.
      const colours = await switcher
        .getByRole('button')
        .evaluateAll((els) => els.map((el) => getComputedStyle(el).color));
      expect(colours[0]).not.toBe(colours[1]);
      await screenshot(page, `insight-greyed-tab-${size}`);
      expect(await axeViolations(page)).toEqual([]);
      watch.assertNoErrors();
      await context.close();
    },
  );
});

describe('your most unusual answers, at the end of a survey and in the mirror', () => {
  it.for(sizes)(
    'on a %s, the outro and the mirror name the 3 smallest shares, grouped by survey',
    { timeout: 180_000 },
    async ([size, options], { people }) => {
      const life = await sampleSurvey((x) => x.name === 'Life and Death');
      const time = await sampleSurvey((x) => x.name === 'Time Travel');
      const member = await people.member();
      const { context, page, watch } = await people.newPage(still(options), member);
      await logIn(page, member);
      await page.getByRole('link', { name: 'My mirror' }).waitFor();
      await answerInPage(page, time);
      await answerInPage(page, life);
      const detail = await call('/api/v1/user/detail/', { token: await token(member) });
      const own = await deviceAnswers(page, ((await detail.json()) as { uuid: string }).uuid);
      const read = await call(`/api/v1/surveys/${life.gid}/results/`);
      expect(smallestOf((await read.json()) as SurveyResults, own, life)).toHaveLength(3);
      // What the page is told: each read of the survey's results, against the device's answers.
      // The e2e server tests every question's period each second, and a release by noise alone
      // between two reads would move a share.
      const told: string[][] = [];
      page.on('response', (res) => {
        if (!res.url().endsWith(`/api/v1/surveys/${life.gid}/results/`) || !res.ok()) return;
        void res
          .json()
          .then((body) => told.push(smallestOf(body as SurveyResults, own, life)))
          .catch(() => undefined);
      });

      // The end of the survey: a finished survey reopens on its results; then the outro.
      await page.goto(`/surveys/${life.gid}`);
      const results = endResults(page, life.name);
      const seeAnswers = page.getByRole('button', { name: 'See your answers' });
      await results.or(seeAnswers).first().waitFor();
      if (await seeAnswers.isVisible()) await seeAnswers.click();
      await page.getByRole('button', { name: 'Finish' }).click();
      await page.getByRole('heading', { name: 'Thank you for your candour' }).waitFor();
      const outro = await summaryOf(page, 'Your 3 most unusual answers');
      await expect.poll(() => told).toContainEqual(outro.percents);
      // Answered today, after the last update: each says when it counts, from the published
      // threshold of the next update.
      for (const line of outro.lines) {
        expect(line).toMatch(
          /^(About \d+% (\(±\d+\) )?|Under about \d+% )answered the same · counts within about [\d,]+ more answers$/,
        );
      }
      // Every answer against everyone's, below.
      await expect(
        page.locator('.outro__answers .standing-share__text').count(),
      ).resolves.toBeGreaterThan(3);
      await screenshot(page, `insight-outro-${size}`);
      expect(await axeViolations(page)).toEqual([]);

      // The mirror: one section per survey; the long one leads with its most unusual answers.
      await page.getByRole('link', { name: 'My mirror' }).click();
      await page.getByRole('heading', { level: 1, name: 'Where you stand' }).waitFor();
      const lifeSection = page.getByRole('region', { name: 'Life and Death', exact: true });
      const timeSection = page.getByRole('region', { name: 'Time Travel', exact: true });
      await lifeSection.waitFor();
      await timeSection.waitFor();
      const mirror = await summaryOf(page, 'Your 3 most unusual answers');
      await expect.poll(() => told).toContainEqual(mirror.percents);
      await expect(
        lifeSection
          .locator('.unusual')
          .filter({ has: page.getByRole('heading', { name: 'Your 3 most unusual answers' }) })
          .count(),
      ).resolves.toBe(1);
      // Not a landmark of its own there: two surveys would give two of the same name.
      await expect(
        page.getByRole('region', { name: 'Your 3 most unusual answers' }).count(),
      ).resolves.toBe(0);
      // Time Travel's few answers are listed as they are; Life and Death's all 35 fold away.
      await expect(timeSection.locator('.mirror-item').count()).resolves.toBe(
        time.questions.length,
      );
      const all = lifeSection.getByText(`All ${life.questions.length} answers`);
      await all.click();
      await expect(lifeSection.locator('.mirror-item').count()).resolves.toBe(
        life.questions.length,
      );
      await all.click();
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `insight-mirror-${size}`);
      expect(await axeViolations(page)).toEqual([]);
      watch.assertNoErrors();
      await context.close();
    },
  );
});
