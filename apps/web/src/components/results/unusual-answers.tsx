import { useId } from 'react';
import { shareText } from './shares';
import { type Standing, isRanked, mostUnusual, standingNote, standingText } from './standing';
import './standing.css';

/** How many answers the summary names. */
export const UNUSUAL_COUNT = 3;

/** Whether a standing shows numbers its state can be said of (a share, or a count of writers). */
export const hasShare = (s: Standing) =>
  !s.isBlank && s.respondents !== null && (isRanked(s) || !s.closed);

/** The title of the summary for `n` answers named. */
export const unusualTitle = (n: number) =>
  n === 1 ? 'Your most unusual answer' : `Your ${n} most unusual answers`;

/**
 * One answer against everyone's, in a line: a meter of the published share (none when it is
 * hidden: no bar that reads as 0%), the share in words, and whether the answer is in it yet.
 */
export function StandingShare({
  standing,
  withNote = true,
}: {
  standing: Standing;
  /** False when a list says once, for all its answers, that they are not in the numbers yet. */
  withNote?: boolean;
}) {
  const text = standingText(standing);
  if (text === null) return null;
  const note = withNote && hasShare(standing) ? standingNote(standing) : null;
  return (
    <span className="standing-share">
      {isRanked(standing) ? (
        <span className="standing-share__meter" aria-hidden="true">
          <span className="standing-share__fill" style={{ width: `${standing.percent}%` }} />
        </span>
      ) : null}
      <span className={isRanked(standing) ? 'standing-share__text' : 'standing-share__muted'}>
        {text}
        {note ? <span className="standing-share__note"> · {note}</span> : null}
      </span>
    </span>
  );
}

/**
 * "Your 3 most unusual answers": of the standings given (one survey's), the answers whose
 * published share is smallest, only among those whose share is shown. Says so when none is.
 */
export function UnusualAnswers({
  standings,
  headingLevel = 2,
  region = true,
}: {
  standings: readonly Standing[];
  headingLevel?: 2 | 3;
  /**
   * A named region of its own (a landmark). Not inside a survey's own section, such as the
   * mirror's: several surveys would each add a region of the same name.
   */
  region?: boolean;
}) {
  const titleId = useId();
  const top = mostUnusual(standings, UNUSUAL_COUNT);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const Box = region ? 'section' : 'div';
  return (
    <Box className="unusual" aria-labelledby={region ? titleId : undefined}>
      <Heading id={titleId} className="unusual__title">
        {top.length > 0 ? unusualTitle(top.length) : 'Your most unusual answers'}
      </Heading>
      {top.length === 0 ? (
        <p className="unusual__empty">
          They appear here once the shares of your answers are published: results come at about 20
          answers per question, and a share too small to show safely stays hidden.
        </p>
      ) : (
        <>
          <ol className="unusual__list">
            {top.map((s) => (
              <li key={s.qid} className="unusual__item">
                <span className="unusual__percent" aria-hidden="true">
                  {shareText(s.percent, s.margin).replace('under about ', '<')}
                </span>
                <span className="unusual__body">
                  <span className="unusual__question">{s.question}</span>
                  <span className="unusual__answer">
                    You: <strong>{s.answer}</strong>
                  </span>
                  <span className="unusual__share">
                    {standingText(s)}
                    {standingNote(s) ? (
                      <span className="standing-share__note"> · {standingNote(s)}</span>
                    ) : null}
                  </span>
                </span>
              </li>
            ))}
          </ol>
          <p className="unusual__fine">
            Smallest share first, among your answers whose share is shown: hidden ones are left out.
            Shares are approximate, blurred a little to protect people.
          </p>
        </>
      )}
    </Box>
  );
}
