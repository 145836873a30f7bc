import { ShareButton } from '../../../components/share/share-button';
import type { Question, SurveyDetail } from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useAuthStore } from '../../../lib/auth-store';
import { type Panel, panelCompletionQuery } from '../api/panel';
import type { Mine } from '../types';
import { OutroAnswers, OutroSummary, useStandings } from './outro-standing';

/** The panel's completion code: issued by the server once every answer is stored. */
function PanelCode({ gid, panel, member }: { gid: string; panel: Panel; member: boolean }) {
  const pid = panel.pid;
  const completion = useQuery({
    ...panelCompletionQuery(gid, panel.id, pid ?? ''),
    enabled: member && pid !== null,
  });
  let body: React.ReactNode;
  if (!member) {
    body = (
      <p>
        Your completion code comes once your answers are counted. <Link to="/signup">Sign up</Link>{' '}
        or <Link to="/login">log in</Link> to get it.
      </p>
    );
  } else if (pid === null) {
    body = (
      <p>
        Your panel link has no participant id, so no completion code can be made for you. Open the
        survey again from the link your panel gave you.
      </p>
    );
  } else if (completion.data) {
    body = (
      <>
        <p>Your completion code for the panel:</p>
        <p className="panel-code__code" data-testid="panel-code">
          {completion.data.code}
        </p>
        {panel.returnUrl ? (
          <a className="button button--primary button--large" href={panel.returnUrl}>
            Return to the panel
          </a>
        ) : (
          <p className="field__hint">Enter this code where the panel asks for it.</p>
        )}
      </>
    );
  } else if (completion.isError) {
    const err = completion.error;
    body = (
      <>
        <p>
          {err instanceof ApiError && err.code !== 'NETWORK' && err.status < 500
            ? err.message
            : 'Your completion code could not be fetched.'}
        </p>
        <button type="button" className="button" onClick={() => void completion.refetch()}>
          Try again
        </button>
      </>
    );
  } else {
    body = <p>Getting your completion code…</p>;
  }
  return (
    <div className="panel-code" role="status" aria-busy={completion.isFetching}>
      {body}
    </div>
  );
}

function ShareLink({ link, name }: { link: string; name: string }) {
  return (
    <div className="share">
      <label className="field__label" htmlFor="share-link">
        Ask a friend where they stand
      </label>
      <div className="share__row">
        <input
          id="share-link"
          className="input"
          readOnly
          value={link}
          onFocus={(e) => e.target.select()}
        />
        <ShareButton title={name} text={`${name} on Candor: where do you stand?`} url={link} />
      </div>
    </div>
  );
}

/**
 * A visitor's peak: they finished and want the comparison the outro promises, but their answers
 * are only in this browser. Signing up counts them (the outbox sends them once) and opens the
 * mirror; the survey position is kept so the signup comes back to this survey.
 */
function CountMyAnswers({ answered }: { answered: number }) {
  const one = answered === 1;
  return (
    <section className="count-card" aria-labelledby="count-card-title">
      <h2 id="count-card-title" className="count-card__title">
        {one ? 'Your answer is not counted yet' : `Your ${answered} answers are not counted yet`}
      </h2>
      <p className="count-card__text">
        {one ? 'It is' : 'They are'} saved on this device only. Candor counts verified people, so
        bots cannot sway the results. Sign up with your phone number: {one ? 'it' : 'they'} count
        once, and you see where you stand against everyone.
      </p>
      <div className="count-card__actions">
        <Link to="/signup" className="button button--primary button--large">
          {one
            ? 'Count my answer and see where I stand'
            : `Count my ${answered} answers and see where I stand`}
        </Link>
        <Link to="/login" className="button button--large">
          I have an account
        </Link>
      </div>
      <p className="count-card__fine">
        A code by text message proves you are a person. Staff see your number masked, and reveal it
        only for a reason they record.
      </p>
    </section>
  );
}

/**
 * The end of a survey: the outro text, the person's most unusual answers, the share link, and
 * their answers against everyone's; panel details.
 */
export function SurveyOutro({
  survey,
  questions,
  mine,
  member,
  panel,
  answeredAt = {},
}: {
  survey: SurveyDetail;
  questions: Question[];
  mine: Map<string, Mine>;
  member: boolean;
  panel: Panel | null;
  /** When each answer of this page was given (ms), by qid. */
  answeredAt?: Record<string, number>;
}) {
  const answered = questions.filter((q) => mine.has(q.qid)).length;
  const underReview = useAuthStore((s) => s.user?.status === 'under_review');
  const standings = useStandings({ survey, questions, mine, member, underReview, answeredAt });
  return (
    <section className="outro" aria-labelledby="outro-title">
      <p className="outro__eyebrow">{survey.name}: complete</p>
      <h1 id="outro-title">Thank you for your candour</h1>
      <p className="outro__text">{survey.outro_screen_text}</p>
      {!member && answered > 0 ? <CountMyAnswers answered={answered} /> : null}
      {panel ? <PanelCode gid={survey.gid} panel={panel} member={member} /> : null}
      <OutroSummary questions={questions} standings={standings} />
      <ShareLink link={survey.shareable_link} name={survey.name} />
      <h2 className="outro__subtitle">Your answers against everyone&apos;s</h2>
      {!member && answered === 0 ? (
        <p className="notice notice--local">Kept on this device only, not counted yet.</p>
      ) : null}
      <OutroAnswers questions={questions} mine={mine} standings={standings} />
      <Link to="/" className="button button--large">
        More surveys
      </Link>
    </section>
  );
}
