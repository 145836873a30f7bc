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
  detail: (gid: string) => {
    const path = `/v1/surveys/${encodeURIComponent(gid)}/video-survey`;
    return queryOptions({
      queryKey: [...surveyQueries.all(), 'detail', gid] as const,
      queryFn: ({ signal }) => apiRequest<SurveyDetail>(path, { signal, public: true }),
      staleTime: 60_000,
      // A survey's page carries the survey its intro was drawn from: the first render shows it.
      initialData: () => embeddedResponse(path)?.data as SurveyDetail | undefined,
      initialDataUpdatedAt: () => embeddedResponse(path)?.at,
    });
  },
};

export const useSurveyList = () => useQuery(surveyQueries.list());
export const useSurvey = (gid: string) => useQuery(surveyQueries.detail(gid));
