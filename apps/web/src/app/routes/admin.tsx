import type { Question, SurveyDetail } from '@candor/contracts';
import { useMemo, useRef } from 'react';
import { Navigate, Outlet, useParams } from 'react-router';
import { AdminShell, useIsAdmin } from '../../features/admin/components/admin-shell';
import { PasskeysPanel } from '../../features/admin/components/account/passkeys-panel';
import { AnalyticsPanel } from '../../features/admin/components/insights/analytics-panel';
import { AnswersPanel } from '../../features/admin/components/moderation/answers-panel';
import { AuditLogPanel } from '../../features/admin/components/moderation/audit-log-panel';
import { GenresPanel } from '../../features/admin/components/authoring/genres-panel';
import { ResearchTokensPanel } from '../../features/admin/components/insights/research-tokens-panel';
import { WebhooksPanel } from '../../features/admin/components/insights/webhooks-panel';
import { ResultsPanel } from '../../features/admin/components/insights/results-panel';
import { SignupsPanel } from '../../features/admin/components/moderation/signups-panel';
import { AdminsOnly } from '../../features/admin/components/staff-only';
import {
  NewSurveyEditor,
  SurveyEditor,
} from '../../features/admin/components/authoring/survey-editor';
import {
  type PreviewScreens,
  SurveyPreview,
} from '../../features/admin/components/authoring/survey-preview';
import { SurveysPanel } from '../../features/admin/components/authoring/surveys-panel';
import { UsersPanel } from '../../features/admin/components/moderation/users-panel';
import { QuestionScreen } from '../../features/answering/components/question-screen';
import { makeShuffle } from '../../features/answering/lib/flow';
import { Brick } from '../../features/surveys/components/brick';
import { SurveyIntro } from '../../features/surveys/components/survey-intro';

/** `/admin`: the staff area's frame (the role guard and the tabs). */
export const AdminRoute = AdminShell;

/** `/admin` itself opens the first tab every staff member has. */
export function AdminIndexRoute() {
  return <Navigate to="/admin/signups" replace />;
}

export const AdminSignupsRoute = SignupsPanel;
export const AdminAnswersRoute = AnswersPanel;
export const AdminPasskeysRoute = PasskeysPanel;

/** The admins' tabs, guarded once: a moderator who types one of their addresses is told why not. */
export function AdminsOnlyRoute() {
  return useIsAdmin() ? <Outlet /> : <AdminsOnly />;
}

export const AdminUsersRoute = UsersPanel;
export const AdminAuditLogRoute = AuditLogPanel;
export const AdminResultsRoute = ResultsPanel;
export const AdminAnalyticsRoute = AnalyticsPanel;
export const AdminApiTokensRoute = ResearchTokensPanel;
export const AdminWebhooksRoute = WebhooksPanel;
export const AdminSurveysRoute = SurveysPanel;
export const AdminNewSurveyRoute = NewSurveyEditor;
export const AdminGenresRoute = GenresPanel;

export function AdminSurveyRoute() {
  const { gid = '' } = useParams();
  // A new survey's editor is another screen: no form state carries over between surveys.
  return <SurveyEditor key={gid} gid={gid} />;
}

/** One question of the preview in the respondents' screen, its choices shuffled as theirs are. */
function PreviewQuestion({
  survey,
  question,
  number,
  total,
  onAnswer,
}: {
  survey: SurveyDetail;
  question: Question;
  number: number;
  total: number;
  onAnswer: (answer: string) => void;
}) {
  const choices = useMemo(
    () => makeShuffle(survey.gid, [question]).choices[question.qid] ?? question.choices,
    [survey.gid, question],
  );
  // Nothing is recorded: the pick is kept here until the screen goes on.
  const picked = useRef('');
  return (
    <QuestionScreen
      question={question}
      choices={choices}
      number={number}
      total={total}
      busy={false}
      onAnswer={(input) => {
        picked.current = input.isBlank ? '' : input.answer;
        return Promise.resolve(true);
      }}
      onNext={() => onAnswer(picked.current)}
    />
  );
}

// The respondents' real screens, composed here: the preview flow records nothing and stores
// nothing in the browser (the answering flow does both, so it is not used).
const previewScreens: PreviewScreens = {
  brick: (survey, open) => (
    <ul
      className="bricks preview-bricks"
      onClickCapture={(e) => {
        // The brick links to the public survey; in the preview it opens the intro instead.
        e.preventDefault();
        open();
      }}
    >
      {/* As someone who has not answered it sees it: "New", with its time estimate. */}
      <Brick
        survey={{
          ...survey,
          questions: survey.questions.map((q) => ({
            ...q,
            gid: survey.gid,
            name: survey.name,
            status: survey.status,
          })),
          respondents: null,
        }}
        answered={undefined}
      />
    </ul>
  ),
  intro: (survey, start) => (
    <SurveyIntro
      survey={survey}
      onStart={start}
      progress={{ answered: 0, total: survey.questions.length }}
    />
  ),
  question: (props) => <PreviewQuestion {...props} />,
};

export function AdminSurveyPreviewRoute() {
  const { gid = '' } = useParams();
  return <SurveyPreview key={gid} gid={gid} screens={previewScreens} />;
}
