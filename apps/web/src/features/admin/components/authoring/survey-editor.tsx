import type { AdminSurvey } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { successToast } from '../../../../lib/toasts';
import { PageHead } from '../../../../components/page-head';
import { ApiError } from '../../../../lib/api-client';
import { authoringQueries, useCreateSurvey, useUpdateSurvey } from '../../api/authoring';
import { ListError, ListLoading } from '../list-states';
import { QuestionsSection } from './questions-section';
import { StateBadge } from './survey-bits';
import { SurveyForm } from './survey-form';
import { SurveyStatus } from './survey-status';
import { UnsavedGuard } from './unsaved-guard';

const showAll = (messages: string[]) => {
  for (const m of messages) toast.error(m);
};

function BackLink() {
  return (
    <Link to="/admin/surveys" className="editor__back">
      <span aria-hidden="true">←</span> All surveys
    </Link>
  );
}

/** `/admin/surveys/new`: the survey's fields; saving creates a draft and opens its editor. */
export function NewSurveyEditor() {
  const create = useCreateSurvey();
  const navigate = useNavigate();
  const [dirty, setDirty] = useState(false);
  return (
    <section className="admin-panel editor" aria-labelledby="editor-title">
      <PageHead title="New survey" />
      <BackLink />
      <div className="admin-panel__head">
        <h1 id="editor-title" className="admin-panel__title">
          New survey
        </h1>
      </div>
      <p className="admin-panel__lead">
        Start with the survey’s fields. It is saved as a draft that only staff can see; you add the
        questions next.
      </p>
      <div className="editor__card">
        <SurveyForm
          survey={null}
          saveLabel="Create draft"
          onError={showAll}
          onDirtyChange={setDirty}
          onSave={async (input) => {
            const survey = await create.mutateAsync(input);
            successToast(`Draft “${survey.name}” created: now add its questions`);
            await navigate(`/admin/surveys/${survey.gid}`, { replace: true });
            return survey;
          }}
        />
      </div>
      <UnsavedGuard when={dirty} what="The new survey" />
    </section>
  );
}

function Editor({ survey }: { survey: AdminSurvey }) {
  const update = useUpdateSurvey(survey.gid);
  const [surveyDirty, setSurveyDirty] = useState(false);
  const [questionDirty, setQuestionDirty] = useState(false);
  return (
    <section className="admin-panel editor" aria-labelledby="editor-title">
      <PageHead title={`Edit ${survey.name}`} />
      <BackLink />
      <div className="admin-panel__head editor__head">
        <h1 id="editor-title" className="admin-panel__title">
          {survey.name}
        </h1>
        <StateBadge state={survey.state} archived={survey.archived_at !== null} />
      </div>
      <div className="editor__layout">
        <div className="editor__main">
          <div className="editor__card" id="survey-details">
            <h2 className="editor__section-title">Survey details</h2>
            <SurveyForm
              // A newer copy restarts the form when it holds no unsaved changes.
              key={survey.gid}
              survey={survey}
              saveLabel="Save changes"
              onError={showAll}
              onDirtyChange={setSurveyDirty}
              onSave={async (input) => {
                const saved = await update.mutateAsync(input);
                successToast('Survey saved');
                return saved;
              }}
            />
          </div>
          <QuestionsSection survey={survey} onDirtyChange={setQuestionDirty} />
        </div>
        <aside className="editor__side">
          <SurveyStatus survey={survey} />
        </aside>
      </div>
      <UnsavedGuard
        when={surveyDirty || questionDirty}
        what={
          surveyDirty && questionDirty
            ? 'Your changes to the survey and to the question'
            : surveyDirty
              ? 'Your changes to the survey'
              : 'Your changes to the question'
        }
      />
    </section>
  );
}

/** `/admin/surveys/:gid`: the survey's fields, its status and its questions. */
export function SurveyEditor({ gid }: { gid: string }) {
  // Fresh each time the editor opens: the Surveys tab may have reordered the bricks (slots) or a
  // genre may have gone since the copy in the cache; the form restarts from the fresh one.
  const survey = useQuery({ ...authoringQueries.survey(gid), refetchOnMount: 'always' });
  if (survey.isError) {
    if (survey.error instanceof ApiError && survey.error.code === 'NOT_FOUND') {
      return (
        <section className="admin-panel">
          <PageHead title="Survey not found" />
          <BackLink />
          <div className="admin-empty" role="status">
            <p className="admin-empty__title">This survey does not exist</p>
            <p>It may have been mistyped in the address. Pick one from the list.</p>
          </div>
        </section>
      );
    }
    return <ListError what="The survey" onRetry={() => void survey.refetch()} />;
  }
  if (!survey.data) return <ListLoading label="Loading the survey" />;
  return <Editor survey={survey.data} />;
}
