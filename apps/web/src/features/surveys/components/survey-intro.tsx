import { type SurveyDetail, timeAgo, timeUntil } from '@candor/contracts';
import { PageHead } from '../../../components/page-head';
import { ShareButton } from '../../../components/share/share-button';
import { givesInstantFeedback, toneOf } from '../lib/bricks';
import '../styles/surveys.css';

/** The survey's intro screen: image, text, instructions and the start button. */
export function SurveyIntro({
  survey,
  onStart,
  progress,
  visitor = false,
}: {
  survey: SurveyDetail;
  onStart: () => void;
  /** Logged out: told up front how many questions are free, and what comes after. */
  visitor?: boolean;
  /**
   * Questions this person already answered, to offer "continue" instead of "start"; null while
   * they are being read (the button waits).
   */
  progress: { answered: number; total: number } | null;
}) {
  const started = progress !== null && progress.answered > 0 && progress.answered < progress.total;
  const finished = progress !== null && progress.total > 0 && progress.answered >= progress.total;
  const closed = survey.status === 'Closed';
  const hasVideo = survey.questions.some((q) => q.video_link_1);
  // The sign-up wall, announced (issue 30, point 2): never a surprise at question 4.
  const free =
    visitor && !closed && survey.visitor_questions < survey.questions_count
      ? survey.visitor_questions
      : null;
  return (
    <article className="intro">
      <PageHead
        title={survey.name}
        description={`${survey.cover_headline} ${survey.questions_count} questions on Candor.`}
        // The link preview the server puts in the page too (the survey's share image).
        image={`/api/v1/surveys/${survey.gid}/share-image.png`}
      />
      <div className="intro__media">
        {survey.intro_screen_image ? (
          <img src={survey.intro_screen_image} alt="" width={960} height={540} />
        ) : survey.cover_image ? null : (
          // No picture at all: the survey's colourway, as on its brick.
          <div className="cover-placeholder" data-tone={toneOf(survey.gid)} aria-hidden="true">
            <span className="cover-placeholder__mark">?</span>
          </div>
        )}
      </div>
      <div className="intro__content">
        <p className="intro__eyebrow">
          {survey.genres.map((g) => g.genre_name).join(' · ')}
          {survey.is_within_24_hours ? <span className="badge badge--new">New</span> : null}
        </p>
        <h1>{survey.name}</h1>
        <p className="intro__headline">{survey.cover_headline}</p>
        {closed ? (
          <p className="notice notice--closed" role="status">
            This survey closed {survey.closed_at ? timeAgo(survey.closed_at) : ''}. You can still
            see how people answered.
          </p>
        ) : null}
        <p className="intro__text">{survey.intro_screen_text}</p>
        {closed ? (
          // Nothing to answer or rate any more: only what there is to see.
          <ul className="intro__facts">
            <li>
              {survey.questions_count} {survey.questions_count === 1 ? 'question' : 'questions'},
              each with how verified people answered it.
            </li>
            {hasVideo ? <li>Some questions are videos, with captions.</li> : null}
          </ul>
        ) : (
          <ul className="intro__facts">
            {free !== null ? (
              <li className="intro__free">
                {free === 0
                  ? 'A free account lets you answer: it takes a minute, and your number is never shown with your answers.'
                  : `${free} free ${free === 1 ? 'question' : 'questions'}, then a free account to go on. What you answered comes with you.`}
              </li>
            ) : null}
            <li>{survey.instructions}</li>
            {survey.closes_at ? (
              <li>It closes for answers {timeUntil(survey.closes_at)}.</li>
            ) : null}
            <li>
              {givesInstantFeedback(survey.variant)
                ? 'You see how everyone answered right after each question.'
                : free
                  ? 'You see how everyone answered at the end, and after your last free question.'
                  : 'You see how everyone answered at the end.'}
            </li>
            {hasVideo ? <li>Some questions are videos, with captions.</li> : null}
            <li>Anonymous: your answers are never shown next to your name or number.</li>
          </ul>
        )}
        <button
          type="button"
          className="button button--primary button--large"
          onClick={onStart}
          disabled={progress === null}
          aria-busy={progress === null ? true : undefined}
        >
          {closed
            ? 'See the results'
            : finished
              ? 'See your answers'
              : started
                ? `Continue: question ${progress.answered + 1} of ${progress.total}`
                : 'Start the survey'}
        </button>
        <div className="intro__footer">
          <p className="intro__byline">
            {survey.author ? `By ${survey.author} · released` : 'Released'}{' '}
            {timeAgo(survey.release_date)}
          </p>
          <ShareButton
            title={survey.name}
            text={`${survey.name} on Candor: where do you stand?`}
            url={survey.shareable_link}
          />
        </div>
      </div>
    </article>
  );
}
