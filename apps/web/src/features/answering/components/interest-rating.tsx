import { RATING_MAX, RATING_MIN } from '@candor/contracts';
import { useId } from 'react';

const scores = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

/** The question feedback: how interesting was it, 0 to 10, as one radio group. */
export function InterestRating({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (score: number) => void;
}) {
  const id = useId();
  return (
    <fieldset className="rating">
      <legend id={id}>How interesting was this question?</legend>
      <div className="rating__scale" role="radiogroup" aria-labelledby={id}>
        {scores.map((score) => (
          <label key={score} className="rating__option">
            <input
              type="radio"
              name={`${id}-score`}
              value={score}
              checked={value === score}
              onChange={() => onChange(score)}
            />
            <span>{score}</span>
          </label>
        ))}
      </div>
      <div className="rating__ends" aria-hidden="true">
        <span>Not at all</span>
        <span>Most interesting</span>
      </div>
    </fieldset>
  );
}
