import { LEAVE_BLANK_CHOICE, rrReport, type Question } from '@candor/contracts';

const RANGE = 2 ** 32;

/**
 * A uniform whole number in [0, max) from the browser's cryptographically secure source
 * (`crypto.getRandomValues`), by rejection: values of the last, partial block of `max` are
 * drawn again, so no outcome is favoured by the modulo.
 */
export function secureRandomInt(max: number): number {
  if (!Number.isInteger(max) || max < 1 || max > RANGE) throw new RangeError('1 <= max <= 2^32');
  const limit = RANGE - (RANGE % max);
  const word = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(word);
    if (word[0]! < limit) return word[0]! % max;
  }
}

/**
 * The choice the device sends for the person's `choice` (decision 028). An ordinary question
 * sends it as it is. A randomized-response question draws, here and once, the choice to send:
 * the person's own with weight m, each other with weight 1. Leaving blank is sent as it is.
 * The person's own choice stays on this device (its answered-questions table and the member's
 * encrypted vault), for their mirror; it is never sent.
 */
export function choiceToSend(
  question: Pick<Question, 'choices' | 'rr_weight'>,
  choice: string,
  randomInt: (max: number) => number = secureRandomInt,
): string {
  if (question.rr_weight === null || choice === LEAVE_BLANK_CHOICE) return choice;
  const answers = question.choices.filter((c) => c !== LEAVE_BLANK_CHOICE);
  const truth = answers.indexOf(choice);
  // Never send a choice undrawn: one the question does not have is refused, not passed on.
  if (truth < 0) throw new RangeError('not one of the question’s answers');
  const sent = rrReport(truth, { choices: answers.length, weight: question.rr_weight }, randomInt);
  return answers[sent]!;
}
