import { and, asc, count, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { answerIdDefault, answers, choices, questions, ratings, surveys } from '../../db/schema.js';
import { groupCommit } from '../../lib/group-commit.js';

export type NewAnswer = Omit<typeof answers.$inferInsert, 'id'>;
export type StoredAnswer = Pick<
  typeof answers.$inferSelect,
  'choiceId' | 'text' | 'isBlank' | 'answeredOn' | 'idempotencyKey'
>;

/**
 * Group commit of answers (lib/group-commit.ts): the answers that arrive while `inFlight`
 * batches are being written leave together in the next, one multi-row INSERT and one commit of
 * at most `maxRows`, each request answered once its commit is done. `maxRows` 1: one statement
 * per answer.
 */
export interface AnswerBatching {
  maxRows: number;
  inFlight: number;
}

const NO_BATCHING: AnswerBatching = { maxRows: 1, inFlight: 1 };

/** Answers, ratings and timings: Drizzle only. */
export function createAnswersRepository(db: Db, batching: AnswerBatching = NO_BATCHING) {
  // The hot path: one prepared statement, no transaction, no counter (a fold counts it later).
  const insertAnswer = db
    .insert(answers)
    .values({
      respondentId: sql.placeholder('respondentId'),
      questionId: sql.placeholder('questionId'),
      choiceId: sql.placeholder('choiceId'),
      text: sql.placeholder('text'),
      isBlank: sql.placeholder('isBlank'),
      answeredOn: sql.placeholder('answeredOn'),
      idempotencyKey: sql.placeholder('idempotencyKey'),
      moderation: sql.placeholder('moderation'),
    })
    .onConflictDoNothing({ target: [answers.respondentId, answers.questionId] })
    .returning({ id: answers.id })
    .prepare('insert_answer');

  const findAnswer = db
    .select({
      choiceId: answers.choiceId,
      text: answers.text,
      isBlank: answers.isBlank,
      answeredOn: answers.answeredOn,
      idempotencyKey: answers.idempotencyKey,
    })
    .from(answers)
    .where(
      and(
        eq(answers.respondentId, sql.placeholder('respondentId')),
        eq(answers.questionId, sql.placeholder('questionId')),
      ),
    )
    .prepare('find_answer');

  // A batch of any size in one prepared statement: eight array parameters, one row per element
  // (the statement's text and plan stay the same whatever the batch size). The columns follow the
  // table's order, the id first, drawn as the table's default draws it.
  const insertMany = db
    .insert(answers)
    .select(
      sql`SELECT ${answerIdDefault}, * FROM unnest(
        ${sql.placeholder('respondentIds')}::integer[], ${sql.placeholder('questionIds')}::integer[],
        ${sql.placeholder('choiceIds')}::integer[], ${sql.placeholder('texts')}::text[],
        ${sql.placeholder('blanks')}::boolean[], ${sql.placeholder('days')}::date[],
        ${sql.placeholder('idempotencyKeys')}::text[],
        ${sql.placeholder('moderations')}::text[]::moderation_status[])`,
    )
    .onConflictDoNothing({ target: [answers.respondentId, answers.questionId] })
    .returning({ respondentId: answers.respondentId, questionId: answers.questionId })
    .prepare('insert_answers');

  /** One answer, one statement: true if stored (false: the member answered it already). */
  async function insertOne(values: NewAnswer): Promise<boolean> {
    const rows = await insertAnswer.execute({
      respondentId: values.respondentId,
      questionId: values.questionId,
      choiceId: values.choiceId ?? null,
      text: values.text ?? null,
      isBlank: values.isBlank,
      answeredOn: values.answeredOn,
      idempotencyKey: values.idempotencyKey ?? null,
      moderation: values.moderation ?? null,
    });
    return rows.length === 1;
  }

  /**
   * A batch of answers in one INSERT ... ON CONFLICT DO NOTHING: each is stored unless its
   * member answered the question already, before or earlier in the batch (a second answer to
   * the same question in one batch is a conflict, as it would be a moment later). When the
   * statement fails (a row refers to something gone), each answer is written alone, so one
   * bad row fails only its own request.
   */
  async function insertBatch(batch: readonly NewAnswer[]): Promise<Array<boolean | Error>> {
    const keyOf = (v: NewAnswer) => `${v.respondentId}:${v.questionId}`;
    const first = new Map<string, number>();
    batch.forEach((v, i) => first.has(keyOf(v)) || first.set(keyOf(v), i));
    const unique = [...first.values()].map((i) => batch[i]!);
    try {
      const stored = await insertMany.execute({
        respondentIds: unique.map((v) => v.respondentId),
        questionIds: unique.map((v) => v.questionId),
        choiceIds: unique.map((v) => v.choiceId ?? null),
        texts: unique.map((v) => v.text ?? null),
        blanks: unique.map((v) => v.isBlank),
        days: unique.map((v) => v.answeredOn),
        idempotencyKeys: unique.map((v) => v.idempotencyKey ?? null),
        moderations: unique.map((v) => v.moderation ?? null),
      });
      const storedKeys = new Set(stored.map((r) => `${r.respondentId}:${r.questionId}`));
      return batch.map((v, i) => first.get(keyOf(v)) === i && storedKeys.has(keyOf(v)));
    } catch {
      const alone = await Promise.all(
        unique.map((v) => insertOne(v).catch((err: unknown) => err as Error)),
      );
      const byKey = new Map(unique.map((v, i) => [keyOf(v), alone[i]!]));
      return batch.map((v, i) => (first.get(keyOf(v)) === i ? byKey.get(keyOf(v))! : false));
    }
  }

  const writer = batching.maxRows > 1 ? groupCommit(insertBatch, batching) : undefined;

  return {
    /** Stores the answer unless the respondent already answered the question: true if stored. */
    insertAnswer: (values: NewAnswer): Promise<boolean> =>
      writer ? writer(values) : insertOne(values),

    async findAnswer(respondentId: number, questionId: number): Promise<StoredAnswer | undefined> {
      const [row] = await findAnswer.execute({ respondentId, questionId });
      return row;
    },

    /** One respondent's answers, newest first, with the public ids and the choice label. */
    async listAnswers(respondentId: number, offset: number, limit: number) {
      const [rows, [total]] = await Promise.all([
        db
          .select({
            qid: questions.qid,
            gid: surveys.gid,
            label: choices.label,
            text: answers.text,
            isBlank: answers.isBlank,
            answeredOn: answers.answeredOn,
          })
          .from(answers)
          .innerJoin(questions, eq(questions.id, answers.questionId))
          .innerJoin(surveys, eq(surveys.id, questions.surveyId))
          .leftJoin(choices, eq(choices.id, answers.choiceId))
          .where(eq(answers.respondentId, respondentId))
          .orderBy(desc(answers.answeredOn), desc(questions.surveyId), desc(questions.position))
          .offset(offset)
          .limit(limit),
        db.select({ n: count() }).from(answers).where(eq(answers.respondentId, respondentId)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** All of one respondent's answers with their question, survey and rating: the mirror. */
    async mirrorRows(respondentId: number) {
      return db
        .select({
          qid: questions.qid,
          question: questions.text,
          type: questions.type,
          gid: surveys.gid,
          survey: surveys.name,
          choiceId: answers.choiceId,
          label: choices.label,
          text: answers.text,
          isBlank: answers.isBlank,
          answeredOn: answers.answeredOn,
          score: ratings.score,
        })
        .from(answers)
        .innerJoin(questions, eq(questions.id, answers.questionId))
        .innerJoin(surveys, eq(surveys.id, questions.surveyId))
        .leftJoin(choices, eq(choices.id, answers.choiceId))
        .leftJoin(
          ratings,
          and(
            eq(ratings.respondentId, answers.respondentId),
            eq(ratings.questionId, answers.questionId),
          ),
        )
        .where(eq(answers.respondentId, respondentId))
        .orderBy(desc(answers.answeredOn), desc(questions.surveyId), desc(questions.position));
    },

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

    /** Sets (or changes) a rating, only where the respondent answered the question. */
    async upsertRating(
      respondentId: number,
      questionId: number,
      score: number,
    ): Promise<number | undefined> {
      const [row] = await db
        .insert(ratings)
        .select(
          db
            .select({
              respondentId: answers.respondentId,
              questionId: answers.questionId,
              score: sql<number>`${score}::smallint`.as('score'),
              countedScore: sql<number | null>`null::smallint`.as('counted_score'),
            })
            .from(answers)
            .where(and(eq(answers.respondentId, respondentId), eq(answers.questionId, questionId))),
        )
        .onConflictDoUpdate({
          target: [ratings.respondentId, ratings.questionId],
          set: { score: sql`excluded.score` },
        })
        .returning({ score: ratings.score });
      return row?.score;
    },
  };
}

export type AnswersRepository = ReturnType<typeof createAnswersRepository>;
