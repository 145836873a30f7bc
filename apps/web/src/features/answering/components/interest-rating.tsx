import { RATING_MAX, RATING_MIN } from '@candor/contracts';
import { useId, useRef } from 'react';

const scores = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

/** How a score was picked: a tap, a click, Space or a digit key go on; arrow keys only move. */
export type RatingPick = 'pick' | 'move';

const MOVE_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Up',
  'Down',
  'Left',
  'Right',
  'Home',
  'End',
]);

/**
 * The question feedback: how interesting was it, 0 to 10, as one radio group. Each score is a
 * target of at least 44 x 44 px. Arrow keys move through the scores as in any radio group
 * without going on; a tap or Space picks.
 */
export function InterestRating({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (score: number, how: RatingPick) => void;
}) {
  const id = useId();
  // The browser checks the next radio on an arrow key: that change is a move, not a pick.
  const moving = useRef(false);
  return (
    <fieldset className="rating">
      <legend id={id}>How interesting was this question?</legend>
      <div
        className="rating__scale"
        role="radiogroup"
        aria-labelledby={id}
        onKeyDown={(e) => {
          moving.current = MOVE_KEYS.has(e.key);
        }}
        onPointerDown={() => {
          moving.current = false;
        }}
      >
        {scores.map((score) => (
          <label key={score} className="rating__option">
            <input
              type="radio"
              name={`${id}-score`}
              value={score}
              checked={value === score}
              onChange={() => {
                onChange(score, moving.current ? 'move' : 'pick');
                moving.current = false;
              }}
              // The score already chosen (by the arrows) fires no change: a tap on it picks it.
              onClick={() => {
                if (value === score && !moving.current) onChange(score, 'pick');
              }}
            />
            <span>{score}</span>
          </label>
        ))}
      </div>
      <div className="rating__ends" aria-hidden="true">
        <span>
          <b>{RATING_MIN}</b> Not at all
        </span>
        <span>
          <b>{RATING_MAX}</b> Most interesting
        </span>
      </div>
    </fieldset>
  );
}
