import type { SurveyDetail, SurveyList } from '@candor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { publicSurveysKey } from '../../../lib/query-keys';

/** Query keys and fetchers of the survey reads; mutations invalidate by these keys. */
export const surveyQueries = {
  all: () => publicSurveysKey,
  list: () =>
    queryOptions({
      queryKey: [...surveyQueries.all(), 'list'] as const,
      queryFn: ({ signal }) =>
        apiRequest<SurveyList>('/v1/surveys/open-closed-random-video-surveys?page_size=100', {
          signal,
        }),
      staleTime: 60_000,
    }),
  detail: (gid: string) =>
    queryOptions({
      queryKey: [...surveyQueries.all(), 'detail', gid] as const,
      queryFn: ({ signal }) =>
        apiRequest<SurveyDetail>(`/v1/surveys/${encodeURIComponent(gid)}/video-survey`, {
          signal,
        }),
      staleTime: 60_000,
    }),
};

export const useSurveyList = () => useQuery(surveyQueries.list());
export const useSurvey = (gid: string) => useQuery(surveyQueries.detail(gid));
