import type { QuestionResults, SurveyResults } from '@candor/contracts';
import { apiRequest } from './api-client';

const inFlight = new Map<string, Promise<Map<string, QuestionResults>>>();

/**
 * Every question's published results of survey `gid`, in one read (`GET
 * /v1/surveys/{gid}/results/`) shared by every graph that asks while it is in flight: a survey's
 * end results, its outro and the mirror mount a graph per question, and one read per graph ran
 * into the per-address limit on long surveys. Read without the session, as each question's is.
 */
export function surveyResults(gid: string): Promise<Map<string, QuestionResults>> {
  let read = inFlight.get(gid);
  if (!read) {
    read = apiRequest<SurveyResults>(`/v1/surveys/${encodeURIComponent(gid)}/results/`, {
      public: true,
      credentials: 'omit',
    })
      .then((all) => new Map(all.questions.map((r) => [r.qid, r])))
      .finally(() => inFlight.delete(gid));
    inFlight.set(gid, read);
  }
  return read;
}

/** One question's published results from its survey's read; throws if the survey lacks it. */
export async function resultsInSurvey(gid: string, qid: string): Promise<QuestionResults> {
  const found = (await surveyResults(gid)).get(qid);
  if (!found) throw new Error('The survey no longer has this question.');
  return found;
}
