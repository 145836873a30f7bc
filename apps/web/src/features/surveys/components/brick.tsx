import { onePerPair, type SurveySummary } from '@candor/contracts';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { embeddedBrickPosition } from '../../../lib/page-data';
import { backgroundPosition, brickSizeOf, toneOf } from '../lib/bricks';
import { peopleLabel, progressLabel, progressOf, timeLabel } from '../lib/progress';
import '../styles/surveys.css';

/**
 * One survey in the brick navigation: cover, headline, question count, time estimate, how many
 * answered, badges, genres. `answered` is what this device's person answered of it (undefined
 * for none, null while the device is read): its badge says new, continue or done.
 */
export function Brick({
  survey,
  answered,
}: {
  survey: SurveySummary;
  answered: ReadonlySet<string> | undefined | null;
}) {
  const size = brickSizeOf(survey.variant);
  // The offset the server drew the page with, if it did: the cover stays put when the app starts.
  const position = useMemo(
    () => embeddedBrickPosition(survey.gid) ?? backgroundPosition(size),
    [survey.gid, size],
  );
  const closed = survey.status === 'Closed';
  const covered = Boolean(survey.cover_image);
  const known = answered !== null;
  // One question of each honesty-gap pair is asked (decision 029): the one answered, if any.
  const asked = onePerPair(survey.questions, undefined, answered ?? new Set<string>());
  const progress = known ? progressOf(asked, answered) : null;
  const label = progress && progressLabel(progress, closed);
  const time = timeLabel(asked, answered ?? undefined, closed);
  const people = peopleLabel(survey.respondents);
  const count = `${survey.questions_count} ${survey.questions_count === 1 ? 'question' : 'questions'}`;
  return (
    <li
      className={`brick brick--${size}${closed ? ' brick--closed' : ''}${covered ? '' : ' brick--uncovered'}`}
      data-tone={covered ? undefined : toneOf(survey.gid)}
    >
      <Link
        to={`/surveys/${survey.gid}`}
        className="brick__link"
        style={{
          backgroundImage: survey.cover_image ? `url("${survey.cover_image}")` : undefined,
          backgroundPosition: position,
        }}
      >
        {covered ? null : (
          <span className="brick__mark" aria-hidden="true">
            ?
          </span>
        )}
        <span className="brick__badges">
          {/* From this device's records, read after the first paint (the server cannot know). */}
          {progress && label ? (
            <span className={`badge badge--${progress.kind} brick__state`} data-device="">
              <span aria-hidden="true">{label.text}</span>
              <span className="visually-hidden">{label.spoken}</span>
            </span>
          ) : null}
          {closed ? <span className="badge badge--closed">Closed · results only</span> : null}
        </span>
        <span className="brick__body">
          <span className="brick__name">{survey.name}</span>
          <span className="brick__headline">{survey.cover_headline}</span>
          <span className="brick__meta">
            <span>{time ? `${count} · ${time}` : count}</span>
          </span>
          {people ? <span className="brick__people">{people}</span> : null}
          {survey.genres.length ? (
            <span className="brick__genres">
              {survey.genres.map((g) => g.genre_name).join(' · ')}
            </span>
          ) : null}
        </span>
        {progress?.kind === 'continue' && !closed ? (
          <span className="brick__progress" aria-hidden="true" data-device="">
            <span style={{ width: `${(100 * progress.answered) / progress.total}%` }} />
          </span>
        ) : null}
      </Link>
    </li>
  );
}
