import {
  type Genre,
  type PageQuery,
  type Question,
  type SurveyDetail,
  type SurveyList,
  type SurveySummary,
  VISITOR_FREE_QUESTIONS,
} from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import { pageLinks } from '../../lib/paging.js';
import type { SurveysRepository, SurveyWithContent } from './surveys.repository.js';
import { isUuid } from '../../lib/uuid.js';

const DAY_MS = 86_400_000;

/** Seconds as the spec's `H:MM:SS` duration text. */
export function formatDuration(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** `{origin}/{Survey_name_with_underscores}/{gid}`. */
export function shareableLink(origin: string, name: string, gid: string): string {
  return `${origin}/${encodeURIComponent(name.trim().replace(/\s+/g, '_'))}/${gid}`;
}

/** The intro's instructions: how many questions, and the 0-10 interest rating. */
export function instructionsFor(questionsCount: number): string {
  const noun = questionsCount === 1 ? 'question' : 'questions';
  return (
    `${questionsCount} ${noun}. After each one, rate how interesting it was from 0 to 10, ` +
    `10 being most interesting.`
  );
}

type ContentQuestion = SurveyWithContent['questions'][number];

/** How many questions each person is asked: one of each honesty-gap pair (decision 029). */
const askedCount = (s: SurveyWithContent) => s.questions.filter((q) => q.twinId === null).length;

/**
 * The other question of an honesty-gap pair (decision 029): the one a randomized question asks
 * again, or the randomized question that asks this one again; null for most questions.
 */
function twinQidOf(s: SurveyWithContent, q: ContentQuestion): string | null {
  const twin = s.questions.find((o) => (q.twinId !== null ? o.id === q.twinId : o.twinId === q.id));
  return twin?.qid ?? null;
}

function toQuestion(s: SurveyWithContent, q: ContentQuestion): Question {
  return {
    qid: q.qid,
    question: q.text,
    type: q.type,
    timer_length: formatDuration(q.timerSeconds),
    video_link_1: q.videoLink1,
    video_link_2: q.videoLink2,
    video_captions_1: q.videoCaptions1,
    video_captions_2: q.videoCaptions2,
    submitted: q.submittedAt.toISOString(),
    choices: q.choices.map((c) => c.label),
    randomise_answers: q.randomiseAnswers,
    max_length: q.maxLength,
    rr_weight: q.rrWeight,
    twin_qid: twinQidOf(s, q),
  };
}

/**
 * Whether a survey has closed by `now`: closed by hand (the time it happened) or at a scheduled
 * close that has come. A future `closedAt` is a scheduled close: it still takes answers.
 */
export const closedBy = (closedAt: Date | null, now: Date): boolean =>
  closedAt !== null && closedAt.getTime() <= now.getTime();

function toBase(s: SurveyWithContent, now: Date) {
  const closed = closedBy(s.closedAt, now);
  const genres: Genre[] = s.genres.map((g) => ({ unique_GID: g.gid, genre_name: g.name }));
  const sinceRelease = now.getTime() - s.releaseDate.getTime();
  return {
    gid: s.gid,
    name: s.name,
    cover_image: s.coverImage,
    cover_headline: s.coverHeadline,
    questions_count: askedCount(s),
    status: closed ? ('Closed' as const) : ('Open' as const),
    release_date: s.releaseDate.toISOString(),
    slot: s.slot,
    date_published: s.publishedAt?.toISOString() ?? null,
    is_within_24_hours: sinceRelease >= 0 && sinceRelease < DAY_MS,
    closed_at: closed ? s.closedAt!.toISOString() : null,
    closes_at: !closed && s.closedAt ? s.closedAt.toISOString() : null,
    archived: s.archivedAt !== null,
    variant: s.variant,
    genres,
  };
}

/** What answering needs to know of one question, from the content snapshot. */
export interface CatalogQuestion {
  id: number;
  qid: string;
  type: Question['type'];
  /** Open questions' character limit. */
  maxLength: number | null;
  /** Randomized response's weight m (decision 028); null for an ordinary question. */
  rrWeight: number | null;
  /** The other question of an honesty-gap pair (decision 029); null for most questions. */
  twinQid: string | null;
  surveyGid: string;
  /** The survey's internal key (its credential key is filed under it). */
  surveyId: number;
  variant: SurveyWithContent['variant'];
  /** The survey is closed: it takes no more answers. */
  closed: boolean;
  /** In the order results show them: the question's order, leave-blank last. */
  choices: Array<{ id: number; label: string; isBlank: boolean }>;
  choiceByLabel: Map<string, { id: number; label: string; isBlank: boolean }>;
  choiceById: Map<number, { id: number; label: string; isBlank: boolean }>;
}

function toCatalog(s: SurveyWithContent, now: Date): CatalogQuestion[] {
  return s.questions.map((q) => catalogOf(s, q, now));
}

/** The survey's first question as answering and results know it. */
const firstOf = (s: SurveyWithContent, now: Date): CatalogQuestion =>
  catalogOf(s, s.questions[0]!, now);

function catalogOf(s: SurveyWithContent, q: ContentQuestion, now: Date): CatalogQuestion {
  const ordered = [...q.choices]
    .sort((a, b) => Number(a.isBlank) - Number(b.isBlank) || a.position - b.position)
    .map((c) => ({ id: c.id, label: c.label, isBlank: c.isBlank }));
  return {
    id: q.id,
    qid: q.qid,
    type: q.type,
    maxLength: q.maxLength,
    rrWeight: q.rrWeight,
    twinQid: twinQidOf(s, q),
    surveyGid: s.gid,
    surveyId: s.id,
    variant: s.variant,
    closed: closedBy(s.closedAt, now),
    choices: ordered,
    choiceByLabel: new Map(ordered.map((c) => [c.label, c])),
    choiceById: new Map(ordered.map((c) => [c.id, c])),
  };
}

/** A survey of any status as staff see it: its questions with their text and position. */
export interface StaffSurvey {
  gid: string;
  /** The internal key: only ever shown to staff (export file names). */
  slug: string;
  name: string;
  /** Each person meets the questions in an order of their own (drawn on their device). */
  randomiseQuestions: boolean;
  questions: Array<{ position: number; text: string; catalog: CatalogQuestion }>;
}

interface ListedSnapshot {
  loadedAt: number;
  /** The first scheduled close after loadedAt (ms; Infinity for none): the snapshot ends then. */
  closesNext: number;
  surveys: SurveyWithContent[];
  byGid: Map<string, SurveyWithContent>;
  /** Questions of the listed surveys by qid, built on first use. */
  questions?: Map<string, CatalogQuestion>;
  /** Built answers of this snapshot, by page or gid and origin: the same object every time. */
  answers: Map<string, SurveyList | SurveyDetail>;
  /** Published respondents of each survey's first question, by gid, read with the content. */
  respondents: Map<string, number | null>;
}

/**
 * The published `respondents` of each question's results (decision 011: the stored noisy
 * snapshot, null while too few), by question id. The results module provides it.
 */
export type PublishedRespondents = (
  questions: Array<Pick<CatalogQuestion, 'id' | 'type' | 'choices'>>,
) => Promise<Map<number, number | null>>;

// Keys include the caller's origin; a cap keeps odd Host headers from growing the map.
const MAX_MEMOIZED_ANSWERS = 200;

function memoize<T extends SurveyList | SurveyDetail>(
  snapshot: ListedSnapshot,
  key: string,
  build: () => T,
): T {
  const known = snapshot.answers.get(key);
  if (known) return known as T;
  const built = build();
  if (snapshot.answers.size < MAX_MEMOIZED_ANSWERS) snapshot.answers.set(key, built);
  return built;
}

/**
 * Public survey reads: only published surveys whose release date has come are visible.
 * Survey content is read on every visit and changes rarely, so the listed surveys, and the
 * answers built from them, are kept in memory for `cacheSeconds` (one load at a time). A release,
 * an edit or the end of a "new" badge shows within that many seconds on every API process.
 */
export function createSurveysService(
  repo: SurveysRepository,
  {
    clock = () => new Date(),
    cacheSeconds = 5,
    visitorQuestions = VISITOR_FREE_QUESTIONS,
    respondentsOf,
  }: {
    clock?: () => Date;
    cacheSeconds?: number;
    visitorQuestions?: number;
    /** What the list says of how many people answered each survey (none: null for all). */
    respondentsOf?: PublishedRespondents;
  } = {},
) {
  /**
   * How many people answered each survey, as its first question's graph says it: the number
   * everyone starts with, published by the results' one mechanism (post-processing, so saying it
   * again costs no privacy). A failed read leaves the list without numbers, never without surveys.
   */
  async function respondentsBySurvey(
    surveys: SurveyWithContent[],
    now: Date,
  ): Promise<Map<string, number | null>> {
    const firsts = surveys.flatMap((s) =>
      s.questions.length ? [{ gid: s.gid, q: firstOf(s, now) }] : [],
    );
    if (!respondentsOf || !firsts.length) return new Map();
    const byQuestion = await respondentsOf(firsts.map((f) => f.q)).catch(
      () => new Map<number, number | null>(),
    );
    return new Map(firsts.map((f) => [f.gid, byQuestion.get(f.q.id) ?? null]));
  }

  let snapshot: ListedSnapshot | undefined;
  let loading: Promise<ListedSnapshot> | undefined;
  /** Moves on every invalidation: a load begun before one is not kept as the snapshot. */
  let generation = 0;

  async function listed(now: Date): Promise<ListedSnapshot> {
    const t = now.getTime();
    // A scheduled close ends the snapshot at once: answers stop on time, not up to cacheSeconds on.
    if (snapshot && t - snapshot.loadedAt < cacheSeconds * 1000 && t < snapshot.closesNext) {
      return snapshot;
    }
    if (!loading) {
      const started = generation;
      const load = repo
        .listListed(now)
        .then(async (surveys) => {
          const loaded: ListedSnapshot = {
            loadedAt: now.getTime(),
            closesNext: Math.min(
              ...surveys.flatMap((s) =>
                s.closedAt && s.closedAt.getTime() > now.getTime() ? [s.closedAt.getTime()] : [],
              ),
            ),
            surveys,
            byGid: new Map(surveys.map((s) => [s.gid, s])),
            answers: new Map(),
            respondents: await respondentsBySurvey(surveys, now),
          };
          if (started === generation) snapshot = loaded;
          return loaded;
        })
        .finally(() => {
          if (loading === load) loading = undefined;
        });
      loading = load;
    }
    return loading;
  }

  function toDetail(s: SurveyWithContent, now: Date, origin: string): SurveyDetail {
    return {
      ...toBase(s, now),
      author: s.author,
      intro_screen_image: s.introImage,
      intro_screen_text: s.introText,
      instructions: instructionsFor(askedCount(s)),
      outro_screen_text: s.outroText,
      questions: s.questions.map((q) => toQuestion(s, q)),
      shareable_link: shareableLink(origin, s.name, s.gid),
      visitor_questions: visitorQuestions,
      randomise_questions: s.randomiseQuestions,
    };
  }

  return {
    /** Forgets the snapshot: this process reads content afresh (after an edit by staff). */
    invalidate(): void {
      generation++;
      snapshot = undefined;
      loading = undefined;
    },

    async list(page: PageQuery, listUrl: string): Promise<SurveyList> {
      const snap = await listed(clock());
      const now = new Date(snap.loadedAt);
      return memoize(snap, `list ${page.page} ${page.page_size} ${listUrl}`, () => {
        const { surveys } = snap;
        const offset = (page.page - 1) * page.page_size;
        const results: SurveySummary[] = surveys.slice(offset, offset + page.page_size).map((s) => {
          const base = toBase(s, now);
          return {
            ...base,
            questions: s.questions.map((q) => ({
              ...toQuestion(s, q),
              gid: base.gid,
              name: base.name,
              status: base.status,
            })),
            respondents: snap.respondents.get(s.gid) ?? null,
          };
        });
        return { count: surveys.length, ...pageLinks(listUrl, page, surveys.length), results };
      });
    },

    async getByGid(gid: string, origin: string): Promise<SurveyDetail> {
      if (!isUuid(gid)) throw new AppError('NOT_FOUND');
      const snap = await listed(clock());
      const s = snap.byGid.get(gid.toLowerCase());
      if (!s) throw new AppError('NOT_FOUND');
      const now = new Date(snap.loadedAt);
      return memoize(snap, `detail ${s.gid} ${origin}`, () => toDetail(s, now, origin));
    },

    /** Any survey (draft, scheduled, closed) exactly as respondents will get it: for staff. */
    async preview(gid: string, origin: string): Promise<SurveyDetail> {
      const s = isUuid(gid) ? await repo.findAnyByGid(gid.toLowerCase()) : undefined;
      if (!s) throw new AppError('NOT_FOUND');
      return toDetail(s, clock(), origin);
    },

    /**
     * A listed survey's key, whether it is closed, its questions, and the qids its answers'
     * receipts are filed under (one per question a person is asked: an honesty-gap pair shares
     * its direct question's); undefined for any other gid.
     */
    async findListed(
      gid: string,
    ): Promise<
      | { id: number; gid: string; closed: boolean; qids: string[]; receiptQids: string[] }
      | undefined
    > {
      if (!isUuid(gid)) return undefined;
      const snap = await listed(clock());
      const s = snap.byGid.get(gid.toLowerCase());
      return (
        s && {
          id: s.id,
          gid: s.gid,
          closed: closedBy(s.closedAt, new Date(snap.loadedAt)),
          qids: s.questions.map((q) => q.qid),
          receiptQids: s.questions.filter((q) => q.twinId === null).map((q) => q.qid),
        }
      );
    },

    /** The listed surveys that take answers now (credentials are issued for these at login). */
    async openSurveys(): Promise<Array<{ id: number; gid: string }>> {
      const snap = await listed(clock());
      const now = new Date(snap.loadedAt);
      return snap.surveys
        .filter((s) => !closedBy(s.closedAt, now))
        .map((s) => ({ id: s.id, gid: s.gid }));
    },

    /**
     * A question of a listed survey (published, released) by qid, from the same snapshot as the
     * survey reads; undefined for anything else (unknown, malformed, draft, scheduled).
     */
    async findQuestion(qid: string): Promise<CatalogQuestion | undefined> {
      if (!isUuid(qid)) return undefined;
      const snap = await listed(clock());
      const now = new Date(snap.loadedAt);
      snap.questions ??= new Map(
        snap.surveys.flatMap((s) => toCatalog(s, now)).map((q) => [q.qid, q]),
      );
      return snap.questions.get(qid.toLowerCase());
    },

    /**
     * A survey by gid whatever its status, read fresh (not from the listing snapshot), with every
     * question in order: for staff. Undefined for an unknown or malformed gid.
     */
    async findAnySurvey(gid: string): Promise<StaffSurvey | undefined> {
      if (!isUuid(gid)) return undefined;
      const s = await repo.findAnyByGid(gid.toLowerCase());
      if (!s) return undefined;
      const catalog = toCatalog(s, clock());
      return {
        gid: s.gid,
        slug: s.slug,
        name: s.name,
        randomiseQuestions: s.randomiseQuestions,
        questions: s.questions.map((q, i) => ({
          position: q.position,
          text: q.text,
          catalog: catalog[i]!,
        })),
      };
    },
  };
}

export type SurveysService = ReturnType<typeof createSurveysService>;
