import { useParams } from 'react-router';
import { PageHead } from '../../components/page-head';
import { StatusMessage } from '../../components/status';
import { ApiError } from '../../lib/api-client';
import { useSurvey } from '../../features/surveys/api/surveys';
import { SurveyIntro } from '../../features/surveys/components/survey-intro';

export function SurveyRoute() {
  const { surveyId = '' } = useParams();
  const survey = useSurvey(surveyId);
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
  return <SurveyIntro survey={survey.data} />;
}
