import type { PairQuestion } from './authoring.repository.js';

/**
 * The honesty gap's pairs (decision 029): a randomized-response question may ask an ordinary
 * question of its survey again, with the same choices, so each respondent is asked one of the
 * two and the results compare them. These are the rules a pair must keep; each problem is said
 * to the author in words, never as a code.
 */

const sameChoices = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((label) => b.includes(label));

/**
 * Why `self` (a randomized question as it would be saved, `id` null while new) cannot ask
 * `twinQid` again among the survey's `questions` as they stand; null when it can.
 */
export function twinProblem(
  self: { id: number | null; labels: readonly string[] },
  twinQid: string,
  questions: readonly PairQuestion[],
): string | null {
  const target = questions.find((q) => q.qid === twinQid.toLowerCase());
  if (!target) return 'Pick a question of this survey.';
  if (target.id === self.id) return 'A question cannot ask itself again: pick another.';
  if (target.type !== 'Closed' || target.rrWeight !== null) {
    return `Pick an ordinary question with choices: question ${target.position} is asked directly in the pair.`;
  }
  if (questions.some((q) => q.twinId === target.id && q.id !== self.id)) {
    return `Question ${target.position} is asked again by another question already.`;
  }
  if (self.id !== null && questions.some((q) => q.twinId === self.id)) {
    return 'Another question asks this one again, so it stays an ordinary question.';
  }
  if (!sameChoices(self.labels, target.labels)) {
    return `Give both questions the same choices as question ${target.position}: the gap compares each answer's share.`;
  }
  return null;
}

/** Every pair's problem in a survey, said with the randomized question's number (for publishing). */
export function pairProblems(questions: readonly PairQuestion[]): string[] {
  return questions.flatMap((q) => {
    if (q.twinId === null) return [];
    const twin = questions.find((t) => t.id === q.twinId);
    const problem = twin
      ? twinProblem({ id: q.id, labels: q.labels }, twin.qid, questions)
      : 'Pick a question of this survey.';
    return problem ? [`Question ${q.position}: ${problem}`] : [];
  });
}
