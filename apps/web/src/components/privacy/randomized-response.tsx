import { LEAVE_BLANK_CHOICE, rrCertaintyCap, type Question } from '@candor/contracts';
import './randomized-response.css';

/** The gap between the die's sides (randomized-response.css, `.rr-die`). */
const GAP_PX = 3;

/** The design of a randomized-response question as people read it: its die and its odds. */
export function rrDie(question: Pick<Question, 'choices' | 'rr_weight'>) {
  if (question.rr_weight === null) return null;
  const answers = question.choices.filter((c) => c !== LEAVE_BLANK_CHOICE).length;
  const weight = question.rr_weight;
  const sides = weight + answers - 1;
  const design = { choices: answers, weight };
  return {
    weight,
    sides,
    others: answers - 1,
    /** The most anyone holding what was sent can be sure of a person's answer, in whole %. */
    cap: Math.round(rrCertaintyCap(design) * 100),
  };
}

/** Under a graph of a randomized-response question: why its shares are estimates. */
export function rrResultsNote(question: Pick<Question, 'choices' | 'rr_weight'>): string | null {
  const die = rrDie(question);
  if (!die) return null;
  return `Estimated: each phone sent its person’s answer ${die.weight} times in ${die.sides} and otherwise another one at random, so nobody’s answer is known, not even to Candor. These shares are worked back from what was sent, so their margins are wider.`;
}

/**
 * The explainer of a randomized-response question, shown with it before anything is answered
 * (decision 028): the die the phone rolls, drawn as its sides (the person's own answer on
 * `weight` of them, each other answer on one), with a marker that rolls over them (still for
 * anyone who asked for reduced motion). Folded to one line under the question until tapped, so
 * the answers stay where a thumb expects them.
 */
export function RrExplainer({ question }: { question: Pick<Question, 'choices' | 'rr_weight'> }) {
  const die = rrDie(question);
  if (!die) return null;
  return (
    <details className="rr-explainer">
      <summary className="rr-explainer__summary">
        <span className="rr-explainer__badge" aria-hidden="true">
          ⚄
        </span>
        Private even from us: your phone may send another answer
      </summary>
      <div className="rr-explainer__body">
        <div
          className="rr-die"
          style={{ gridTemplateColumns: `repeat(${die.sides}, 1fr)` }}
          aria-hidden="true"
        >
          {Array.from({ length: die.sides }, (_, i) => (
            <span
              key={i}
              className={`rr-die__side${i < die.weight ? ' rr-die__side--yours' : ''}`}
            />
          ))}
          <span
            className="rr-die__marker"
            style={{
              // One side wide (the sides are 3px apart), stopping on each side in turn.
              width: `calc((100% - ${(die.sides - 1) * GAP_PX}px) / ${die.sides})`,
              animationTimingFunction: `steps(${die.sides}, jump-none)`,
            }}
          />
        </div>
        <p>
          Before your answer leaves this phone, the phone rolls a {die.sides}-sided die. On{' '}
          {die.weight} sides it sends your answer; on each of the other {die.others}, another answer
          instead. Your own answer stays on your devices and in your encrypted vault, for your
          mirror.
        </p>
        <p>
          So what was sent proves nothing about you: whoever holds it, Candor included, can be at
          most {die.cap}% sure of your answer without other clues. Across many people the swaps even
          out, and the results estimate the true shares. Leaving it blank is sent as it is.
        </p>
      </div>
    </details>
  );
}
