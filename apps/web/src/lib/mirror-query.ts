import { standingAmong, type Mirror, type MirrorItem, type SurveyDetail } from '@candor/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { ownAnswersOnDevice, type OwnAnswer } from './local-answers';
import { resultsInSurvey } from './survey-results';
import { mirrorKey } from './query-keys';

/**
 * The member's mirror: every question they answered, their answer against everyone's, newest
 * first. Read by the mirror (`/me`) and by a survey's outro (one request for all its answers),
 * so it lives here, once: features never import each other.
 *
 * Answers sent with an anonymous credential carry no account (decision 020): the API cannot say
 * which are the member's, so they come from this device (and its vault) alone, each set against
 * the published results every reader gets, read without the session. The answers given as the
 * member before credentials are copied from the API to the device first (the outbox does that
 * before any read of the member's records), so the device holds them all.
 */
export const mirrorQuery = () =>
  queryOptions({
    queryKey: mirrorKey,
    queryFn: async ({ signal }): Promise<Mirror> => {
      const results = await deviceItems(await ownAnswersOnDevice(), signal);
      return { results: results.sort((a, b) => b.date.localeCompare(a.date)) };
    },
    staleTime: 10_000,
  });

type Question = SurveyDetail['questions'][number];

/**
 * Answers this device holds, each with its survey and question as published (read without the
 * session); an answer whose survey or question is gone is left out.
 */
export async function namedOwnAnswers(
  own: OwnAnswer[],
  signal?: AbortSignal,
): Promise<Array<{ own: OwnAnswer; survey: SurveyDetail; question: Question }>> {
  const surveys = new Map<string, Promise<SurveyDetail | null>>();
  const surveyOf = (gid: string) => {
    if (!surveys.has(gid)) {
      surveys.set(
        gid,
        apiRequest<SurveyDetail>(`/v1/surveys/${encodeURIComponent(gid)}/video-survey`, {
          signal,
          public: true,
          credentials: 'omit',
        }).catch(() => null),
      );
    }
    return surveys.get(gid)!;
  };
  const named = await Promise.all(
    own.map(async (a) => {
      const survey = await surveyOf(a.gid);
      const question = survey?.questions.find((q) => q.qid === a.qid);
      return survey && question ? { own: a, survey, question } : null;
    }),
  );
  return named.filter((n) => n !== null);
}

/** The mirror's items of answers this device holds: the same numbers the API's list gives. */
async function deviceItems(own: OwnAnswer[], signal: AbortSignal): Promise<MirrorItem[]> {
  const items = await Promise.all(
    (await namedOwnAnswers(own, signal)).map(async ({ own: a, survey, question }) => {
      const published = await resultsInSurvey(a.gid, a.qid).catch(() => null);
      const ownShare = a.isBlank
        ? undefined
        : published?.choices.find((c) => c.choice === a.answer);
      const others = published?.choices.filter((c) => !c.is_blank && c !== ownShare) ?? [];
      const same = ownShare ? ownShare.percent : null;
      const standing = ownShare && same !== null ? standingAmong(ownShare, others) : null;
      return {
        qid: a.qid,
        question: question.question,
        type: question.type,
        gid: a.gid,
        survey: survey.name,
        answer: a.answer,
        is_blank: a.isBlank,
        date: a.date,
        rating: a.rating ?? null,
        same_percent: same,
        same_margin: same !== null ? (ownShare?.margin ?? null) : null,
        respondents: published?.respondents ?? null,
        minority: standing === null ? null : standing === 'minority',
        snapshot_at: published?.snapshot_at ?? null,
        next_update_after: published?.next_update_after ?? 0,
        estimated: question.rr_weight !== null,
      } satisfies MirrorItem;
    }),
  );
  return items;
}
