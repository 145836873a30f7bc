import type {
  AdminGenre,
  AdminGenreList,
  AdminSurvey,
  AdminSurveyList,
  DeleteSurveyRequest,
  GenreInput,
  QuestionInput,
  SurveyDetail,
  SurveyFile,
  SurveyInput,
  UploadedImage,
} from '@candor/contracts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost, apiRequest, apiUpload } from '../../../lib/api-client';
import { publicSurveysKey } from '../../../lib/query-keys';
import { saveFile } from '../../../lib/save-file';
import { adminQueries } from './admin';

const base = '/v1/admin';
const id = (value: string) => encodeURIComponent(value);

const put = <T>(path: string, body: unknown) =>
  apiRequest<T>(path, { method: 'PUT', body: JSON.stringify(body) });
const del = <T>(path: string) => apiRequest<T>(path, { method: 'DELETE' });

/** Query options of survey authoring; keys start with `admin`, like the other staff lists. */
export const authoringQueries = {
  surveysAll: () => [...adminQueries.all(), 'authoring'] as const,
  /** Every survey in every state, in home-page order. */
  surveys: () =>
    queryOptions({
      queryKey: [...authoringQueries.surveysAll(), 'list'] as const,
      queryFn: ({ signal }) => apiRequest<AdminSurveyList>(`${base}/surveys/`, { signal }),
    }),
  survey: (gid: string) =>
    queryOptions({
      queryKey: [...authoringQueries.surveysAll(), 'survey', gid] as const,
      queryFn: ({ signal }) => apiRequest<AdminSurvey>(`${base}/surveys/${id(gid)}/`, { signal }),
    }),
  /** The survey as respondents get it, in any state. */
  preview: (gid: string) =>
    queryOptions({
      queryKey: [...authoringQueries.surveysAll(), 'preview', gid] as const,
      queryFn: ({ signal }) =>
        apiRequest<SurveyDetail>(`${base}/surveys/${id(gid)}/preview/`, { signal }),
      // Always what was saved last: the author opens it to check an edit.
      staleTime: 0,
    }),
  genres: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'genres'] as const,
      queryFn: ({ signal }) => apiRequest<AdminGenreList>(`${base}/genres/`, { signal }),
    }),
};

/**
 * A survey changed: keep the answer as the editor's data, refresh the list, its preview, the
 * released surveys of the Results tab and the audit log.
 */
function surveyChanged(queryClient: QueryClient, survey: AdminSurvey) {
  queryClient.setQueryData(authoringQueries.survey(survey.gid).queryKey, survey);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: authoringQueries.surveys().queryKey }),
    queryClient.invalidateQueries({ queryKey: authoringQueries.preview(survey.gid).queryKey }),
    queryClient.invalidateQueries({ queryKey: adminQueries.surveys().queryKey }),
    // The public survey reads of this tab: an admin who changed a survey and opens the home
    // page sees the change at once, not after their minute of freshness.
    queryClient.invalidateQueries({ queryKey: publicSurveysKey }),
    queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
    // Genre counts follow the surveys that use them.
    queryClient.invalidateQueries({ queryKey: authoringQueries.genres().queryKey }),
  ]);
}

/** After a change to many surveys at once: the new list, and every survey read again. */
function surveysChanged(queryClient: QueryClient, list: AdminSurveyList) {
  queryClient.setQueryData(authoringQueries.surveys().queryKey, list);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [...authoringQueries.surveysAll(), 'survey'] }),
    queryClient.invalidateQueries({ queryKey: adminQueries.surveys().queryKey }),
    queryClient.invalidateQueries({ queryKey: publicSurveysKey }),
    queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
  ]);
}

/** Creates a draft survey (201, the new survey). */
export function useCreateSurvey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SurveyInput) => apiPost<AdminSurvey>(`${base}/surveys/`, input),
    onSuccess: (survey) => surveyChanged(queryClient, survey),
  });
}

/** Copies a survey's content, never its answers, into a new draft (201, the copy). */
export function useDuplicateSurvey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (gid: string) => apiPost<AdminSurvey>(`${base}/surveys/${id(gid)}/duplicate/`, {}),
    onSuccess: (survey) => surveyChanged(queryClient, survey),
  });
}

/** Saves a survey's fields (the whole SurveyInput). */
export function useUpdateSurvey(gid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SurveyInput) => put<AdminSurvey>(`${base}/surveys/${id(gid)}/`, input),
    onSuccess: (survey) => surveyChanged(queryClient, survey),
  });
}

/** Saves a survey's content as a file (candor.survey/1), named after the survey. */
export async function downloadSurveyFile(survey: { gid: string; name: string }): Promise<string> {
  const file = await apiRequest<SurveyFile>(`${base}/surveys/${id(survey.gid)}/content/`);
  const slug = survey.name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  const name = `${slug || 'survey'}.candor-survey.json`;
  saveFile(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }), name);
  return name;
}

/** Closes and archives every sample survey (the list as it is now). */
export function useArchiveSamples() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<AdminSurveyList>(`${base}/sample-surveys/archive/`, {}),
    onSuccess: (list) => surveysChanged(queryClient, list),
  });
}

/** Makes a draft of a survey file (201, the new draft). */
export function useImportSurvey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: SurveyFile) => apiPost<AdminSurvey>(`${base}/surveys/import/`, file),
    onSuccess: (survey) => surveyChanged(queryClient, survey),
  });
}

export type SurveyTransition = 'publish' | 'close' | 'reopen' | 'archive' | 'unarchive';

/** Deletes a draft (204); the list and the audit log follow. */
/**
 * Deletes a draft, or a closed survey with its answers and releases once `name` (its exact
 * name) confirms it.
 */
export function useDeleteSurvey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ gid, name }: { gid: string; name?: string }) =>
      name === undefined
        ? del<null>(`${base}/surveys/${id(gid)}/`)
        : apiPost<null>(`${base}/surveys/${id(gid)}/delete/`, {
            name,
          } satisfies DeleteSurveyRequest),
    // The deleted survey's own query is left alone: its editor is being left, and a refetch
    // while it still shows would flash "not found".
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: authoringQueries.surveys().queryKey }),
        queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
        queryClient.invalidateQueries({ queryKey: authoringQueries.genres().queryKey }),
        queryClient.invalidateQueries({ queryKey: publicSurveysKey }),
      ]),
  });
}

/** Publishes, closes, reopens, archives or unarchives a survey. */
export function useSurveyTransition(gid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (transition: SurveyTransition) =>
      apiPost<AdminSurvey>(`${base}/surveys/${id(gid)}/${transition}/`, {}),
    onSuccess: (survey) => surveyChanged(queryClient, survey),
  });
}

/** Saves the home page's order: every survey's gid, first brick first. */
export function useSurveyOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (gids: string[]) => put<AdminSurveyList>(`${base}/survey-order/`, { gids }),
    onSuccess: (list) => surveysChanged(queryClient, list),
  });
}

/** Adds a question (`qid` null) or saves one; the answer is the whole survey. */
export function useSaveQuestion(gid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ qid, input }: { qid: string | null; input: QuestionInput }) =>
      qid
        ? put<AdminSurvey>(`${base}/questions/${id(qid)}/`, input)
        : apiPost<AdminSurvey>(`${base}/surveys/${id(gid)}/questions/`, input),
    onSuccess: (survey) => surveyChanged(queryClient, survey),
  });
}

export function useDeleteQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (qid: string) => del<AdminSurvey>(`${base}/questions/${id(qid)}/`),
    onSuccess: (survey) => surveyChanged(queryClient, survey),
  });
}

/** Saves the order of a survey's questions: every qid, first question first. */
export function useQuestionOrder(gid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (qids: string[]) =>
      put<AdminSurvey>(`${base}/surveys/${id(gid)}/question-order/`, { qids }),
    onSuccess: (survey) => surveyChanged(queryClient, survey),
  });
}

/** Uploads an image file; the answer names where the API stored it (re-encoded as WebP). */
export function useUploadImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: Blob) => apiUpload<UploadedImage>(`${base}/uploads/`, file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
  });
}

/** Every genre change refreshes the genres, the surveys that show them and the audit log. */
function genresChanged(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: authoringQueries.genres().queryKey }),
    queryClient.invalidateQueries({ queryKey: authoringQueries.surveysAll() }),
    queryClient.invalidateQueries({ queryKey: publicSurveysKey }),
    queryClient.invalidateQueries({ queryKey: adminQueries.auditLogAll() }),
  ]);
}

export function useCreateGenre() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GenreInput) => apiPost<AdminGenre>(`${base}/genres/`, input),
    onSuccess: () => genresChanged(queryClient),
  });
}

export function useRenameGenre() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ gid, input }: { gid: string; input: GenreInput }) =>
      put<AdminGenre>(`${base}/genres/${id(gid)}/`, input),
    onSuccess: () => genresChanged(queryClient),
  });
}

export function useDeleteGenre() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (gid: string) => del<undefined>(`${base}/genres/${id(gid)}/`),
    onSuccess: () => genresChanged(queryClient),
  });
}
