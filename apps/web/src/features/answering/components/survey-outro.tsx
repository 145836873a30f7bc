import { copyLink } from '../../../lib/copy-link';
import type { Question, SurveyDetail } from '@candor/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Mine } from './survey-flow';

/** A respondent sent by a research panel (`?panel=...&pid=...&return=https://...`). */
export interface Panel {
  id: string;
  pid: string | null;
  returnUrl: string | null;
}

/** Reads the panel parameters of a survey link; the return link must be https. */
export function panelFrom(params: URLSearchParams): Panel | null {
  const id = params.get('panel');
  if (!id) return null;
  const raw = params.get('return');
  let returnUrl: string | null = null;
  try {
    if (raw && new URL(raw).protocol === 'https:') returnUrl = new URL(raw).toString();
  } catch {
    returnUrl = null;
  }
  return { id: id.slice(0, 64), pid: params.get('pid')?.slice(0, 128) ?? null, returnUrl };
}

/** A short code the panel can match to its panelist: derived from survey, panel and panelist. */
async function completionCode(gid: string, panel: Panel): Promise<string> {
  const data = new TextEncoder().encode(`${gid}:${panel.id}:${panel.pid ?? ''}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from(digest.slice(0, 8), (b) => alphabet[b % alphabet.length]).join('');
}

function ShareLink({ link }: { link: string }) {
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
        <button type="button" className="button" onClick={() => copyLink(link)}>
          Copy link
        </button>
      </div>
    </div>
  );
}

/** The end of a survey: the outro text, the person's answers, the share link; panel details. */
export function SurveyOutro({
  survey,
  questions,
  mine,
  member,
  panel,
}: {
  survey: SurveyDetail;
  questions: Question[];
  mine: Map<string, Mine>;
  member: boolean;
  panel: Panel | null;
}) {
  const [code, setCode] = useState<string | null>(null);
  useEffect(() => {
    if (panel) void completionCode(survey.gid, panel).then(setCode);
  }, [panel, survey.gid]);
  return (
    <section className="outro" aria-labelledby="outro-title">
      <p className="outro__eyebrow">Survey complete</p>
      <h1 id="outro-title">Thank you for your candour</h1>
      <p className="outro__text">{survey.outro_screen_text}</p>
      {panel ? (
        <div className="panel-code" role="status">
          <p>Your completion code for the panel:</p>
          <p className="panel-code__code">{code ?? '…'}</p>
          {panel.returnUrl ? (
            <a className="button button--primary button--large" href={panel.returnUrl}>
              Return to the panel
            </a>
          ) : (
            <p className="field__hint">Enter this code where the panel asks for it.</p>
          )}
        </div>
      ) : null}
      <ShareLink link={survey.shareable_link} />
      <h2 className="outro__subtitle">Your answers</h2>
      {!member ? (
        <p className="notice notice--local">Kept on this device only, not counted yet.</p>
      ) : null}
      <ol className="outro__answers">
        {questions.map((q) => {
          const a = mine.get(q.qid);
          return (
            <li key={q.qid}>
              <span className="outro__question">{q.question}</span>
              <span className="outro__answer">
                {!a ? 'Not answered' : a.isBlank ? 'Left blank' : a.answer}
              </span>
            </li>
          );
        })}
      </ol>
      <Link to="/" className="button button--large">
        More surveys
      </Link>
    </section>
  );
}
