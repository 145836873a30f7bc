import { HOME_SURVEY_LIST_PATH, type SurveyDetail, type SurveyList } from '@candor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { embeddedResponse } from '../../../lib/page-data';
import { publicSurveysKey } from '../../../lib/query-keys';

/** Query keys and fetchers of the survey reads; mutations invalidate by these keys. */
export const surveyQueries = {
  all: () => publicSurveysKey,
  list: () =>
    queryOptions({
      queryKey: [...surveyQueries.all(), 'list'] as const,
      queryFn: ({ signal }) =>
        apiRequest<SurveyList>(HOME_SURVEY_LIST_PATH, { signal, public: true }),
      staleTime: 60_000,
      // The home page's HTML carries the list it was drawn from: the first render shows it.
      initialData: () => embeddedResponse(HOME_SURVEY_LIST_PATH)?.data as SurveyList | undefined,
      initialDataUpdatedAt: () => embeddedResponse(HOME_SURVEY_LIST_PATH)?.at,
    }),
  detail: (gid: string) =>
    queryOptions({
      queryKey: [...surveyQueries.all(), 'detail', gid] as const,
      queryFn: ({ signal }) =>
        // Public, like the list: sent without the session so it is the very request the page
        // preloaded (the server adds <link rel="preload" as="fetch"> to a survey's page).
        apiRequest<SurveyDetail>(`/v1/surveys/${encodeURIComponent(gid)}/video-survey`, {
          signal,
          public: true,
        }),
      staleTime: 60_000,
    }),
};

export const useSurveyList = () => useQuery(surveyQueries.list());
export const useSurvey = (gid: string) => useQuery(surveyQueries.detail(gid));
