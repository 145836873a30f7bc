import type { QuestionResults, SurveyResults } from '@candor/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resultsInSurvey } from './survey-results';

const gid = '7f1d4c0e-6a35-4d0c-9d8e-2b1f3c4d5e6f';
const result = (qid: string) => ({ qid, respondents: 12 }) as unknown as QuestionResults;

function serve(body: SurveyResults) {
  const fetchMock = vi.fn(
    async () =>
      new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe("a survey's results in one read", () => {
  it('serves every graph that asks at once from one request, without the session', async () => {
    const fetchMock = serve({ gid, questions: ['a', 'b', 'c'].map(result) });
    const read = await Promise.all(['a', 'b', 'c', 'a'].map((qid) => resultsInSurvey(gid, qid)));
    expect(read.map((r) => r.qid)).toEqual(['a', 'b', 'c', 'a']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`/api/v1/surveys/${gid}/results/`);
    expect(init.credentials).toBe('omit');
    expect(new Headers(init.headers).has('Authorization')).toBe(false);
    // Settled: a later mount reads again, so numbers are never older than the cache's own rule.
    await resultsInSurvey(gid, 'b');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('refuses a question the survey no longer has', async () => {
    serve({ gid, questions: [result('a')] });
    await expect(resultsInSurvey(gid, 'gone')).rejects.toThrow(/no longer has this question/);
  });
});
