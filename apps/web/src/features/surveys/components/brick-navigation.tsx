import { type SurveySummary, promotedOnHome } from '@candor/contracts';
import { type MouseEvent, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useDeviceAnswers } from '../lib/use-device-answers';
import { Brick } from './brick';
import '../styles/surveys.css';

/**
 * The home page's bricks in slot order, with a genre filter kept in the URL (?genre=...); each
 * says where this device's person stands with its survey once the device's records are read.
 */
export function BrickNavigation({ surveys: listed }: { surveys: SurveySummary[] }) {
  const surveys = useMemo(() => listed.filter(promotedOnHome), [listed]);
  const [params, setParams] = useSearchParams();
  const selected = params.get('genre');
  // What this device's person answered (never asked of the API: decision 020); null at first.
  const answered = useDeviceAnswers();

  const genres = useMemo(() => {
    const byId = new Map(surveys.flatMap((s) => s.genres).map((g) => [g.unique_GID, g]));
    return [...byId.values()].sort((a, b) => a.genre_name.localeCompare(b.genre_name));
  }, [surveys]);

  const shown = useMemo(
    () =>
      [...surveys]
        .filter((s) => !selected || s.genres.some((g) => g.genre_name === selected))
        .sort((a, b) => a.slot - b.slot),
    [surveys, selected],
  );

  const choose = (genre: string | null) =>
    setParams(genre ? { genre } : {}, { replace: true, preventScrollReset: true });
  // Each choice is a form's submit button: on the page as the server drew it, before the app
  // runs, a tap loads the page filtered (?genre=); once the app runs, it filters in place.
  const pick = (genre: string | null) => (event: MouseEvent) => {
    event.preventDefault();
    choose(genre);
  };

  return (
    <section aria-labelledby="surveys-heading" className="surveys">
      <div className="surveys__head">
        <h2 id="surveys-heading">Surveys</h2>
        <form method="get" action="/" className="genre-form">
          <div className="genre-filter" role="group" aria-label="Filter by genre">
            <button type="submit" name="genre" aria-pressed={!selected} onClick={pick(null)}>
              All
            </button>
            {genres.map((g) => {
              const next = selected === g.genre_name ? null : g.genre_name;
              return (
                <button
                  key={g.unique_GID}
                  type="submit"
                  name="genre"
                  value={next ?? undefined}
                  aria-pressed={selected === g.genre_name}
                  onClick={pick(next)}
                >
                  {g.genre_name}
                </button>
              );
            })}
          </div>
        </form>
      </div>
      {shown.length ? (
        <ul className="bricks">
          {shown.map((s) => (
            <Brick
              key={s.gid}
              survey={s}
              answered={answered === null ? null : answered.get(s.gid)}
            />
          ))}
        </ul>
      ) : (
        <p className="empty">
          No survey in this genre yet.{' '}
          <button type="button" className="link-button" onClick={() => choose(null)}>
            Show all surveys
          </button>
        </p>
      )}
    </section>
  );
}
