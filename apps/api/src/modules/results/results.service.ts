import type { ChoiceResult, QuestionResults } from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import type { CatalogQuestion, SurveysService } from '../surveys/surveys.service.js';
import type { CountRow, ResultsRepository } from './results.repository.js';

const percentOf = (part: number, whole: number) =>
  whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;

/**
 * Results from the folded counts: `percent` of a choice is its share of the people who did not
 * leave the question blank; the leave-blank choice's is its share of everyone counted.
 */
export function toResults(q: CatalogQuestion, rows: CountRow[], at: Date): QuestionResults {
  let respondents = 0;
  let blank = 0;
  const byChoice = new Map<number, number>();
  for (const row of rows) {
    respondents += row.n;
    if (row.isBlank) blank += row.n;
    byChoice.set(row.choiceId, (byChoice.get(row.choiceId) ?? 0) + row.n);
  }
  const answered = respondents - blank;
  const choices: ChoiceResult[] =
    q.type === 'Closed'
      ? q.choices.map((c) => {
          const count = byChoice.get(c.id) ?? 0;
          return {
            choice: c.label,
            count,
            percent: c.isBlank ? percentOf(count, respondents) : percentOf(count, answered),
            is_blank: c.isBlank,
          };
        })
      : [];
  return { qid: q.qid, type: q.type, respondents, blank, choices, snapshot_at: at.toISOString() };
}

interface Cached {
  results: QuestionResults;
  at: number;
}

export interface ResultsServiceDeps {
  surveys: Pick<SurveysService, 'findQuestion'>;
  /** Results older than this are folded and read again (RESULTS_REFRESH_SECONDS). */
  refreshSeconds: number;
  clock?: () => Date;
  onRefreshError?: (err: unknown) => void;
}

/**
 * A question's results, from answer_counts only: reading them costs the same with ten answers
 * or ten million. Each process keeps every question's results in memory and refreshes them
 * (fold, then read) when they are older than `refreshSeconds`: one refresh at a time per
 * question, and while it runs the others get the results it replaces.
 */
export function createResultsService(repo: ResultsRepository, deps: ResultsServiceDeps) {
  const clock = deps.clock ?? (() => new Date());
  const cache = new Map<number, Cached>();
  const refreshing = new Map<number, Promise<QuestionResults>>();

  async function refresh(q: CatalogQuestion): Promise<QuestionResults> {
    await repo.fold(q.id);
    const now = clock();
    const results = toResults(q, await repo.readAll(q.id), now);
    cache.set(q.id, { results, at: now.getTime() });
    return results;
  }

  async function forQuestion(q: CatalogQuestion): Promise<QuestionResults> {
    const cached = cache.get(q.id);
    if (cached && clock().getTime() - cached.at < deps.refreshSeconds * 1000) {
      return cached.results;
    }
    const running = refreshing.get(q.id);
    if (running) return cached ? cached.results : running;
    const next = refresh(q).finally(() => refreshing.delete(q.id));
    refreshing.set(q.id, next);
    if (!cached) return next;
    try {
      return await next;
    } catch (err) {
      // A failed refresh (a deadlock, the database away) serves the last results instead.
      deps.onRefreshError?.(err);
      return cached.results;
    }
  }

  return {
    /** The question's current results (a snapshot at most `refreshSeconds` old). */
    forQuestion,

    /** The results of a question of a listed survey, by qid; NOT_FOUND for anything else. */
    async forQid(qid: string): Promise<QuestionResults> {
      const q = await deps.surveys.findQuestion(qid);
      if (!q) throw new AppError('NOT_FOUND');
      return forQuestion(q);
    },
  };
}

export type ResultsService = ReturnType<typeof createResultsService>;
