import type { Question, SurveyDetail } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { PageHead } from '../../../../components/page-head';
import { ApiError } from '../../../../lib/api-client';
import { authoringQueries } from '../../api/authoring';
import { ListError, ListLoading } from '../list-states';

/** The respondents' own screens, handed in by the route (features do not import each other). */
export interface PreviewScreens {
  /** The home page's brick; `open` goes on to the intro. */
  brick: (survey: SurveyDetail, open: () => void) => ReactNode;
  intro: (survey: SurveyDetail, start: () => void) => ReactNode;
  /** One question; `onAnswer` gets the answer in words ('' when left blank). */
  question: (props: {
    survey: SurveyDetail;
    question: Question;
    number: number;
    total: number;
    onAnswer: (answer: string) => void;
  }) => ReactNode;
}

type Step =
  | { kind: 'home' }
  | { kind: 'intro' }
  | { kind: 'question'; index: number }
  | { kind: 'answered'; index: number; answer: string }
  | { kind: 'end' };

const stepValue = (step: Step): string =>
  step.kind === 'question' || step.kind === 'answered' ? `q${step.index}` : step.kind;

function stepFrom(value: string): Step {
  if (value.startsWith('q')) return { kind: 'question', index: Number(value.slice(1)) };
  return value === 'home' || value === 'intro' ? { kind: value } : { kind: 'end' };
}

/** After an answer: what the respondent would see next, and the way on. */
function Answered({
  survey,
  question,
  number,
  answer,
  last,
  onNext,
}: {
  survey: SurveyDetail;
  question: Question | undefined;
  number: number;
  answer: string;
  last: boolean;
  onNext: () => void;
}) {
  const instant = survey.variant.startsWith('v1_');
  return (
    <section className="preview-step" aria-labelledby="preview-step-title">
      <p className="preview-step__eyebrow">After question {number}</p>
      <h1 id="preview-step-title" className="preview-step__title">
        {!answer
          ? 'You left it blank'
          : question?.type === 'Open'
            ? `You wrote “${answer}”`
            : `You picked “${answer}”`}
      </h1>
      <p className="preview-step__note">Not recorded: this is a preview.</p>
      <p>
        {instant
          ? 'Here respondents see the graph of everyone’s answers with their own marked (variant v1), then rate how interesting the question was, 0 to 10.'
          : 'Here respondents rate how interesting the question was, 0 to 10; the graphs come together after the last question (variant v2).'}
      </p>
      <button type="button" className="button button--primary button--large" onClick={onNext}>
        {last ? 'Go to the end' : `Next: question ${number + 1}`}
      </button>
    </section>
  );
}

function End({ survey, onRestart }: { survey: SurveyDetail; onRestart: () => void }) {
  return (
    <section className="preview-step" aria-labelledby="preview-step-title">
      <p className="preview-step__eyebrow">Outro</p>
      <h1 id="preview-step-title" className="preview-step__title">
        Thanks for answering
      </h1>
      {survey.outro_screen_text ? (
        <p className="preview-step__text">{survey.outro_screen_text}</p>
      ) : (
        <p className="preview-step__note">This survey has no outro text.</p>
      )}
      <p>
        {survey.variant.startsWith('v1_')
          ? 'Respondents then see their answers against everyone’s, and the share link.'
          : 'Respondents first see every question’s graph with their answers, then the share link.'}
      </p>
      <div className="preview-step__actions">
        <button type="button" className="button button--primary" onClick={onRestart}>
          Start again
        </button>
        <Link to={`/admin/surveys/${survey.gid}`} className="button">
          Back to the editor
        </Link>
      </div>
    </section>
  );
}

function PreviewFlow({ survey, screens }: { survey: SurveyDetail; screens: PreviewScreens }) {
  const jumpId = useId();
  const [step, setStep] = useState<Step>({ kind: 'home' });
  // Each visit to a question starts it afresh (its timer too).
  const [visit, setVisit] = useState(0);
  const total = survey.questions.length;

  const go = (next: Step) => {
    setStep(next);
    setVisit((v) => v + 1);
    window.scrollTo({ top: 0 });
  };
  const after = (index: number): Step =>
    index + 1 < total ? { kind: 'question', index: index + 1 } : { kind: 'end' };

  const screen = (() => {
    switch (step.kind) {
      case 'home':
        return (
          <div className="preview-home">
            {/* The step's heading: every screen of the preview has its h1, as respondents' do. */}
            <h1 className="preview-step__eyebrow">On the home page</h1>
            {screens.brick(survey, () => go({ kind: 'intro' }))}
            <p className="field__hint">
              A {survey.variant.split('_')[1]} brick (the variant sets its size), drawn as wide as
              on the home page at this screen size.
            </p>
            <button type="button" className="button" onClick={() => go({ kind: 'intro' })}>
              Open the intro
            </button>
          </div>
        );
      case 'intro':
        return screens.intro(survey, () =>
          go(total ? { kind: 'question', index: 0 } : { kind: 'end' }),
        );
      case 'question': {
        const question = survey.questions[step.index];
        if (!question) return null;
        return (
          <div className="flow" key={`${question.qid}:${visit}`}>
            {screens.question({
              survey,
              question,
              number: step.index + 1,
              total,
              onAnswer: (answer) => go({ kind: 'answered', index: step.index, answer }),
            })}
          </div>
        );
      }
      case 'answered':
        return (
          <div className="flow">
            <Answered
              survey={survey}
              question={survey.questions[step.index]}
              number={step.index + 1}
              answer={step.answer}
              last={step.index + 1 >= total}
              onNext={() => go(after(step.index))}
            />
          </div>
        );
      case 'end':
        return (
          <div className="flow">
            <End survey={survey} onRestart={() => go({ kind: 'home' })} />
          </div>
        );
    }
  })();

  return (
    <>
      <div className="preview-bar" role="region" aria-label="Preview">
        <p className="preview-bar__text">
          <strong>Preview: answers are not recorded.</strong> {survey.name}, as respondents see it
          {survey.status === 'Closed' ? ' (closed: respondents would see the results only)' : ''}.
        </p>
        <div className="preview-bar__actions">
          <label htmlFor={jumpId} className="visually-hidden">
            Go to a screen
          </label>
          <select
            id={jumpId}
            className="input input--compact"
            value={stepValue(step)}
            onChange={(e) => go(stepFrom(e.target.value))}
          >
            <option value="home">Home page brick</option>
            <option value="intro">Intro</option>
            {survey.questions.map((q, i) => (
              <option key={q.qid} value={`q${i}`}>
                Question {i + 1}
              </option>
            ))}
            <option value="end">Outro</option>
          </select>
          <Link to={`/admin/surveys/${survey.gid}`} className="button">
            Back to the editor
          </Link>
        </div>
      </div>
      {/* The brick in a grid as wide as the home page's, so it is drawn at its size on the site. */}
      <div className={step.kind === 'home' ? 'preview-stage preview-stage--home' : 'preview-stage'}>
        {screen}
      </div>
    </>
  );
}

/** `/admin/surveys/:gid/preview`: the survey in the respondents' screens, recording nothing. */
export function SurveyPreview({ gid, screens }: { gid: string; screens: PreviewScreens }) {
  const survey = useQuery(authoringQueries.preview(gid));
  if (survey.isError) {
    if (survey.error instanceof ApiError && survey.error.code === 'NOT_FOUND') {
      return (
        <div className="admin-empty" role="status">
          <p className="admin-empty__title">This survey does not exist</p>
          <p>
            <Link to="/admin/surveys">Back to all surveys</Link>
          </p>
        </div>
      );
    }
    return <ListError what="The preview" onRetry={() => void survey.refetch()} />;
  }
  if (!survey.data) return <ListLoading label="Loading the preview" />;
  return (
    <section className="survey-preview" aria-label={`Preview of ${survey.data.name}`}>
      <PageHead title={`Preview: ${survey.data.name}`} />
      <PreviewFlow survey={survey.data} screens={screens} />
    </section>
  );
}
