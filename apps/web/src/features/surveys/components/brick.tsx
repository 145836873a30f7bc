import type { SurveySummary } from '@candor/contracts';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { embeddedBrickPosition } from '../../../lib/page-data';
import { backgroundPosition, brickSizeOf, toneOf } from '../lib/bricks';
import '../styles/surveys.css';

/** One survey in the brick navigation: cover, headline, question count, badges, genres. */
export function Brick({ survey }: { survey: SurveySummary }) {
  const size = brickSizeOf(survey.variant);
  // The offset the server drew the page with, if it did: the cover stays put when the app starts.
  const position = useMemo(
    () => embeddedBrickPosition(survey.gid) ?? backgroundPosition(size),
    [survey.gid, size],
  );
  const closed = survey.status === 'Closed';
  const covered = Boolean(survey.cover_image);
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
          {survey.is_within_24_hours ? <span className="badge badge--new">New</span> : null}
          {closed ? <span className="badge badge--closed">Closed · results only</span> : null}
        </span>
        <span className="brick__body">
          <span className="brick__name">{survey.name}</span>
          <span className="brick__headline">{survey.cover_headline}</span>
          <span className="brick__meta">
            <span>
              {survey.questions_count} {survey.questions_count === 1 ? 'question' : 'questions'}
            </span>
            {survey.genres.length ? (
              <span className="brick__genres">
                {survey.genres.map((g) => g.genre_name).join(' · ')}
              </span>
            ) : null}
          </span>
        </span>
      </Link>
    </li>
  );
}
