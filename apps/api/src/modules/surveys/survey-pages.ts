// What the survey content adds to the web app's pages: on `/`, the page as it first paints (the
// shell, the hero, the survey bricks, the selling points) with the survey list it was drawn from;
// on a survey's page, its intro as it first paints with the survey it was drawn from.
import {
  HOME_SURVEY_LIST_PATH,
  onePerPair,
  PAGE_DATA_ID,
  type SurveyDetail,
  SurveyDetailSchema,
  type SurveyList,
  SurveyListSchema,
  type SurveySummary,
  promotedOnHome,
  surveyMinutes,
  timeAgo,
  timeUntil,
} from '@candor/contracts';
import { isUuid } from '../../lib/uuid.js';
import { serializeOnce } from '../../lib/serialize.js';
import {
  type PageContributor,
  type PageParts,
  escapeHtml,
  jsonForScript,
} from '../../plugins/web-page.js';
import type { SurveysService } from './surveys.service.js';

const LIST_ROUTE = '/api/v1/surveys/open-closed-random-video-surveys';

/** A CSS string's content (inside `url("...")`): nothing in it can end the string. */
const cssString = (text: string) =>
  text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\n\r\f]/g, (c) => `\\${c.charCodeAt(0)} `);

// The web app's own rules, as features/surveys/lib/bricks.ts has them (spec section 9).
const SIZES = ['large', 'medium', 'small'] as const;
const brickSizeOf = (variant: string) => SIZES.find((s) => s === variant.split('_')[1]) ?? 'medium';
/** Large is centred; medium and small get a random offset of 10%..100% in steps of 10. */
function backgroundPosition(size: (typeof SIZES)[number], random = Math.random): string {
  if (size === 'large') return 'center';
  return `${10 + Math.min(9, Math.floor(random() * 10)) * 10}% 50%`;
}
function toneOf(gid: string): number {
  let sum = 0;
  for (const c of gid) sum += c.charCodeAt(0);
  return sum % 4;
}

// The markup below is the first render of components/layout.tsx (a visitor's),
// app/routes/home.tsx, features/surveys/components/{brick-navigation,brick,selling-points}.tsx
// and, on a survey's page, features/surveys/components/survey-intro.tsx as the answering flow
// first shows it (features/answering/components/survey-flow.tsx: its start waits for the
// browser's records). The web app replaces it with its own when its scripts run, so it must be
// the same, element for element, or the page would move. e2e/first-load.e2e.ts compares them.

const LOGO =
  '<svg width="28" height="28" viewBox="0 0 64 64" aria-hidden="true" focusable="false">' +
  '<rect width="64" height="64" rx="14" fill="currentColor"></rect>' +
  '<circle cx="32" cy="32" r="17" fill="none" stroke="var(--paper)" stroke-width="6"></circle>' +
  '<path d="M32 15a17 17 0 0 1 0 34z" fill="var(--violet)"></path></svg>';

/** The shell up to the page's content; `home` marks the navbar's Surveys link as the page's. */
const shellStart = (home: boolean) =>
  '<div class="shell"><a class="skip-link" href="#main">Skip to content</a>' +
  '<header class="navbar"><div class="navbar__inner">' +
  `<a class="navbar__brand" aria-label="Candor home" href="/" data-discover="true">${LOGO}<span>Candor</span></a>` +
  '<nav aria-label="Main" class="navbar__links">' +
  (home
    ? '<a aria-current="page" class="navbar__surveys active" href="/" data-discover="true">Surveys</a>'
    : '<a class="navbar__surveys" href="/" data-discover="true">Surveys</a>') +
  // Whether someone is logged in is known only in their browser. A visitor's links hold their
  // place, unseen (most first visits are visitors': nothing moves when the app draws them);
  // a member's appear as soon as the app runs (it finds their tokens in the browser).
  '<a class="" href="/login" data-discover="true" aria-hidden="true" tabindex="-1" ' +
  'style="visibility:hidden">Log in</a>' +
  '<a class="navbar__cta" href="/signup" data-discover="true" aria-hidden="true" tabindex="-1" ' +
  'style="visibility:hidden">Sign up</a>' +
  '</nav></div></header><main id="main" class="main">';

const SHELL_END =
  '</main><footer class="footer"><p>Candor · answers are anonymous unless you choose otherwise ' +
  '· every signup is verified human · <a href="/privacy" data-discover="true">Privacy</a></p>' +
  '</footer></div>';

const HERO =
  '<section class="hero"><p class="hero__eyebrow">Tough questions. Honest answers.</p>' +
  '<h1>The questions nobody else dares to ask.</h1><p class="hero__lead">Answer anonymously, ' +
  'then see where you stand against everyone else. Every signup is a verified human, so the ' +
  'numbers mean something.</p></section>';

const POINTS: Array<[string, string, string]> = [
  [
    'Survey questions',
    'Short surveys you finish in minutes, one question per screen.',
    'M4 6h16M4 12h10M4 18h13',
  ],
  [
    'Tough choices',
    'Real dilemmas with no easy answer, and the option to leave any blank.',
    'M12 3v18M5 8l7-5 7 5M3 14l4-6 4 6a4 4 0 0 1-8 0zM13 14l4-6 4 6a4 4 0 0 1-8 0z',
  ],
  [
    'Taboos',
    'Sex, money, death, crime: the things people think about but rarely say.',
    'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM5.6 5.6l12.8 12.8',
  ],
  [
    'A mirror for self-knowledge',
    'See where you stand against everyone else, question by question.',
    'M12 2a7 9 0 1 0 0 18 7 9 0 0 0 0-18zM12 20v2M8 22h8',
  ],
  [
    'Anonymous unless you choose',
    'Your answers carry no account: nobody, not even Candor, can tie them to you.',
    'M3 12s3.5-6 9-6 9 6 9 6-3.5 6-9 6-9-6-9-6zM4 4l16 16',
  ],
  [
    'Verified humans only',
    'Every signup is verified, so bots and fake accounts cannot distort the results.',
    'M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6zM9 12l2 2 4-4',
  ],
];

const SELLING_POINTS =
  '<section id="why" class="points" aria-labelledby="why-heading"><h2 id="why-heading">Why ' +
  'Candor</h2><ul class="points__list">' +
  POINTS.map(
    ([title, text, icon]) =>
      '<li class="point"><svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" ' +
      `class="point__icon"><path d="${icon}" fill="none" stroke="currentColor" ` +
      'stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"></path></svg>' +
      `<h3>${escapeHtml(title)}</h3><p>${escapeHtml(text)}</p></li>`,
  ).join('') +
  '</ul></section>';

function brick(survey: SurveySummary, position: string): string {
  const size = brickSizeOf(survey.variant);
  const closed = survey.status === 'Closed';
  const cover = survey.cover_image;
  const classes = `brick brick--${size}${closed ? ' brick--closed' : ''}${cover ? '' : ' brick--uncovered'}`;
  const tone = cover ? '' : ` data-tone="${toneOf(survey.gid)}"`;
  const style = `${cover ? `background-image:url("${cssString(cover)}");` : ''}background-position:${position}`;
  const count = `${survey.questions_count} ${survey.questions_count === 1 ? 'question' : 'questions'}`;
  // The time estimate and the published number of people, as features/surveys/lib/progress.ts
  // says them. Where this person stands (new, continue, done) is known only on their device:
  // the app adds it once it has read it.
  const time =
    closed || survey.questions.length === 0
      ? ''
      : ` · about ${surveyMinutes(onePerPair(survey.questions, undefined, new Set()))} min`;
  const people =
    survey.respondents !== null && survey.respondents > 0
      ? `<span class="brick__people">About ${survey.respondents.toLocaleString('en-US')} ` +
        `${survey.respondents === 1 ? 'person' : 'people'} answered</span>`
      : '';
  const genres = survey.genres.length
    ? `<span class="brick__genres">${escapeHtml(survey.genres.map((g) => g.genre_name).join(' · '))}</span>`
    : '';
  return (
    `<li class="${classes}"${tone}>` +
    `<a class="brick__link" href="/surveys/${escapeHtml(survey.gid)}" data-discover="true" style="${escapeHtml(style)}">` +
    (cover ? '' : '<span class="brick__mark" aria-hidden="true">?</span>') +
    '<span class="brick__badges">' +
    (closed ? '<span class="badge badge--closed">Closed · results only</span>' : '') +
    '</span><span class="brick__body">' +
    `<span class="brick__name">${escapeHtml(survey.name)}</span>` +
    `<span class="brick__headline">${escapeHtml(survey.cover_headline)}</span>` +
    `<span class="brick__meta"><span>${count}${time}</span></span>` +
    `${people}${genres}</span></a></li>`
  );
}

/** The bricks in slot order, filtered by `?genre=` as the app filters them. */
function brickNavigation(
  surveys: SurveySummary[],
  selected: string | null,
  positions: Map<string, string>,
): string {
  const promoted = surveys.filter(promotedOnHome);
  const genres = [
    ...new Map(promoted.flatMap((s) => s.genres).map((g) => [g.unique_GID, g])).values(),
  ].sort((a, b) => a.genre_name.localeCompare(b.genre_name));
  const shown = promoted
    .filter((s) => !selected || s.genres.some((g) => g.genre_name === selected))
    .sort((a, b) => a.slot - b.slot);
  // Submit buttons of a form: before the app runs, a choice loads the page filtered. Clearing
  // the filter is a button without a value (it sends `genre=`, as the app's does).
  const button = (label: string, pressed: boolean, next: string) =>
    `<button type="submit" name="genre"${next ? ` value="${escapeHtml(next)}"` : ''} aria-pressed="${pressed}">` +
    `${escapeHtml(label)}</button>`;
  return (
    '<section aria-labelledby="surveys-heading" class="surveys"><div class="surveys__head">' +
    '<h2 id="surveys-heading">Surveys</h2><form method="get" action="/" class="genre-form">' +
    '<div class="genre-filter" role="group" aria-label="Filter by genre">' +
    button('All', !selected, '') +
    genres
      .map((g) =>
        button(
          g.genre_name,
          selected === g.genre_name,
          selected === g.genre_name ? '' : g.genre_name,
        ),
      )
      .join('') +
    '</div></form></div>' +
    (shown.length
      ? `<ul class="bricks">${shown.map((s) => brick(s, positions.get(s.gid)!)).join('')}</ul>`
      : '<p class="empty">No survey in this genre yet. ' +
        '<button type="button" class="link-button">Show all surveys</button></p>') +
    '</section>'
  );
}

/** The home page's first paint for this list, and the list itself for the app to start from. */
function homeParts(
  list: SurveyList,
  selected: string | null,
  positions: Map<string, string>,
): PageParts {
  const first = list.results
    .filter(promotedOnHome)
    .filter((s) => !selected || s.genres.some((g) => g.genre_name === selected))
    .sort((a, b) => a.slot - b.slot)[0];
  // The first brick's cover is the largest thing on the first screen: fetched with the page.
  const shown = Object.fromEntries(list.results.map((s) => [s.gid, positions.get(s.gid)]));
  return {
    head: first?.cover_image ? preloadImage(first.cover_image) : '',
    root:
      shellStart(true) +
      HERO +
      brickNavigation(list.results, selected, positions) +
      SELLING_POINTS +
      SHELL_END,
    body: dataBlock(
      HOME_SURVEY_LIST_PATH,
      serializeOnce(SurveyListSchema, list),
      `,"brickPositions":${JSON.stringify(shown)}`,
    ),
  };
}

const SHARE_ICON =
  '<svg class="share-icon" width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" ' +
  'focusable="false"><path d="M12 3v12M7.5 7.5 12 3l4.5 4.5M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 ' +
  '2-2v-7" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" ' +
  'stroke-linejoin="round"></path></svg>';

/**
 * A survey's intro as the app first shows it to someone whose browser records are still being
 * read: its start button disabled and busy. Its share button says "Share" (phones have a share
 * sheet; a browser without one relabels it "Copy link" when the app runs).
 */
function surveyIntro(survey: SurveyDetail, now: Date): string {
  const closed = survey.status === 'Closed';
  const hasVideo = survey.questions.some((q) => q.video_link_1);
  const count = `${survey.questions_count} ${survey.questions_count === 1 ? 'question' : 'questions'}`;
  const media = survey.intro_screen_image
    ? `<img src="${escapeHtml(survey.intro_screen_image)}" alt="" width="960" height="540">`
    : survey.cover_image
      ? ''
      : `<div class="cover-placeholder" data-tone="${toneOf(survey.gid)}" aria-hidden="true">` +
        '<span class="cover-placeholder__mark">?</span></div>';
  const video = hasVideo ? '<li>Some questions are videos, with captions.</li>' : '';
  const facts = closed
    ? `<li>${count}, each with how verified people answered it.</li>${video}`
    : `<li>${escapeHtml(survey.instructions)}</li>` +
      (survey.closes_at
        ? `<li>It closes for answers ${timeUntil(survey.closes_at, now)}.</li>`
        : '') +
      '<li>' +
      (survey.variant.startsWith('v1_')
        ? 'You see how everyone answered right after each question.'
        : 'You see how everyone answered at the end.') +
      `</li>${video}<li>Anonymous: your answers are never shown next to your name or number.</li>`;
  return (
    '<div class="flow-intro"><article class="intro">' +
    `<div class="intro__media">${media}</div><div class="intro__content">` +
    `<p class="intro__eyebrow">${escapeHtml(survey.genres.map((g) => g.genre_name).join(' · '))}` +
    (survey.is_within_24_hours ? '<span class="badge badge--new">New</span>' : '') +
    `</p><h1>${escapeHtml(survey.name)}</h1>` +
    `<p class="intro__headline">${escapeHtml(survey.cover_headline)}</p>` +
    (closed
      ? '<p class="notice notice--closed" role="status">This survey closed ' +
        `${survey.closed_at ? timeAgo(survey.closed_at, now) : ''}. You can still see how people ` +
        'answered.</p>'
      : '') +
    `<p class="intro__text">${escapeHtml(survey.intro_screen_text)}</p>` +
    `<ul class="intro__facts">${facts}</ul>` +
    '<button type="button" class="button button--primary button--large" disabled="" ' +
    `aria-busy="true">${closed ? 'See the results' : 'Start the survey'}</button>` +
    '<div class="intro__footer"><p class="intro__byline">' +
    `${survey.author ? `By ${escapeHtml(survey.author)} · released` : 'Released'} ` +
    `${timeAgo(survey.release_date, now)}</p>` +
    `<button type="button" class="button share-button">${SHARE_ICON}Share</button>` +
    '</div></div></article></div>'
  );
}

/** A survey's page as it first paints, and the survey for the app to start from. */
function surveyParts(survey: SurveyDetail, now: Date): PageParts {
  return {
    // Its intro picture is the largest thing on the first screen: fetched with the page.
    head: survey.intro_screen_image ? preloadImage(survey.intro_screen_image) : '',
    root: shellStart(false) + surveyIntro(survey, now) + SHELL_END,
    body: dataBlock(
      `/v1/surveys/${survey.gid}/video-survey`,
      serializeOnce(SurveyDetailSchema, survey),
    ),
  };
}

/** An image the first screen shows, requested with the page at high priority. */
const preloadImage = (url: string) =>
  `<link rel="preload" as="image" href="${escapeHtml(url)}" fetchpriority="high">`;

/**
 * The page's JSON data block: the API's answer at `path` (already JSON) for the app to start
 * from, and `more` of the block's members (`,"name":value`).
 */
const dataBlock = (path: string, answer: string, more = '') =>
  `<script type="application/json" id="${PAGE_DATA_ID}">` +
  `${jsonForScript(`{"responses":{${JSON.stringify(path)}:${answer}}${more}}`)}</script>`;

/**
 * The survey pages' share of the web app's pages (web.ts): the home page drawn from the list
 * every visitor gets (nothing personal: the session is only in the browser), and a survey's page
 * drawn with its intro, the survey it was drawn from and its picture requested at once. Drawn
 * from the content snapshot, so a page
 * changes when the content does, within the snapshot's few seconds; the same content gives the
 * same page (and entity tag), each brick keeping its random cover offset.
 */
export function surveyPages(service: SurveysService): PageContributor {
  const positions = new Map<string, string>();
  const drawn = new WeakMap<SurveyList, Map<string | null, PageParts>>();
  const intros = new WeakMap<SurveyDetail, { minute: number; parts: PageParts }>();

  function home(list: SurveyList, genre: string | null): PageParts {
    const listed = new Set(list.results.map((s) => s.gid));
    for (const s of list.results) {
      const size = brickSizeOf(s.variant);
      const known = positions.get(s.gid);
      if (!known || (size === 'large') !== (known === 'center')) {
        positions.set(s.gid, backgroundPosition(size));
      }
    }
    for (const gid of positions.keys()) if (!listed.has(gid)) positions.delete(gid);
    let pages = drawn.get(list);
    if (!pages) drawn.set(list, (pages = new Map<string | null, PageParts>()));
    const known = pages.get(genre);
    if (known) return known;
    const parts = homeParts(list, genre, positions);
    // Only the genres the list has (and none): any other text in ?genre= is drawn each time.
    const genres = new Set(list.results.flatMap((s) => s.genres.map((g) => g.genre_name)));
    if (genre === null || genres.has(genre)) pages.set(genre, parts);
    return parts;
  }

  return async ({ path, query, origin }) => {
    if (path === '/') {
      const list = await service.list({ page: 1, page_size: 100 }, `${origin}${LIST_ROUTE}`);
      return home(list, query.get('genre'));
    }
    const gid = /^\/surveys\/([^/]+)$/.exec(path)?.[1];
    if (gid && isUuid(gid)) {
      const survey = await service.getByGid(gid, origin).catch(() => undefined);
      if (!survey) return undefined;
      // Relative dates ("released 3 days ago") are read at the minute the page is drawn.
      const minute = Math.floor(Date.now() / 60_000);
      const known = intros.get(survey);
      if (known?.minute === minute) return known.parts;
      const parts = surveyParts(survey, new Date(minute * 60_000));
      intros.set(survey, { minute, parts });
      return parts;
    }
    return undefined;
  };
}
