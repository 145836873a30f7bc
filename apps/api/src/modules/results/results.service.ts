import type {
  BreakdownDimension,
  ChoiceResult,
  QuestionResults,
  ResultGroup,
} from '@candor/contracts';
import { MIN_PUBLISHED_COUNT } from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import type { CatalogQuestion, SurveysService } from '../surveys/surveys.service.js';
import type { ResultsRepository, StoredSnapshot } from './results.repository.js';
import { type PublishedRow, publishOverall, publishResults } from './suppression.js';

const percentOf = (part: number | null, whole: number | null) =>
  part === null || whole === null ? null : whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;

// Groups of a breakdown listed even when empty, in this order: the categories are public.
const FIXED_GROUPS: Record<Exclude<BreakdownDimension, 'country'>, string[]> = {
  gender: ['female', 'male', 'non_binary', 'other', 'undisclosed'],
  age: ['under-18', '18-24', '25-34', '35-44', '45-54', '55-64', '65+'],
};

/** What a question's answers are counted as: its choices (closed), or written / blank (open). */
function outcomesOf(q: CatalogQuestion): Array<{ choiceId: number; isBlank: boolean }> {
  return q.type === 'Closed'
    ? q.choices.map((c) => ({ choiceId: c.id, isBlank: c.isBlank }))
    : [
        { choiceId: 0, isBlank: false },
        { choiceId: 0, isBlank: true },
      ];
}

/** The counts of one dimension, per bucket, as rows of the question's outcomes. */
function tableOf(q: CatalogQuestion, snapshot: StoredSnapshot, dimension: string) {
  const outcomes = outcomesOf(q);
  const index = new Map(outcomes.map((o, i) => [`${o.choiceId}:${o.isBlank}`, i]));
  const rows = new Map<string, number[]>();
  for (const [dim, bucket, choiceId, isBlank, n] of snapshot.counts) {
    if (dim !== dimension) continue;
    const i = index.get(`${choiceId}:${isBlank}`);
    // A choice removed since the snapshot: its answers are not shown.
    if (i === undefined) continue;
    const row = rows.get(bucket) ?? outcomes.map(() => 0);
    row[i]! += n;
    rows.set(bucket, row);
  }
  return rows;
}

/** Choice rows, respondents and blank of one published row of the question's outcomes. */
function describe(q: CatalogQuestion, row: PublishedRow) {
  const outcomes = outcomesOf(q);
  const blankAt = outcomes.findIndex((o) => o.isBlank);
  const choices: ChoiceResult[] =
    q.type === 'Closed'
      ? q.choices.map((c, i) => ({
          choice: c.label,
          count: row.counts[i] ?? null,
          percent: percentOf(row.counts[i] ?? null, row.total),
          is_blank: c.isBlank,
        }))
      : [];
  return {
    respondents: row.total,
    blank: blankAt >= 0 ? (row.counts[blankAt] ?? null) : 0,
    choices,
  };
}

/**
 * The groups of a breakdown and the overall row published with them. Countries with fewer than
 * MIN_PUBLISHED_COUNT people are merged into `other` first (a country with one person is not
 * named); genders and age bands are listed in a fixed order, empty ones too (as zeros: they
 * describe nobody, and hiding them would only force a real group to be hidden). The
 * suppression rules then run over the groups and the overall row together, so nothing hidden in
 * one can be worked out from the other.
 */
function breakdownOf(q: CatalogQuestion, snapshot: StoredSnapshot, dimension: BreakdownDimension) {
  const table = tableOf(q, snapshot, dimension);
  const zeros = () => new Array<number>(outcomesOf(q).length).fill(0);
  let groups: Array<{ key: string; counts: number[] }>;
  if (dimension === 'country') {
    const other = zeros();
    groups = [];
    for (const [key, counts] of [...table].sort(([a], [b]) => a.localeCompare(b))) {
      const total = counts.reduce((a, b) => a + b, 0);
      if (total >= MIN_PUBLISHED_COUNT) groups.push({ key, counts });
      else counts.forEach((n, i) => (other[i]! += n));
    }
    if (other.some((n) => n > 0)) groups.push({ key: 'other', counts: other });
  } else {
    const fixed = FIXED_GROUPS[dimension];
    // A value outside the fixed list (an older age band, say) is still a group of its own:
    // leaving it out would let it be worked out as the total minus the others.
    const keys = [...fixed, ...[...table.keys()].filter((k) => !fixed.includes(k)).sort()];
    groups = keys.map((key) => ({ key, counts: table.get(key) ?? zeros() }));
  }
  const filled = groups.filter((g) => g.counts.some((n) => n > 0));
  const published = publishResults(filled);
  const byKey = new Map(published.groups.map((g) => [g.key, g]));
  return {
    overall: published.overall,
    groups: groups.map((g): ResultGroup => {
      const row = byKey.get(g.key) ?? { total: 0, counts: g.counts, suppressed: false };
      return { key: g.key, suppressed: row.suppressed, ...describe(q, row) };
    }),
  };
}

/** The published results of `q` from its stored snapshot (suppression applied here). */
export function toResults(
  q: CatalogQuestion,
  stored: { snapshot: StoredSnapshot; publishedAt: Date } | undefined,
  dimension: BreakdownDimension | undefined,
): QuestionResults {
  const snapshot = stored?.snapshot ?? { counts: [], words: [], samples: [] };
  const breakdown = dimension ? breakdownOf(q, snapshot, dimension) : null;
  const overall =
    breakdown?.overall ??
    publishOverall(tableOf(q, snapshot, 'all').get('') ?? outcomesOf(q).map(() => 0));
  // Words and sample answers only once 10 or more people count: before, they would describe
  // the few who wrote.
  const enough = overall.total !== null;
  return {
    qid: q.qid,
    type: q.type,
    ...describe(q, overall),
    breakdown: breakdown && dimension ? { dimension, groups: breakdown.groups } : null,
    words: enough ? snapshot.words.map(([word, count]) => ({ word, count })) : [],
    samples: enough ? snapshot.samples : [],
    snapshot_at: stored ? stored.publishedAt.toISOString() : null,
  };
}

/** Folds every pending answer and publishes the snapshots that are due; returns those. */
export async function foldAndPublish(repo: ResultsRepository, now: Date): Promise<number[]> {
  await repo.fold();
  return repo.publish(now);
}

interface Cached {
  stored: { snapshot: StoredSnapshot; publishedAt: Date } | undefined;
  readAt: number;
  /** The published results of this snapshot per breakdown ('' for none), computed once. */
  shaped: Map<string, QuestionResults>;
}

export interface ResultsServiceDeps {
  surveys: Pick<SurveysService, 'findQuestion'>;
  /** Whether the member answered the question: results come only after answering. */
  hasAnswered: (uuid: string, questionId: number) => Promise<boolean>;
  /**
   * How often (seconds) answers are folded and snapshots published, and how long a process
   * serves a snapshot from memory. 0: no background work and no memory (tests call tick()).
   */
  refreshSeconds: number;
  clock?: () => Date;
  onError?: (err: unknown) => void;
}

/**
 * Published results. Answers are folded into per-question counters in the background (reading
 * results never touches the answers), a snapshot of the counters is published when 10 changes
 * accumulated or 5 minutes passed, and each process keeps the snapshots in memory for
 * `refreshSeconds`. Suppression is applied to the snapshot on the way out.
 */
export function createResultsService(repo: ResultsRepository, deps: ResultsServiceDeps) {
  const clock = deps.clock ?? (() => new Date());
  const cache = new Map<number, Cached>();
  const reading = new Map<number, Promise<Cached>>();
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;

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
      read(questionId).catch((err) => deps.onError?.(err));
    }
    return cached;
  }

  /** The published results of `q` from its snapshot, shaped (and suppressed) once per snapshot. */
  async function published(q: CatalogQuestion, dimension?: BreakdownDimension) {
    const entry = await entryOf(q.id);
    const key = dimension ?? '';
    let shaped = entry.shaped.get(key);
    if (!shaped) {
      shaped = toResults(q, entry.stored, dimension);
      entry.shaped.set(key, shaped);
    }
    return shaped;
  }

  async function tick(): Promise<void> {
    for (const questionId of await foldAndPublish(repo, clock())) cache.delete(questionId);
  }

  return {
    /** The question's published results (optionally with one breakdown). */
    forQuestion: published,

    /**
     * The results of a question of a listed survey, for a member who answered it, or for
     * anyone once its survey is closed. NOT_FOUND for anything else; ANSWER_FIRST before.
     */
    async forQid(qid: string, uuid: string | null, dimension?: BreakdownDimension) {
      const q = await deps.surveys.findQuestion(qid);
      if (!q) throw new AppError('NOT_FOUND');
      if (!q.closed && !(uuid && (await deps.hasAnswered(uuid, q.id)))) {
        throw new AppError(uuid ? 'ANSWER_FIRST' : 'UNAUTHENTICATED');
      }
      return published(q, dimension);
    },

    /** Folds and publishes now (the background loop does this every refreshSeconds). */
    tick,

    /** Runs tick() every refreshSeconds until stop(); errors are reported, never thrown. */
    start() {
      if (deps.refreshSeconds <= 0 || timer) return;
      timer = setInterval(() => {
        if (ticking) return;
        ticking = tick()
          .catch((err) => deps.onError?.(err))
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
