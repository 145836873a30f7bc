import { and, asc, count, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { answers, questions, surveys } from '../../db/schema.js';

/**
 * What the API still reads of stored answers by itself: the moderators' queue of written
 * answers. Answers are written by the mixer (credentials.repository.ts). Drizzle only.
 */
export function createAnswersRepository(db: Db) {
  return {
    /** Written answers with the given moderation, oldest first: the moderators' queue. */
    async listForModeration(
      status: 'pending' | 'approved' | 'hidden',
      offset: number,
      limit: number,
    ) {
      const where = and(eq(answers.moderation, status), isNotNull(answers.text));
      const [rows, [total]] = await Promise.all([
        db
          .select({
            id: answers.id,
            qid: questions.qid,
            question: questions.text,
            survey: surveys.name,
            text: answers.text,
            answeredOn: answers.answeredOn,
            moderation: answers.moderation,
          })
          .from(answers)
          .innerJoin(questions, eq(questions.id, answers.questionId))
          .innerJoin(surveys, eq(surveys.id, questions.surveyId))
          .where(where)
          .orderBy(asc(answers.answeredOn), asc(answers.id))
          .offset(offset)
          .limit(limit),
        db.select({ n: count() }).from(answers).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** Approves or hides a written answer; false when there is no such written answer. */
    async setModeration(id: number, status: 'approved' | 'hidden'): Promise<boolean> {
      const rows = await db
        .update(answers)
        .set({ moderation: status })
        .where(and(eq(answers.id, id), isNotNull(answers.moderation)))
        .returning({ id: answers.id });
      return rows.length === 1;
    },
  };
}

export type AnswersRepository = ReturnType<typeof createAnswersRepository>;
