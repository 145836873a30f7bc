import type {
  AnswerRequest,
  BreakdownDimension,
  AnswerResponse,
  AttemptedQuestionList,
  QuestionResults,
  RatingResponse,
  TimingId,
} from '@candor/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { BreakdownQuery } from '../../../components/results/question-graph';
import { apiPost, apiRequest } from '../../../lib/api-client';

const q = (qid: string) => `/v1/questions/${encodeURIComponent(qid)}`;

/** Sends one answer; the key makes a retry of the same attempt count once. */
export function postAnswer(qid: string, body: AnswerRequest, key: string) {
  return apiPost<AnswerResponse>(`${q(qid)}/answer/`, body, {
    headers: { 'Idempotency-Key': key },
  });
}

export function postRating(qid: string, score: number) {
  return apiPost<RatingResponse>(`${q(qid)}/rating/`, { score });
}

export const answeringQueries = {
  all: () => ['answering'] as const,
  attempted: () =>
    queryOptions({
      queryKey: [...answeringQueries.all(), 'attempted'] as const,
      queryFn: async ({ signal }) => {
        // Members rarely answer more than a few hundred questions; read them all.
        const all: AttemptedQuestionList['results'] = [];
        for (let page = 1; page <= 50; page++) {
          const list = await apiRequest<AttemptedQuestionList>(
            `/v1/questions/my-attempted-questions/?page=${page}&page_size=100`,
            { signal },
          );
          all.push(...list.results);
          if (!list.next) break;
        }
        return all;
      },
      staleTime: 30_000,
    }),
  /** Published results of one question, whole or broken down by one dimension. */
  results: (qid: string, breakdown?: BreakdownDimension) =>
    queryOptions({
      queryKey: [...answeringQueries.all(), 'results', qid, breakdown ?? 'all'] as const,
      queryFn: ({ signal }) => fetchResults(qid, breakdown, signal),
      staleTime: 10_000,
    }),
};

function fetchResults(qid: string, breakdown: BreakdownDimension | undefined, signal: AbortSignal) {
  return apiRequest<QuestionResults>(
    `${q(qid)}/results/${breakdown ? `?breakdown=${breakdown}` : ''}`,
    { signal },
  );
}

/** The graph's breakdowns for members: the public results, cached with the whole results. */
export const memberBreakdown =
  (qid: string): BreakdownQuery =>
  (dimension) => ({
    queryKey: answeringQueries.results(qid, dimension).queryKey,
    queryFn: ({ signal }) => fetchResults(qid, dimension, signal),
    staleTime: 10_000,
  });

type TimingKind = 'answer' | 'graph';

/** Starts an answer or graph timer; like the spec's calls it never fails, it returns null. */
export async function startTiming(kind: TimingKind, qid: string): Promise<string | null> {
  try {
    const { id } = await apiPost<TimingId>(`/v1/questions/${kind}-time-start/`, { qid });
    return id;
  } catch {
    return null;
  }
}

/** Ends a timer started by `startTiming`; errors are swallowed. */
export async function endTiming(kind: TimingKind, id: string | null): Promise<void> {
  if (!id) return;
  try {
    await apiRequest<TimingId>(`/v1/questions/${kind}-time-end/${encodeURIComponent(id)}`, {
      method: 'PUT',
      body: '{}',
    });
  } catch {
    // The spec's timing calls ignore failures: a lost duration is no reason to bother anyone.
  }
}
