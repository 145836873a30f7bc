import { createPairCache } from '../../lib/pair-cache.js';
import type { RespondentIds } from '../respondents/respondent-ids.js';
import type { AnswersRepository } from './answers.repository.js';

/** Answers remembered as existing, per process: 2^18 slots, 2 MiB allocated at start. */
const ANSWERED_CACHE_BITS = 18;

/**
 * "Did this member answer this question?": results are shown only after answering, and
 * answering remembers each answer it stores. Its own small module, built before both services
 * and given to each: answers depend on results (the graph after an answer), so results could
 * not ask the answers service without a late-bound loop between the two.
 */
export function createAnswered(
  repo: Pick<AnswersRepository, 'findAnswer'>,
  respondentIds: Pick<RespondentIds, 'find'>,
) {
  // Answers known to exist (respondent id, question id): an answer is never taken back while its
  // member exists, so results can check "answered first?" without a query. Fixed size: a newer
  // pair may take an older one's place (then the query answers), never claim it.
  const known = createPairCache(ANSWERED_CACHE_BITS);

  return {
    /** An answer of the respondent to the question was stored (or found). */
    remember(respondentId: number, questionId: number): void {
      known.add(respondentId, questionId);
    },

    /** Whether the member answered the question (results are shown only after answering). */
    async hasAnswered(uuid: string, questionId: number): Promise<boolean> {
      const respondentId = await respondentIds.find(uuid);
      if (respondentId === undefined) return false;
      if (known.has(respondentId, questionId)) return true;
      const found = (await repo.findAnswer(respondentId, questionId)) !== undefined;
      if (found) known.add(respondentId, questionId);
      return found;
    },
  };
}

export type Answered = ReturnType<typeof createAnswered>;
