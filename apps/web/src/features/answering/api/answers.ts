import {
  CREDENTIAL_HEADER,
  type AnswerRequest,
  type BreakdownDimension,
  type AnswerResponse,
  type QuestionResults,
  type RatingResponse,
  type Withdrawal,
} from '@candor/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { BreakdownQuery } from '../../../components/results/question-graph';
import { apiPost, apiRequest } from '../../../lib/api-client';
import { resultsInSurvey } from '../../../lib/survey-results';

const q = (qid: string) => `/v1/questions/${encodeURIComponent(qid)}`;

/**
 * A request redeemed with the survey's anonymous credential (decision 020): no session, no
 * cookie, nothing of the account; the credential is the only proof that a verified member sent it.
 */
export const redeemed = (token: string, headers: Record<string, string> = {}) => ({
  public: true,
  credentials: 'omit' as const,
  headers: { [CREDENTIAL_HEADER]: token, ...headers },
});

/**
 * An answer with its credential and the device's breakdown class; the key makes a retry of the
 * same attempt count once. Answers and ratings go this way alone (decision 020, slice 5).
 */
export function postAnswerWithCredential(
  qid: string,
  body: AnswerRequest,
  key: string,
  token: string,
) {
  return apiPost<AnswerResponse>(
    `${q(qid)}/answer/`,
    body,
    redeemed(token, { 'Idempotency-Key': key }),
  );
}

/** A rating with the credential that answered the question. */
export function postRatingWithCredential(qid: string, score: number, token: string) {
  return apiPost<RatingResponse>(`${q(qid)}/rating/`, { score }, redeemed(token));
}

/** Withdraws every answer and rating the credential gave in survey `gid` (no session). */
export function withdrawWithCredential(gid: string, token: string) {
  return apiPost<Withdrawal>(
    `/v1/surveys/${encodeURIComponent(gid)}/answers/withdrawal/`,
    {},
    redeemed(token),
  );
}

export const answeringQueries = {
  all: () => ['answering'] as const,
  /**
   * Published results of one question, whole or broken down by one dimension. With its survey's
   * `gid`, whole results come from the survey's one read, shared by the graphs that mount with
   * it (end results, outro); the same numbers under the same key either way.
   */
  results: (qid: string, breakdown?: BreakdownDimension, gid?: string) =>
    queryOptions({
      queryKey: [...answeringQueries.all(), 'results', qid, breakdown ?? 'all'] as const,
      queryFn: ({ signal }) =>
        gid && !breakdown ? resultsInSurvey(gid, qid) : fetchResults(qid, breakdown, signal),
      staleTime: 10_000,
    }),
};

/**
 * Read without the session, by members too: which questions' graphs an account reads would say
 * which questions it answered, the join decision 020 removes. The numbers are the published
 * ones every reader gets; the browser keeps the "after answering" rule, as it does for visitors.
 */
function fetchResults(qid: string, breakdown: BreakdownDimension | undefined, signal: AbortSignal) {
  return apiRequest<QuestionResults>(
    `${q(qid)}/results/${breakdown ? `?breakdown=${breakdown}` : ''}`,
    { signal, public: true, credentials: 'omit' },
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
