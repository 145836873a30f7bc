import { useEffect, useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PageHead } from '../../components/page-head';
import { StatusMessage } from '../../components/status';
import { panelFrom, recalledPanel, rememberPanel } from '../../features/answering/api/panel';
import { SurveyFlow } from '../../features/answering/components/survey-flow';
import { useAuthStore } from '../../lib/auth-store';
import { useSurvey } from '../../features/surveys/api/surveys';
import { SurveyIntro } from '../../features/surveys/components/survey-intro';
import { ApiError } from '../../lib/api-client';
import { tokenSubject } from '../../lib/tokens';

export function SurveyRoute() {
  const { surveyId = '' } = useParams();
  const [params] = useSearchParams();
  const survey = useSurvey(surveyId);
  // Held tokens are enough: the flow needs the token's subject, never the loaded user, so a
  // member back on the page keeps the drawn intro while their session is restored (a refresh
  // that fails turns them into a visitor, and the flow starts again as one).
  const auth = useAuthStore((s) => s.auth);
  // A panel link's parameters, kept for this tab: signing up midway returns without them.
  const fromLink = useMemo(() => panelFrom(params), [params]);
  const gid = survey.data?.gid;
  const panel = useMemo(() => fromLink ?? (gid ? recalledPanel(gid) : null), [fromLink, gid]);
  useEffect(() => {
    if (gid && fromLink) rememberPanel(gid, fromLink);
  }, [gid, fromLink]);
  // The token's subject, not the loaded user: answering works offline after a reload too.
  const uuid = auth ? tokenSubject() : null;
  const member = useMemo(() => (uuid ? { uuid } : null), [uuid]);

  if (survey.isPending) {
    return <div className="intro intro--loading" aria-busy="true" aria-label="Loading survey" />;
  }
  if (survey.isError) {
    const notFound = survey.error instanceof ApiError && survey.error.code === 'NOT_FOUND';
    return (
      <>
        <PageHead title={notFound ? 'Survey not found' : 'Something went wrong'} />
        <StatusMessage title={notFound ? 'We could not find this survey' : 'Something went wrong'}>
          <p>
            {notFound
              ? 'The link may be mistyped, or the survey is not released yet.'
              : survey.error.message}
          </p>
        </StatusMessage>
      </>
    );
  }
  return (
    <SurveyFlow
      key={`${survey.data.gid}:${member?.uuid ?? 'visitor'}`}
      survey={survey.data}
      member={member}
      panel={panel}
      renderIntro={(start, progress) => (
        <SurveyIntro
          survey={survey.data}
          onStart={start}
          progress={progress}
          visitor={member === null}
        />
      )}
    />
  );
}
