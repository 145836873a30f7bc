import { fileURLToPath } from 'node:url';
import type { AdminSurvey, SurveyDetail, SurveyExport } from '@candor/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { AUTHORED_PREFIX, call, token } from './api';
import { desktop, phone } from './chromium';
import { it, test } from './fixtures';
import type { Person } from './people';
import {
  goOn,
  logIn,
  openAdmin as openStaffArea,
  questionHeading,
  readDownload,
  screenshot,
  signUp,
  staffTab as tab,
  toast,
  endResults,
} from './screens';

const baseURL = inject('baseURL');

test.override('contextOptions', { reducedMotion: 'reduce' });

const tablet = { viewport: { width: 820, height: 1180 } };
const cover = fileURLToPath(
  new URL('../apps/web/public/sample/covers/time-travel.webp', import.meta.url),
);

const videoQuestion = 'Watch the clip. Would you go back and change one night of your life?';
const openQuestion = 'What keeps you awake at night?';

async function openAdmin(page: Page, admin: Person) {
  await openStaffArea(page, admin);
  await toast(page, 'Logged In').waitFor({ state: 'detached' });
}

/** Neither the page nor anything in it scrolls sideways. */
async function noSidewaysScroll(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    )
    .toBeLessThanOrEqual(0);
}

/** `YYYY-MM-DDTHH:mm` of a moment, in the browser's zone (what a datetime-local input takes). */
const localInput = (date: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/** The question form open on the page: fills it and adds the question. */
async function addQuestion(
  page: Page,
  q: { type: 'Closed' | 'Open'; text: string; choices?: string[]; video?: string },
) {
  await page.getByRole('button', { name: 'Add question' }).first().click();
  const form = page.locator('form.question-form');
  await form.waitFor();
  await form.getByRole('radio', { name: q.type === 'Closed' ? /choice/i : /written/i }).check();
  await form.getByLabel('Question', { exact: true }).fill(q.text);
  for (const [i, choice] of (q.choices ?? []).entries()) {
    const field = form.getByLabel(`Choice ${i + 1}`, { exact: true });
    if (!(await field.count())) await form.getByRole('button', { name: 'Add a choice' }).click();
    await field.fill(choice);
  }
  if (q.video) {
    const link = form.getByLabel('Video link', { exact: true });
    // A link that is not a video is refused on the spot, with the reason.
    await link.fill('https://example.com/a-page');
    await link.blur();
    await form.getByText('Use a YouTube or Vimeo link').waitFor();
    await link.fill(q.video);
    await link.blur();
    await expect(form.getByText('Use a YouTube or Vimeo link').count()).resolves.toBe(0);
  }
  await form.getByRole('button', { name: 'Add question', exact: true }).click();
  await form.waitFor({ state: 'detached' });
}

describe('survey authoring in the staff area', () => {
  it('an admin creates a two-question video survey, publishes it, a member answers, the admin closes and exports it', async ({
    people,
    admin,
  }) => {
    // Unique per attempt: a retry makes a survey of its own.
    const name = `${AUTHORED_PREFIX}Night Owls ${Date.now().toString(36).slice(-4)}`;
    const staff = await people.newPage(desktop, admin);
    const page = staff.page;
    await openAdmin(page, admin);
    await tab(page, 'Surveys').click();
    await page.getByRole('heading', { level: 1, name: 'Surveys' }).waitFor();
    await page.getByRole('link', { name: 'Time Travel', exact: true }).waitFor();
    await screenshot(page, 'admin-surveys-desktop');

    // A new draft, every field from the form.
    await page.getByRole('link', { name: 'New survey' }).click();
    await page.waitForURL(`${baseURL}/admin/surveys/new`);
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Author', { exact: true }).fill('Candor team');
    await page.getByLabel('Cover headline', { exact: true }).fill('Who is still awake, and why?');
    await page.getByRole('checkbox', { name: 'Ethics' }).check({ force: true });
    await page
      .locator('.image-field', { hasText: 'Cover image' })
      .locator('input[type="file"]')
      .setInputFiles(cover);
    const coverImage = page.locator('.image-field', { hasText: 'Cover image' }).locator('img');
    await coverImage.waitFor();
    const coverUrl = await coverImage.getAttribute('src');
    await page.getByLabel('Intro text', { exact: true }).fill('Two questions about the night.');
    await page.getByLabel('Outro text', { exact: true }).fill('Sleep well.');
    await page.getByRole('radio', { name: /Feedback at the end/ }).check({ force: true });
    // Released three days ago: listed at once, without the "new" badge of the last 24 hours.
    await page
      .getByLabel('Release date', { exact: true })
      .fill(localInput(new Date(Date.now() - 3 * 86_400_000)));
    // Closing by itself in three days (the admin closes it by hand below, first).
    await page
      .getByLabel('Closes (optional)', { exact: true })
      .fill(localInput(new Date(Date.now() + 3 * 86_400_000)));
    await screenshot(page, 'admin-survey-new-desktop');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/admin\/surveys\/[0-9a-f-]{36}$/);
    const gid = page.url().split('/').at(-1)!;
    await page.getByText('Draft', { exact: true }).first().waitFor();

    await addQuestion(page, {
      type: 'Closed',
      text: videoQuestion,
      choices: ['Yes', 'No', 'Not sure'],
      video: '/sample/video/time-travel-1.mp4',
    });
    await addQuestion(page, { type: 'Open', text: openQuestion });
    const cards = page.locator('.question-card');
    await expect.poll(() => cards.count()).toBe(2);
    // The open question first: moved up, saved at once.
    await page.getByRole('button', { name: 'Move question 2 up' }).click();
    await expect.poll(() => cards.first().textContent()).toContain(openQuestion);
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-survey-editor-desktop');

    // The preview: the respondent's own screens, nothing recorded.
    await page.getByRole('link', { name: 'Preview' }).click();
    await page.getByText('Preview: answers are not recorded.').waitFor();
    await screenshot(page, 'admin-survey-preview-desktop');
    // Drawn at its size on the site (compared with the home page below).
    const previewBrick = (await page.locator('.preview-bricks .brick').boundingBox())!;
    await page.getByRole('link', { name: 'Back to the editor' }).click();
    await page.waitForURL(`${baseURL}/admin/surveys/${gid}`);

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Publish survey' }).click();
    await page.locator('.survey-status').getByText('Open', { exact: true }).first().waitFor();
    await expect.poll(() => page.locator('.survey-status__facts').innerText()).toMatch(/Closes/);

    // A member finds it on the home page and answers both questions.
    const person = await people.newPage(desktop);
    await signUp(person.page, person.who);
    await person.page.goto('/');
    // Waited for: the list may be a few seconds old on another process (its content cache).
    const brick = person.page.locator('.brick', { hasText: name });
    await brick.waitFor({ timeout: 15_000 });
    const siteBrick = (await brick.boundingBox())!;
    expect(Math.abs(siteBrick.width - previewBrick.width)).toBeLessThanOrEqual(1);
    expect(Math.abs(siteBrick.height - previewBrick.height)).toBeLessThanOrEqual(1);
    await person.page.locator('.brick', { hasText: name }).getByRole('link').click();
    await person.page.waitForURL(`${baseURL}/surveys/${gid}`);
    // Less than three days to go by now: the largest whole unit.
    await person.page.getByText('It closes for answers in 2 days.').waitFor();
    await person.page.getByRole('button', { name: 'Start the survey' }).click();
    await person.page.getByRole('heading', { level: 1, name: openQuestion }).waitFor();
    await person.page.getByLabel('Your answer').fill('The neighbours, mostly.');
    await person.page.getByRole('button', { name: 'Send my answer' }).click();
    await person.page.getByRole('button', { name: /^(Skip rating and go on|Next)/ }).click();
    await person.page.getByRole('heading', { level: 1, name: videoQuestion }).waitFor();
    // The video question plays its clip in the page.
    await person.page.locator('.question-video video').waitFor();
    await screenshot(person.page, 'authored-video-question-desktop');
    await person.page
      .getByRole('list', { name: 'Answers' })
      .getByRole('button', { name: 'Not sure' })
      .click();
    await person.page.getByRole('button', { name: /^(Skip rating and go on|Next)/ }).click();
    await endResults(person.page, name).waitFor();
    await person.page.getByRole('button', { name: 'Finish' }).click();
    await person.page
      .getByRole('heading', { name: 'Sleep well.' })
      .or(person.page.getByText('Sleep well.'))
      .first()
      .waitFor();
    person.watch.assertNoErrors();
    await person.context.close();

    // The admin sees published counts only, blurred: usually none yet for two answers, but the
    // trigger's noise may end the first period early (then "About N answers", N blurred), and
    // every choice of the published survey is locked, answered or not.
    await page.reload();
    await expect
      .poll(() => page.locator('.survey-status').textContent())
      .toMatch(/Answers\s*(None published yet|About \d+ answers)/);
    await expect
      .poll(() => page.locator('.question-card__choice--locked').count())
      .toBeGreaterThan(0);
    // Adding a choice to the live question asks first: those who answered never saw it.
    await page.getByRole('button', { name: 'Edit question 2' }).click();
    const form = page.locator('form.question-form');
    await form.getByRole('button', { name: 'Add a choice' }).click();
    await form.getByLabel('Choice 4', { exact: true }).fill('Only on weekends');
    await form.getByRole('button', { name: 'Save question' }).click();
    const ask = page.getByRole('dialog', { name: 'Add a choice to a live question?' });
    await ask
      .getByText(/answered it without “Only on weekends”|answered question 2 without “Only/)
      .waitFor();
    await screenshot(page, 'admin-add-choice-live-desktop');
    await ask.getByRole('button', { name: 'Add it' }).click();
    await form.waitFor({ state: 'detached' });
    await page
      .locator('.question-card', { hasText: videoQuestion })
      .getByText('Only on weekends')
      .waitFor();
    await page.getByRole('button', { name: 'Close survey' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close survey' }).click();
    await page.locator('.survey-status').getByText('Closed', { exact: true }).first().waitFor();
    await screenshot(page, 'admin-survey-closed-desktop');

    // Duplicated: a new draft with its questions, none of its answers; the original stays.
    await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
    await page.waitForURL(
      (u) => /\/admin\/surveys\/[0-9a-f-]{36}$/.test(u.pathname) && !u.pathname.endsWith(gid),
    );
    await page.locator('.survey-status').getByText('Draft', { exact: true }).first().waitFor();
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe(
      `${name} (copy)`,
    );
    await expect.poll(() => page.locator('.question-card').count()).toBe(2);
    await expect(page.locator('.survey-status').textContent()).resolves.toMatch(
      /None published yet/,
    );
    await screenshot(page, 'admin-survey-duplicated-desktop');
    // The copy is a draft: it can be deleted, after a question.
    await page.getByRole('button', { name: 'Delete draft' }).click();
    await page.getByRole('dialog', { name: `Delete “${name} (copy)”?` }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete draft' }).click();
    await page.waitForURL(`${baseURL}/admin/surveys`);
    await page.getByRole('link', { name, exact: true }).first().waitFor();
    await expect
      .poll(() => page.getByRole('link', { name: `${name} (copy)`, exact: true }).count())
      .toBe(0);

    // Archived: off the home page, its page kept.
    await page.goto(`/admin/surveys/${gid}`);
    await page.locator('.survey-status').getByText('Closed', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive survey' }).click();
    await page.locator('.survey-status').getByText('Archived', { exact: true }).first().waitFor();
    await screenshot(page, 'admin-survey-archived-desktop');
    await page.goto('/');
    await page.locator('.brick').first().waitFor();
    await expect(page.locator('.brick', { hasText: name }).count()).resolves.toBe(0);
    await page.goto(`/surveys/${gid}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.goto(`/admin/surveys/${gid}`);
    await page.locator('.survey-status').getByText('Archived', { exact: true }).first().waitFor();

    // Its content as a file, imported back as a new draft (as on another Candor).
    const [saved] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export as file' }).click(),
    ]);
    expect(saved.suggestedFilename()).toMatch(/^e2e-night-owls-[a-z0-9]+\.candor-survey\.json$/);
    const content = await readDownload(saved);
    expect(content).toContain(videoQuestion);
    expect(content).not.toContain(gid);
    await page.goto('/admin/surveys');
    await page.locator('input[type="file"][accept^="application/json"]').setInputFiles({
      name: 'night-owls.candor-survey.json',
      mimeType: 'application/json',
      buffer: Buffer.from(content),
    });
    await page.waitForURL(
      (u) => /\/admin\/surveys\/[0-9a-f-]{36}$/.test(u.pathname) && !u.pathname.endsWith(gid),
    );
    await page.locator('.survey-status').getByText('Draft', { exact: true }).first().waitFor();
    await expect.poll(() => page.locator('.question-card').count()).toBe(2);
    await screenshot(page, 'admin-survey-imported-desktop');
    // A file that is not one says why, and makes nothing.
    await page.goto('/admin/surveys');
    await page.locator('input[type="file"][accept^="application/json"]').setInputFiles({
      name: 'notes.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"format":"typeform/2"}'),
    });
    await page.getByText('This is not a Candor survey file (candor.survey/1).').waitFor();
    await screenshot(page, 'admin-survey-import-refused-desktop');
    await page.goto(`/admin/surveys/${gid}`);
    await page.locator('.survey-status').getByText('Archived', { exact: true }).first().waitFor();

    // Exports: the survey's results as CSV and JSON.
    await tab(page, 'Results').click();
    await page
      .getByRole('combobox', { name: 'Survey', exact: true })
      .selectOption({ label: `${name} (closed)` });
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csvText = await readDownload(csv);
    expect(csvText).toContain(videoQuestion);
    expect(csvText).toContain(openQuestion);
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    const body = JSON.parse(await readDownload(json)) as SurveyExport;
    expect(body.name).toBe(name);
    expect(body.questions).toHaveLength(2);

    // Deleted with its answer: only once its exact name is typed; its page is gone after.
    await page.goto(`/admin/surveys/${gid}`);
    await page.locator('.survey-status').getByText('Archived', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Delete survey…' }).click();
    const asking = page.getByRole('dialog', { name: `Delete “${name}” and its answers?` });
    const confirm = asking.getByRole('button', { name: 'Delete survey', exact: true });
    await asking.getByLabel(/Type the survey’s name to confirm/).fill(name.toLowerCase());
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await screenshot(page, 'admin-survey-delete-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'admin-survey-delete-phone');
    await page.setViewportSize(desktop.viewport!);
    await asking.getByLabel(/Type the survey’s name to confirm/).fill(name);
    await confirm.click();
    await page.waitForURL(`${baseURL}/admin/surveys`);
    await expect.poll(() => page.getByRole('link', { name, exact: true }).count()).toBe(0);
    const gone = await fetch(new URL(`/api/v1/surveys/${gid}/`, baseURL));
    expect(gone.status).toBe(404);

    // Every step is in the audit log.
    await tab(page, 'Audit log').click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    for (const text of [
      /created the survey/,
      /published/,
      /closed/,
      /\barchived a survey/,
      /deleted the draft/,
      /with its answers/,
      /exported/,
    ]) {
      await page.getByText(text).first().waitFor();
    }
    staff.watch.assertNoErrors();
    await staff.context.close();
    // The uploaded cover is stored (in the database) and served as WebP.
    expect(coverUrl).toMatch(/\/uploads\/[0-9a-f]{32}\.webp$/);
    const served = await fetch(new URL(coverUrl!, baseURL));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
  });

  it("shuffles a survey's questions for each person, in an order kept on reload", async ({
    people,
    admin,
  }) => {
    const as = async (path: string, body: object, method = 'POST') =>
      call(path, { body, method, token: await token(admin), ip: admin.ip });
    const name = `${AUTHORED_PREFIX}Shuffled ${Date.now().toString(36).slice(-4)}`;
    const made = await as('/api/v1/admin/surveys/', {
      name,
      release_date: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    });
    const { gid } = (await made.json()) as AdminSurvey;
    const authored = ['one', 'two', 'three', 'four', 'five', 'six'].map(
      (n) => `Which would you give up first? (${n})`,
    );
    for (const question of authored) {
      const res = await as(`/api/v1/admin/surveys/${gid}/questions/`, {
        type: 'Closed',
        question,
        choices: ['Coffee', 'Phone'],
      });
      expect(res.status).toBe(201);
    }

    // The author ticks the box in the survey's form.
    const staff = await people.newPage(desktop, admin);
    await openStaffArea(staff.page, admin);
    await staff.page.goto(`/admin/surveys/${gid}`);
    const box = staff.page.getByRole('checkbox', {
      name: /Shuffle the order of questions for each person/,
    });
    await box.check();
    await staff.page.getByRole('button', { name: 'Save changes' }).click();
    await toast(staff.page, 'Survey saved').waitFor();
    await staff.page.getByText(/in an order drawn for each person/).waitFor();
    expect((await as(`/api/v1/admin/surveys/${gid}/publish/`, {})).status).toBe(200);
    const detail = (await (
      await call(`/api/v1/surveys/${gid}/video-survey`)
    ).json()) as SurveyDetail;
    expect(detail.randomise_questions).toBe(true);
    await box.scrollIntoViewIfNeeded();
    await screenshot(staff.page, 'admin-survey-shuffle-desktop');
    // Published, the order is said, not offered.
    await staff.page.reload();
    await staff.page.getByText('Shuffled for each person. Fixed once published.').waitFor();
    await expect(box.count()).resolves.toBe(0);

    /** Answers every question on screen, reloading once after the second; the order met. */
    async function meet(page: Page): Promise<string[]> {
      await page.goto(`/surveys/${gid}`);
      await page.getByRole('button', { name: /^(Start the survey|Continue)/ }).click();
      const met: string[] = [];
      while (met.length < authored.length) {
        const heading = page.getByRole('heading', { level: 1 });
        await expect
          .poll(async () => {
            const text = (await heading.first().textContent()) ?? '';
            return authored.includes(text) && !met.includes(text);
          })
          .toBe(true);
        const text = (await heading.first().textContent())!;
        met.push(text);
        if (met.length === 3) {
          // A reload comes back to the same question, in the same order.
          await page.reload();
          await questionHeading(page, text).waitFor();
          await page.getByText(`Question 3 of ${authored.length}`).waitFor();
        }
        await page.getByRole('list', { name: 'Answers' }).getByRole('button').first().click();
        await goOn(page);
      }
      return met;
    }
    const orders: string[][] = [];
    for (const size of [phone, desktop]) {
      const member = await people.member();
      const { page, watch } = await people.newPage(size, member);
      await logIn(page, member);
      await page.waitForURL((url) => url.pathname !== '/login');
      orders.push(await meet(page));
      if (size === phone) {
        // Nobody else has answered: each answer says the way to the first results (from the
        // published threshold, never a count).
        const first = page
          .getByText(/^No results yet: the next update comes within about \d+ answers$/)
          .first();
        await first.waitFor();
        await first.scrollIntoViewIfNeeded();
        await screenshot(page, 'first-results-phone');
      }
      watch.assertNoErrors();
    }
    for (const order of orders) expect([...order].sort()).toEqual([...authored].sort());
    // Each a draw of 720 orders: both in the authored one has a chance of 1 in 518,400.
    expect(orders.every((order) => order.join() === authored.join())).toBe(false);
  });

  it('every authoring screen fits a tablet', async ({ people, admin }) => {
    const { context, page, watch } = await people.newPage(tablet, admin);
    await openAdmin(page, admin);
    await tab(page, 'Surveys').click();
    await page.getByRole('heading', { level: 1, name: 'Surveys' }).waitFor();
    await page.getByRole('link', { name: 'Time Travel', exact: true }).waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-surveys-tablet');
    await page.getByRole('link', { name: 'Time Travel', exact: true }).click();
    await page.locator('.question-card').first().waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-survey-editor-tablet');
    await page.getByRole('button', { name: 'Edit question 1' }).click();
    await page.locator('form.question-form').waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-question-form-tablet');
    await page.getByRole('link', { name: 'Preview' }).click();
    await page.getByText('Preview: answers are not recorded.').waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-survey-preview-tablet');
    await page.goto('/admin/surveys/new');
    await page.getByRole('button', { name: 'Create draft' }).waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-survey-new-tablet');
    await page.goto('/admin/genres');
    await page.getByRole('heading', { level: 1, name: 'Genres' }).waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-genres-tablet');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'admin-genres-desktop');
    // And on a phone: the list (with its import and sample notice) and a survey's form and status.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/surveys');
    await page.getByRole('button', { name: 'Import a survey file' }).waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-surveys-phone');
    await page.getByRole('link', { name: 'Time Travel', exact: true }).click();
    await page.getByLabel('Closes (optional)', { exact: true }).waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, 'admin-survey-editor-phone');
    watch.assertNoErrors();
    await context.close();
  });
});
