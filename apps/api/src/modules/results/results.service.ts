import {
  gapChoices,
  rrEstimateRow,
  type BreakdownDimension,
  type BreakdownUnlock,
  type BreakdownUnlocks,
  type ChoiceResult,
  type QuestionResults,
  type ResultGroup,
  type SurveyResults,
} from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import {
  type Profile,
  legacyProfile,
  openJson,
  openProfile,
  sealJson,
} from '../../lib/profile-seal.js';
import type { CatalogQuestion, SurveysService } from '../surveys/surveys.service.js';
import { discreteGaussianOf, discreteLaplaceOf } from './noise.js';
import {
  BUCKETS,
  PUBLISHED_AGE_BANDS,
  DIMENSIONS,
  MIN_ROW_TOTAL,
  approximateTotal,
  type NoisyRow,
  type Noise,
  type OutcomeKey,
  PARAMETERS,
  type Pending,
  type PublishedRow,
  type ReleaseCause,
  type Snapshot,
  bucketsOf,
  cellKey,
  emptyPending,
  mergePending,
  newThresholdNoise,
  periodIsOver,
  publishRow,
  release,
  releasable,
  releasesOf,
  ratingsOf,
  rowOf,
  thresholdOf,
  timingCell,
  timingsOf,
} from './privacy.js';
import {
  type CountedRow,
  type Counting,
  FOLD_BATCH,
  type ReleaseInput,
  type ResultsRepository,
  type StoredPending,
} from './results.repository.js';

/**
 * Words too common to say anything about an answer. Words are split on anything that is not a
 * letter or digit, so "don't" gives "don".
 */
const STOPWORDS = new Set(
  (
    'the and for are but not you your yours all any can had her was one our out has him his how ' +
    'its who did get may way use she they them their there then than that this these those what ' +
    'when where which while with would could should will just about into over from have been ' +
    'being were does doing don isn aren wasn didn doesn won very too also some such only own same ' +
    'more most other much many each few both here why because until again further once off nor ' +
    'after before above below between through during under itself myself yourself ourselves ' +
    'themselves himself herself what whom really think know like thing things'
  ).split(' '),
);

/** The words of an answer that count: its first distinct ones, at most wordsPerAnswer. */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 3 || word.length > 30 || STOPWORDS.has(word) || out.includes(word)) continue;
    out.push(word);
    if (out.length === PARAMETERS.wordsPerAnswer) break;
  }
  return out;
}

/** A pending increment as stored (StoredPending): its events in clear, the rest sealed. */
export function sealPending(key: Buffer, pending: Pending): StoredPending {
  const { events, ...rest } = pending;
  return { events, sealed: sealJson(key, rest) };
}

/** A stored pending increment opened, sealed or still in the plain form written before. */
export function openPending(key: Buffer, stored: StoredPending | null): Pending | null {
  if (!stored || !('sealed' in stored)) return stored;
  return { ...(openJson(key, stored.sealed) as Omit<Pending, 'events'>), events: stored.events };
}

/** What a question's answers are counted as: its choices (closed), or written / blank (open). */
/** The outcomes of a question: its choices (closed), else written or left blank. */
function outcomesOf(type: CatalogQuestion['type'], choiceIds: number[]): OutcomeKey[] {
  return type === 'Closed' ? choiceIds.map((id) => `c${id}`) : ['w', 'b'];
}

const outcomesOfQuestion = (q: Pick<CatalogQuestion, 'type' | 'choices'>) =>
  outcomesOf(
    q.type,
    q.choices.map((c) => c.id),
  );

const outcomeOfAnswer = (r: Pick<CountedRow, 'choiceId' | 'isBlank'>): OutcomeKey =>
  r.choiceId !== null ? `c${r.choiceId}` : r.isBlank ? 'b' : 'w';

/**
 * A randomized-response question's choices (decision 028): each answer's count, share and
 * margin become the estimate of the true choices worked back from what devices sent
 * (`rrEstimateRow`), the margin the sent one's over keep - other (never narrowed where the point
 * is kept within 0..answered), and what was sent is
 * kept beside it. Leaving blank is never randomized: its row stays as sent. Post-processing of
 * the published row, so it costs no privacy.
 */
function estimated(
  shares: Array<Omit<ChoiceResult, 'sent'>>,
  row: PublishedRow,
  weight: number,
): ChoiceResult[] {
  const estimates = rrEstimateRow(shares, weight);
  return shares.map((c, i) => {
    const sent = { count: c.count, percent: c.percent, margin: c.margin };
    const e = estimates[i];
    if (c.is_blank) return { ...c, sent };
    if (!e || row.total === null) return { ...c, count: null, percent: null, margin: null, sent };
    return {
      ...c,
      count: Math.round((e.percent / 100) * row.total),
      percent: e.percent,
      // Unclipped: an estimate kept at 0 still says how unsure it is ("under about N%").
      margin: e.margin,
      sent,
    };
  });
}

/** Choice rows, respondents and blank of one published row of the question's outcomes. */
function describe(q: CatalogQuestion, row: PublishedRow) {
  const outcomes = outcomesOfQuestion(q);
  const blankAt =
    q.type === 'Closed' ? q.choices.findIndex((c) => c.isBlank) : outcomes.indexOf('b');
  const shares =
    q.type === 'Closed'
      ? q.choices.map((c, i) => ({
          choice: c.label,
          count: row.counts[i] ?? null,
          percent: row.percents[i] ?? null,
          margin: row.margins[i] ?? null,
          is_blank: c.isBlank,
        }))
      : [];
  const choices: ChoiceResult[] =
    q.rrWeight === null
      ? shares.map((c) => ({ ...c, sent: null }))
      : estimated(shares, row, q.rrWeight);
  // Closed: its choices' margins (a randomized question's are its estimates'); open: its row's.
  const margins = (q.type === 'Closed' ? choices.map((c) => c.margin) : row.margins).filter(
    (m): m is number => m !== null,
  );
  return {
    respondents: row.total,
    blank: blankAt >= 0 ? (row.counts[blankAt] ?? null) : 0,
    // The row's own margin: a group's bars say it, not the overall row's (far narrower).
    margin: margins.length > 0 ? Math.max(...margins) : null,
    choices,
  };
}

/** How many standard deviations of its noise a group's total must reach to be shown. */
const GROUP_SDS = 2;
/** Countries are many: one shown by chance among ~250 empty ones must be unlikely. */
const COUNTRY_SDS = 4;

const sdOfTotal = (row: NoisyRow) => Math.sqrt(row.variances.reduce((a, b) => a + b, 0));

/** A group's row as shown: nothing unless its noisy total clearly exceeds its noise. */
function publishGroup(row: NoisyRow | undefined, sds: number): PublishedRow {
  const total = row ? row.counts.reduce((a, b) => a + b, 0) : 0;
  if (!row || total < sds * sdOfTotal(row)) return publishRow(undefined);
  return publishRow(row);
}

/**
 * When each breakdown can show something: the least a group's noisy total must reach to be shown
 * (publishGroup's rule: MIN_ROW_TOTAL and `sds` standard deviations of the group's noise), and
 * the published total from which the web app offers the breakdown: two groups' worth (a named
 * country and the rest, for countries), since one group alone compares nothing. The noise's
 * spread depends only on the question's outcomes and how many updates drew noise for them (at
 * least the one to come), so neither number depends on answers: publishing them is free.
 */
export function breakdownUnlocks(
  q: Pick<CatalogQuestion, 'type' | 'choices'>,
  snapshot: Snapshot | undefined,
): BreakdownUnlocks {
  const outcomes = outcomesOfQuestion(q);
  const minimum = (dimension: BreakdownDimension, sds: number) => {
    const variances = outcomes.map(
      (o) => Math.max(1, snapshot?.draws[o] ?? 0) * PARAMETERS.sigma2[dimension],
    );
    return Math.ceil(Math.max(MIN_ROW_TOTAL, sds * sdOfTotal({ counts: [], variances })));
  };
  const unlock = (dimension: BreakdownDimension): BreakdownUnlock => {
    const group = minimum(dimension, GROUP_SDS);
    const first = dimension === 'country' ? minimum(dimension, COUNTRY_SDS) : group;
    return { group_minimum: first, unlocks_at: first + group };
  };
  return { gender: unlock('gender'), age: unlock('age'), country: unlock('country') };
}

/**
 * A breakdown: genders and age bands always listed in their fixed order; countries listed when
 * their noisy total is clearly above noise, the rest together as `other` (the overall row minus
 * the listed countries: post-processing of published counts).
 */
function breakdownOf(
  q: CatalogQuestion,
  snapshot: Snapshot | undefined,
  dimension: BreakdownDimension,
) {
  const outcomes = outcomesOfQuestion(q);
  const group = (key: string, row: NoisyRow | undefined, sds: number): ResultGroup => {
    const published = publishGroup(row, sds);
    return {
      key,
      suppressed: published.total === null || published.dominated,
      ...describe(q, published),
    };
  };
  if (dimension !== 'country') {
    const keys = dimension === 'age' ? PUBLISHED_AGE_BANDS : BUCKETS[dimension];
    return keys.map((key) => group(key, rowOf(snapshot, dimension, key, outcomes), GROUP_SDS));
  }
  const overall = rowOf(snapshot, 'all', '', outcomes);
  const shown: Array<{ key: string; row: NoisyRow }> = [];
  for (const key of BUCKETS.country) {
    const row = rowOf(snapshot, 'country', key, outcomes);
    if (key === 'other' || !row) continue;
    const total = row.counts.reduce((a, b) => a + b, 0);
    if (total >= COUNTRY_SDS * sdOfTotal(row)) shown.push({ key, row });
  }
  const groups = shown.map(({ key, row }) => group(key, row, 0));
  if (overall) {
    const rest: NoisyRow = {
      counts: overall.counts.map((n, i) => shown.reduce((m, s) => m - s.row.counts[i]!, n)),
      variances: overall.variances.map((v, i) =>
        shown.reduce((m, s) => m + s.row.variances[i]!, v),
      ),
    };
    groups.push(group('other', rest, GROUP_SDS));
  }
  return groups;
}

/** The published results of `q` from its stored snapshot (all of it post-processing). */
export function toResults(
  q: CatalogQuestion,
  stored: { snapshot: Snapshot; publishedAt: Date } | undefined,
  dimension: BreakdownDimension | undefined,
): QuestionResults {
  const snapshot = stored?.snapshot;
  const overall = publishRow(rowOf(snapshot, 'all', '', outcomesOfQuestion(q)));
  // Words and sample answers only once the row is shown: before, they would describe the few.
  const enough = overall.total !== null;
  const words = Object.entries(snapshot?.words ?? {})
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, 12);
  return {
    qid: q.qid,
    type: q.type,
    rr_weight: q.rrWeight,
    // Filled in by the service from the twin's results (decision 029).
    honesty_gap: null,
    ...describe(q, overall),
    dominated: overall.dominated,
    breakdown: dimension ? { dimension, groups: breakdownOf(q, snapshot, dimension) } : null,
    breakdown_unlocks: breakdownUnlocks(q, snapshot),
    words: enough ? words.map(([word, count]) => ({ word, count: Math.round(count) })) : [],
    samples: enough ? (snapshot?.samples ?? []) : [],
    updates: releasesOf(snapshot),
    next_update_after: thresholdOf(snapshot?.periods ?? 0),
    snapshot_at: stored ? stored.publishedAt.toISOString() : null,
  };
}

/**
 * The published `respondents` of each question (its results' overall row, as `toResults` says
 * it: null while under the row minimum), from the stored snapshots in one read. Post-processing
 * of what is already published to everyone, so saying it elsewhere (the survey list) costs no
 * privacy and tells nothing about who answered.
 */
export function publishedRespondents(repo: Pick<ResultsRepository, 'readSnapshots'>) {
  return async (
    questions: Array<Pick<CatalogQuestion, 'id' | 'type' | 'choices'>>,
  ): Promise<Map<number, number | null>> => {
    const snapshots = await repo.readSnapshots(questions.map((q) => q.id));
    return new Map(
      questions.map((q) => [
        q.id,
        publishRow(rowOf(snapshots.get(q.id), 'all', '', outcomesOfQuestion(q))).total,
      ]),
    );
  };
}

interface Cached {
  stored: { snapshot: Snapshot; publishedAt: Date } | undefined;
  readAt: number;
  /** The published results of this snapshot per breakdown ('' for none), computed once. */
  shaped: Map<string, QuestionResults>;
}

export interface ResultsServiceDeps {
  surveys: Pick<SurveysService, 'findListed' | 'findQuestion'>;
  /** deriveProfileKey(secrets): opens respondents' sealed breakdown fields. */
  profileKey: Buffer;
  /**
   * How often (seconds) answers are folded and periods tested, and how long a process serves
   * a snapshot from memory. 0: no background work and no memory (tests call tick()).
   */
  refreshSeconds: number;
  /** The mechanism's noise: the exact samplers over crypto randomness unless a test says so. */
  noise?: Noise;
  clock?: () => Date;
  onError?: (err: unknown) => void;
}

/** The production noise: exact samplers over node:crypto's randomness. */
export const cryptoNoise: Noise = {
  gaussian: (sigma2) => discreteGaussianOf(sigma2),
  laplace: (scale) => discreteLaplaceOf(scale),
};

/**
 * Questions released in one transaction by a tick: one lock, one statement and one commit for
 * the lot, where each used four round trips and a commit; few enough that a fold waiting on
 * their locks waits for a few tens of milliseconds (bench/publish-cycle.ts).
 */
const RELEASE_BATCH = 50;

/** Profiles opened, per process (respondent id -> profile); the oldest leaves when full. */
const PROFILE_CACHE = 100_000;

/**
 * Published results under differential privacy (privacy.ts). In the background, queued
 * answers are folded into their question's open period and each period is tested by the
 * sparse vector trigger; a period that ends publishes a noisy snapshot, which every reader is
 * then served as stored (each process keeps it in memory for `refreshSeconds`).
 */
export function createResultsService(repo: ResultsRepository, deps: ResultsServiceDeps) {
  const clock = deps.clock ?? (() => new Date());
  const noise = deps.noise ?? cryptoNoise;
  const cache = new Map<number, Cached>();
  const reading = new Map<number, Promise<Cached>>();
  const profiles = new Map<number, Profile>();
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;

  function profileOf(row: CountedRow): Profile {
    let profile = profiles.get(row.respondentId);
    if (!profile) {
      profile = legacyProfile(row.profile) ?? openProfile(deps.profileKey, row.profile);
      if (profiles.size >= PROFILE_CACHE) profiles.delete(profiles.keys().next().value!);
      profiles.set(row.respondentId, profile);
    }
    return profile;
  }

  const counting: Counting = {
    toPending(rows, sign) {
      const out = new Map<number, Pending>();
      for (const row of rows) {
        let p = out.get(row.questionId);
        if (!p) out.set(row.questionId, (p = emptyPending()));
        const bump = (cells: Record<string, number>, key: string) => {
          cells[key] = (cells[key] ?? 0) + sign;
        };
        if (row.kind === 'answer') {
          const outcome = outcomeOfAnswer(row);
          const buckets = bucketsOf(profileOf(row));
          for (const d of DIMENSIONS) bump(p.cells, cellKey(d, buckets[d], outcome));
          for (const word of row.text ? wordsOf(row.text) : []) bump(p.words, word);
          // The trigger counts entering answers only (monotone, one per person).
          if (sign === 1) p.events += 1;
        } else if (row.kind === 'rating' && row.score !== null) {
          p.ratings[row.score] = (p.ratings[row.score] ?? 0) + sign;
        } else if (row.kind === 'timing' && row.durationMs !== null) {
          const cell = timingCell(row.durationMs);
          p.timings[cell] = (p.timings[cell] ?? 0) + sign;
        }
      }
      return out;
    },
    merge: (stored, change) =>
      sealPending(
        deps.profileKey,
        mergePending(openPending(deps.profileKey, stored) ?? emptyPending(), change),
      ),
    thresholdNoise: () => newThresholdNoise(noise),
  };

  function read(questionId: number): Promise<Cached> {
    let pending = reading.get(questionId);
    if (!pending) {
      pending = repo
        .readSnapshot(questionId)
        .then((stored) => {
          const entry: Cached = { stored, readAt: clock().getTime(), shaped: new Map() };
          if (deps.refreshSeconds > 0) cache.set(questionId, entry);
          return entry;
        })
        .finally(() => reading.delete(questionId));
      reading.set(questionId, pending);
    }
    return pending;
  }

  async function entryOf(questionId: number): Promise<Cached> {
    const cached = cache.get(questionId);
    if (!cached) return read(questionId);
    if (clock().getTime() - cached.readAt >= deps.refreshSeconds * 1000) {
      // Stale: served while one read replaces it (an answer's reply never waits for it).
      read(questionId).catch((err: unknown) => deps.onError?.(err));
    }
    return cached;
  }

  /** The published results of `q` from its snapshot, shaped once per snapshot. */
  async function shapedOf(q: CatalogQuestion, dimension?: BreakdownDimension) {
    const entry = await entryOf(q.id);
    const key = dimension ?? '';
    let shaped = entry.shaped.get(key);
    if (!shaped) {
      shaped = toResults(q, entry.stored, dimension);
      entry.shaped.set(key, shaped);
    }
    return shaped;
  }

  /**
   * The published results of `q`, with the honesty gap when it is one of a pair (decision 029):
   * worked out from the two questions' published overall rows on each read (each is served
   * from its own snapshot, so either may update first), which costs no privacy.
   */
  async function published(
    q: CatalogQuestion,
    dimension?: BreakdownDimension,
  ): Promise<QuestionResults> {
    const own = await shapedOf(q, dimension);
    const twin = q.twinQid === null ? undefined : await deps.surveys.findQuestion(q.twinQid);
    if (!twin) return own;
    const other = await shapedOf(twin);
    const [direct, randomized] = q.rrWeight !== null ? [other, own] : [own, other];
    return {
      ...own,
      honesty_gap: {
        direct_qid: direct.qid,
        randomized_qid: randomized.qid,
        direct_respondents: direct.respondents,
        randomized_respondents: randomized.respondents,
        choices: gapChoices(direct.choices, randomized.choices),
      },
    };
  }

  /**
   * Ends the open period of a question now: its snapshot is published. Only the trigger's own
   * release doubles the next threshold and draws a new threshold noise; any other (a close, an
   * erased sample's writer) keeps both, so it changes nothing about when the trigger fires next
   * but that the events it published no longer count towards it (decision 021).
   */
  async function releaseNow(
    questionId: number,
    cause: ReleaseCause = 'forced',
    closing = false,
  ): Promise<boolean> {
    const done = await releaseAll(new Map([[questionId, { cause, closing }]]));
    return done.length > 0;
  }

  /**
   * Ends the open periods of the questions given, each for its cause, in one transaction. A
   * question whose release cannot be built (a damaged stored period) is reported and left for
   * the next tick; it never holds back the others of its batch.
   */
  async function releaseAll(
    causes: Map<number, { cause: ReleaseCause; closing: boolean }>,
  ): Promise<number[]> {
    const done = await repo.release([...causes.keys()], clock(), (input) => {
      try {
        return releaseOne(input, causes.get(input.questionId)!);
      } catch (err) {
        deps.onError?.(err);
        return undefined;
      }
    });
    for (const id of done) cache.delete(id);
    return done;
  }

  function releaseOne(
    input: ReleaseInput,
    { cause, closing }: { cause: ReleaseCause; closing: boolean },
  ) {
    const { released, kept } = releasable(
      openPending(deps.profileKey, input.pending) ?? emptyPending(),
      input.snapshot?.periods ?? 0,
      cause,
    );
    const snapshot = release(
      input.snapshot ?? undefined,
      released,
      outcomesOf(input.type, input.choiceIds),
      input.samples,
      noise,
      cause,
      closing,
    );
    // Drawn whatever the cause, and dropped unless the trigger ended the period: every release
    // draws the same noise as before, so the seeded attack tests keep their calibrated draws
    // (as with the `under-18` cell, privacy.ts); it changes nothing for privacy.
    const drawn = newThresholdNoise(noise);
    return {
      snapshot,
      thresholdNoise: cause === 'trigger' ? drawn : input.thresholdNoise,
      pending: kept && sealPending(deps.profileKey, kept),
    };
  }

  /**
   * Folds the queue, then tests every question's open period (each test draws fresh noise,
   * whether or not anything is pending: skipping quiet questions would itself depend on the
   * data) and releases those that ended, and once in its life each question of a survey just
   * closed (decision 021: a reopen releases nothing, nor does a second close), RELEASE_BATCH
   * questions to a transaction (bench/publish-cycle.ts). Returns the questions released.
   */
  async function tick(): Promise<number[]> {
    while ((await repo.fold(counting)) >= FOLD_BATCH) {
      // A full batch may leave more behind; a short one emptied the queue as it was. What
      // arrived since waits for the next tick: chasing it kept a loaded server folding a few
      // hundred rows at a time, a transaction each, and never reaching the release below.
    }
    await repo.ensureTallies(() => counting.thresholdNoise());
    const ended = new Map<number, { cause: ReleaseCause; closing: boolean }>();
    for (const t of await repo.triggers(clock())) {
      // Tested even when closing: the noise drawn must not depend on which questions close.
      const over = periodIsOver(t.events, t.periods, t.thresholdNoise, noise);
      if (over || t.closing) {
        ended.set(t.questionId, { cause: over ? 'trigger' : 'close', closing: t.closing });
      }
    }
    const released: number[] = [];
    const batch = [...ended];
    for (let i = 0; i < batch.length; i += RELEASE_BATCH) {
      released.push(...(await releaseAll(new Map(batch.slice(i, i + RELEASE_BATCH)))));
    }
    return released;
  }

  return {
    /** The question's published results (optionally with one breakdown). */
    forQuestion: published,

    /**
     * About how many people answered each question, as published (staff see this, never the
     * true count: which questions and choices have answers is itself answer data).
     */
    async approximateTotals(questionIds: number[]): Promise<Map<number, number>> {
      const snapshots = await repo.readSnapshots(questionIds);
      return new Map(questionIds.map((id) => [id, approximateTotal(snapshots.get(id))]));
    },

    /**
     * About how many people a question's published overall row holds, and the variance of that
     * sum's noise (from public parameters and the number of draws): null while under the row
     * minimum, as its graph says. Post-processing of the stored snapshot.
     */
    async reachOf(q: CatalogQuestion): Promise<{ total: number; variance: number } | null> {
      const { stored } = await entryOf(q.id);
      const row = rowOf(stored?.snapshot, 'all', '', outcomesOfQuestion(q));
      if (!row) return null;
      const total = row.counts.reduce((a, b) => a + b, 0);
      if (total < MIN_ROW_TOTAL) return null;
      return { total, variance: row.variances.reduce((a, b) => a + b, 0) };
    },

    /** Answer times and interest ratings of a question, from its published snapshot. */
    async figuresOf(q: CatalogQuestion) {
      const { stored } = await entryOf(q.id);
      return { ratings: ratingsOf(stored?.snapshot), timings: timingsOf(stored?.snapshot) };
    },

    /**
     * The published results of a question of a listed survey: the stored noisy snapshot every
     * reader gets (decision 011), safe to publish to anyone. Nobody's session changes them: the
     * server cannot tell whether a member answered (answers carry no account, decision 020), so
     * the "after answering" rule is the browser's, for members as for visitors. NOT_FOUND for a
     * question of no listed survey.
     */
    async forQid(qid: string, dimension?: BreakdownDimension) {
      const q = await deps.surveys.findQuestion(qid);
      if (!q) throw new AppError('NOT_FOUND');
      return published(q, dimension);
    },

    /**
     * The published results of every question of a listed survey, in order: what each
     * question's own read gives anyone (no session: which graphs an account reads would say
     * which questions it answered), in one read. NOT_FOUND for any other gid.
     */
    async forSurvey(gid: string): Promise<SurveyResults> {
      const s = await deps.surveys.findListed(gid);
      if (!s) throw new AppError('NOT_FOUND');
      const questions = await Promise.all(
        s.qids.map(async (qid) => {
          const q = await deps.surveys.findQuestion(qid);
          if (!q) throw new AppError('NOT_FOUND');
          return published(q);
        }),
      );
      return { gid: s.gid, questions };
    },

    /** A respondent leaves the results for good: their counted answers come out. */
    stopCounting: (respondentId: number) => repo.stopCounting(respondentId, counting),

    /**
     * Ends a question's period now (sample data loaded, or a withdrawn sample answer must go):
     * its snapshot is published at once. Costs accuracy (one more period's noise),
     * not privacy: each person still enters and leaves once. It does not raise the threshold.
     */
    releaseNow: (questionId: number) => releaseNow(questionId, 'forced'),

    /** Folds and tests the periods now (the background loop does this every refreshSeconds). */
    tick,

    /** Folds one batch of the queue now (tests race several). */
    fold: () => repo.fold(counting),

    /** Runs tick() every refreshSeconds until stop(); errors are reported, never thrown. */
    start() {
      if (deps.refreshSeconds <= 0 || timer) return;
      timer = setInterval(() => {
        if (ticking) return;
        ticking = tick()
          .then(() => undefined)
          .catch((err: unknown) => deps.onError?.(err))
          .finally(() => (ticking = undefined));
      }, deps.refreshSeconds * 1000);
      timer.unref();
    },

    async stop() {
      clearInterval(timer);
      timer = undefined;
      await ticking;
    },
  };
}

export type ResultsService = ReturnType<typeof createResultsService>;
