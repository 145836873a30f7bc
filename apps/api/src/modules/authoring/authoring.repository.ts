import { and, asc, count, eq, inArray, isNotNull, isNull, max, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { choices, genres, images, questions, surveyGenres, surveys } from '../../db/schema.js';
import { MIX_LOCK } from '../credentials/credentials.repository.js';
import { RESULTS_LOCK } from '../results/results.repository.js';

/** Both drivers answer `{rows}` (node-postgres and PGlite). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export type SurveyValues = Omit<
  typeof surveys.$inferInsert,
  'id' | 'gid' | 'slug' | 'publishedAt' | 'closedAt' | 'archivedAt' | 'createdAt' | 'updatedAt'
>;
export type QuestionValues = Omit<
  typeof questions.$inferInsert,
  'id' | 'qid' | 'surveyId' | 'position' | 'submittedAt' | 'createdAt' | 'updatedAt'
>;
/** A question as the honesty-gap pairs are checked. */
export interface PairQuestion {
  id: number;
  qid: string;
  position: number;
  type: 'Closed' | 'Open';
  rrWeight: number | null;
  twinId: number | null;
  labels: string[];
}
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Taken by every change of the bricks' slots, so two changes cannot both take one slot: a row
 * inserted by the other transaction is invisible to an UPDATE's snapshot, so row locks alone
 * would still let two new surveys tie.
 */
export const SLOT_LOCK = 727_010;

/** Survey authoring: Drizzle only; every multi-row change is one transaction. */
export function createAuthoringRepository(db: Db) {
  /** Genre ids of the gids given; unknown gids are left out (the service compares lengths). */
  async function genreIds(tx: Tx | Db, gids: string[]): Promise<number[]> {
    if (!gids.length) return [];
    const rows = await tx.select({ id: genres.id }).from(genres).where(inArray(genres.gid, gids));
    return rows.map((r) => r.id);
  }

  async function setGenres(tx: Tx, surveyId: number, ids: number[]) {
    await tx.delete(surveyGenres).where(eq(surveyGenres.surveyId, surveyId));
    if (ids.length)
      await tx.insert(surveyGenres).values(ids.map((genreId) => ({ surveyId, genreId })));
  }

  /**
   * Makes room at `slot` for survey `self` (none when new): if another survey holds it, that one
   * and every later one move down by one, so a slot given is never a tie.
   */
  async function makeRoom(tx: Tx, slot: number, self?: number) {
    const others = self === undefined ? sql`true` : sql`${surveys.id} <> ${self}`;
    const [taken] = await tx
      .select({ id: surveys.id })
      .from(surveys)
      .where(and(eq(surveys.slot, slot), others))
      .limit(1);
    if (!taken) return;
    await tx
      .update(surveys)
      .set({ slot: sql`${surveys.slot} + 1` })
      .where(and(sql`${surveys.slot} >= ${slot}`, others));
  }

  /** Replaces a question's choices by labels, in order; rows whose label stays are kept. */
  async function setChoices(tx: Tx, questionId: number, labels: string[], blank: string | null) {
    const wanted = blank === null ? labels : [...labels, blank];
    // Positions are unique per question and checked row by row: park them at their negatives.
    const current = await tx
      .select({ id: choices.id, label: choices.label })
      .from(choices)
      .where(eq(choices.questionId, questionId));
    const gone = current.filter((c) => !wanted.includes(c.label)).map((c) => c.id);
    // Answers refer to choices without cascading: removing an answered choice fails here (23503).
    if (gone.length) await tx.delete(choices).where(inArray(choices.id, gone));
    await tx
      .update(choices)
      .set({ position: sql`-${choices.position}` })
      .where(eq(choices.questionId, questionId));
    const kept = new Map(current.map((c) => [c.label, c.id]));
    for (const [i, label] of wanted.entries()) {
      const values = { position: i + 1, isBlank: label === blank };
      const id = kept.get(label);
      if (id !== undefined && !gone.includes(id)) {
        await tx.update(choices).set(values).where(eq(choices.id, id));
      } else {
        await tx.insert(choices).values({ questionId, label, ...values });
      }
    }
  }

  return {
    genreIds: (gids: string[]) => genreIds(db, gids),

    /** Every survey, in home-page order, with its questions' ids. */
    async listSurveys() {
      return db
        .select({
          survey: surveys,
          // Spelled out: Drizzle leaves a single table's columns unqualified.
          questionIds: sql<
            number[]
          >`array(select q.id from questions q where q.survey_id = surveys.id)`,
        })
        .from(surveys)
        .orderBy(asc(surveys.slot), asc(surveys.id));
    },

    async findSurvey(gid: string) {
      const [survey] = await db.select().from(surveys).where(eq(surveys.gid, gid));
      if (!survey) return undefined;
      const [genreRows, questionRows, choiceRows] = await Promise.all([
        db
          .select({ genre: genres })
          .from(surveyGenres)
          .innerJoin(genres, eq(genres.id, surveyGenres.genreId))
          .where(eq(surveyGenres.surveyId, survey.id))
          .orderBy(asc(genres.name)),
        db
          .select()
          .from(questions)
          .where(eq(questions.surveyId, survey.id))
          .orderBy(asc(questions.position)),
        db
          .select({ choice: choices })
          .from(choices)
          .innerJoin(questions, eq(questions.id, choices.questionId))
          .where(eq(questions.surveyId, survey.id))
          .orderBy(asc(choices.questionId), asc(choices.position)),
      ]);
      return {
        survey,
        genres: genreRows.map((r) => r.genre),
        questions: questionRows,
        choices: choiceRows.map((r) => r.choice),
      };
    },

    /**
     * A question and its survey, locked for update inside `tx`: the survey row first (as adding
     * and reordering questions do), then the question, so concurrent edits wait, never deadlock.
     * A concurrent answer waits too (its foreign key check needs the question row).
     */
    async lockQuestion(tx: Tx, qid: string) {
      const [ref] = await tx
        .select({ surveyId: questions.surveyId })
        .from(questions)
        .where(eq(questions.qid, qid));
      if (!ref) return undefined;
      const [survey] = await tx
        .select({ gid: surveys.gid, publishedAt: surveys.publishedAt })
        .from(surveys)
        .where(eq(surveys.id, ref.surveyId))
        .for('update');
      const [question] = await tx
        .select()
        .from(questions)
        .where(eq(questions.qid, qid))
        .for('update');
      if (!survey || !question) return undefined;
      return { question, surveyGid: survey.gid, published: survey.publishedAt !== null };
    },

    /**
     * A survey's questions as the honesty-gap pairs are checked (decision 029): each with its
     * choices to pick from (the leave-blank choice left out), in the survey's order.
     */
    async pairContext(surveyId: number, tx: Tx | Db = db): Promise<PairQuestion[]> {
      const [rows, labels] = await Promise.all([
        tx
          .select({
            id: questions.id,
            qid: questions.qid,
            position: questions.position,
            type: questions.type,
            rrWeight: questions.rrWeight,
            twinId: questions.twinId,
          })
          .from(questions)
          .where(eq(questions.surveyId, surveyId))
          .orderBy(asc(questions.position)),
        tx
          .select({ questionId: choices.questionId, label: choices.label })
          .from(choices)
          .innerJoin(questions, eq(questions.id, choices.questionId))
          .where(and(eq(questions.surveyId, surveyId), eq(choices.isBlank, false)))
          .orderBy(asc(choices.questionId), asc(choices.position)),
      ]);
      return rows.map((q) => ({
        ...q,
        labels: labels.filter((l) => l.questionId === q.id).map((l) => l.label),
      }));
    },

    async choiceLabels(tx: Tx, questionId: number) {
      const rows = await tx
        .select({ label: choices.label })
        .from(choices)
        .where(eq(choices.questionId, questionId))
        .orderBy(asc(choices.position));
      return rows.map((r) => r.label);
    },

    transaction: <T>(work: (tx: Tx) => Promise<T>) => db.transaction(work),

    /** `closesAt`: a scheduled close (the survey is a draft until published, so never closed). */
    async createSurvey(
      values: SurveyValues & { slug: string; closesAt: Date | null },
      genreGids: string[],
    ) {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${SLOT_LOCK})`);
        if (values.slot !== undefined) await makeRoom(tx, values.slot);
        const [last] = await tx.select({ slot: max(surveys.slot) }).from(surveys);
        const [row] = await tx
          .insert(surveys)
          .values({
            ...values,
            closedAt: values.closesAt,
            slot: values.slot ?? (last?.slot ?? 0) + 1,
          })
          .returning({ id: surveys.id, gid: surveys.gid });
        await setGenres(tx, row!.id, await genreIds(tx, genreGids));
        return row!.gid;
      });
    },

    /**
     * Saves the survey's content. `close`, when given, sets the scheduled close (`closesAt`) only
     * if `closed_at` is still what the caller read (`read`): a close, a reopen or another schedule
     * saved since wins, whatever either process's clock says (the row decides, not a read that
     * can go stale). Without `close` (a closed survey), `closed_at` is left as it is.
     */
    async updateSurvey(
      gid: string,
      values: SurveyValues,
      genreGids: string[],
      close?: { read: Date | null; closesAt: Date | null },
    ) {
      return db.transaction(async (tx) => {
        if (values.slot !== undefined) {
          await tx.execute(sql`select pg_advisory_xact_lock(${SLOT_LOCK})`);
          const [self] = await tx
            .select({ id: surveys.id })
            .from(surveys)
            .where(eq(surveys.gid, gid));
          if (self) await makeRoom(tx, values.slot, self.id);
        }
        const iso = (d: Date | null) => d?.toISOString() ?? null;
        const [row] = await tx
          .update(surveys)
          .set({
            ...values,
            ...(close
              ? {
                  closedAt: sql`case when ${surveys.closedAt} is not distinct from
                                          ${iso(close.read)}::timestamptz
                                     then ${iso(close.closesAt)}::timestamptz
                                     else ${surveys.closedAt} end`,
                }
              : {}),
            updatedAt: new Date(),
          })
          .where(eq(surveys.gid, gid))
          .returning({ id: surveys.id });
        if (!row) return false;
        await setGenres(tx, row.id, await genreIds(tx, genreGids));
        return true;
      });
    },

    /** Archives a survey closed by `now` and not archived yet; false otherwise (the row decides). */
    async archive(gid: string, now: Date): Promise<boolean> {
      const done = await db
        .update(surveys)
        .set({ archivedAt: now, updatedAt: new Date() })
        .where(
          and(
            eq(surveys.gid, gid),
            isNull(surveys.archivedAt),
            sql`${surveys.closedAt} <= ${now.toISOString()}::timestamptz`,
          ),
        )
        .returning({ id: surveys.id });
      return done.length > 0;
    },

    /** Reopens a survey unless it is archived; false otherwise (the row decides). */
    async reopen(gid: string): Promise<boolean> {
      const done = await db
        .update(surveys)
        .set({ closedAt: null, updatedAt: new Date() })
        .where(and(eq(surveys.gid, gid), isNull(surveys.archivedAt)))
        .returning({ id: surveys.id });
      return done.length > 0;
    },

    /** Deletes a draft (never published: nothing was answered); false when none is left. */
    async deleteDraft(gid: string): Promise<boolean> {
      const gone = await db
        .delete(surveys)
        .where(and(eq(surveys.gid, gid), isNull(surveys.publishedAt)))
        .returning({ id: surveys.id });
      return gone.length > 0;
    },

    /**
     * Deletes a survey closed by `now` with everything answered to it (decision 010): its
     * questions, answers, ratings, timings, releases (tallies), credential keys and issuances and
     * panel completions go by cascade; the queue rows of its questions (no foreign key) and the
     * respondents left with nothing are deleted here. It takes the results lock (no fold is
     * counting its rows meanwhile) and the mix lock (no mix is writing into its questions; the
     * mixer drops what still waits for them). False when no such survey is left (the row decides:
     * a reopen meanwhile wins).
     */
    async deleteClosed(gid: string, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${RESULTS_LOCK})`);
        await tx.execute(sql`select pg_advisory_xact_lock(${MIX_LOCK})`);
        const [survey] = await tx
          .select({ id: surveys.id })
          .from(surveys)
          .where(
            and(
              eq(surveys.gid, gid),
              isNotNull(surveys.publishedAt),
              sql`${surveys.closedAt} <= ${now.toISOString()}::timestamptz`,
            ),
          )
          .for('update');
        if (!survey) return false;
        const asked = tx
          .select({ id: questions.id })
          .from(questions)
          .where(eq(questions.surveyId, survey.id));
        // Respondents are per survey (one per credential), but old and sample ones may have
        // answered others: only those left with nothing are deleted.
        // Its releases' rows, locked in the order a release locks them (question id), so the
        // cascade below never waits on a release that waits on it (a deadlock otherwise, with
        // questions reordered since they were made).
        await tx.execute(sql`
          select 1 from question_tallies where question_id in (${asked})
          order by question_id for update`);
        const touched = rowsOf<{ id: number }>(
          await tx.execute(sql`
            select respondent_id as id from answers where question_id in (${asked})
            union select respondent_id from ratings where question_id in (${asked})
            union select respondent_id from timings where question_id in (${asked})`),
        ).map((r) => r.id);
        await tx.execute(sql`delete from results_queue where question_id in (${asked})`);
        await tx.delete(surveys).where(eq(surveys.id, survey.id));
        if (touched.length) {
          await tx.execute(sql`
            delete from respondents r
            where r.id = any(${sql.param(touched)}::integer[])
              and not exists (select 1 from answers a where a.respondent_id = r.id)
              and not exists (select 1 from ratings x where x.respondent_id = r.id)
              and not exists (select 1 from timings t where t.respondent_id = r.id)`);
        }
        return true;
      });
    },

    async setDates(
      gid: string,
      dates: { publishedAt?: Date; closedAt?: Date | null; archivedAt?: Date | null },
    ) {
      await db
        .update(surveys)
        .set({ ...dates, updatedAt: new Date() })
        .where(eq(surveys.gid, gid));
    },

    async addQuestion(
      surveyGid: string,
      values: QuestionValues,
      labels: string[],
      blank: string | null,
    ) {
      return db.transaction(async (tx) => {
        // The survey row is locked so two additions cannot take the same position.
        const [survey] = await tx
          .select({ id: surveys.id })
          .from(surveys)
          .where(eq(surveys.gid, surveyGid))
          .for('update');
        if (!survey) return undefined;
        const [last] = await tx
          .select({ position: max(questions.position) })
          .from(questions)
          .where(eq(questions.surveyId, survey.id));
        const [row] = await tx
          .insert(questions)
          .values({ ...values, surveyId: survey.id, position: (last?.position ?? 0) + 1 })
          .returning({ id: questions.id, qid: questions.qid });
        await setChoices(tx, row!.id, labels, blank);
        return row!.qid;
      });
    },

    async updateQuestion(
      tx: Tx,
      questionId: number,
      values: QuestionValues,
      labels: string[],
      blank: string | null,
    ) {
      await tx
        .update(questions)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(questions.id, questionId));
      await setChoices(tx, questionId, labels, blank);
    },

    async deleteQuestion(tx: Tx, questionId: number, surveyId: number) {
      await tx.delete(questions).where(eq(questions.id, questionId));
      // Close the gap: positions stay 1..n.
      const rest = await tx
        .select({ id: questions.id })
        .from(questions)
        .where(eq(questions.surveyId, surveyId))
        .orderBy(asc(questions.position));
      await renumber(
        tx,
        questions,
        surveyId,
        rest.map((r) => r.id),
      );
    },

    /** Sets positions 1..n in the order of `ids` (every question of the survey). */
    async orderQuestions(surveyGid: string, qids: string[]) {
      return db.transaction(async (tx) => {
        const [survey] = await tx
          .select({ id: surveys.id })
          .from(surveys)
          .where(eq(surveys.gid, surveyGid))
          .for('update');
        if (!survey) return undefined;
        const rows = await tx
          .select({ id: questions.id, qid: questions.qid })
          .from(questions)
          .where(eq(questions.surveyId, survey.id));
        const idOf = new Map(rows.map((r) => [r.qid, r.id]));
        const complete = rows.length === qids.length && new Set(qids).size === qids.length;
        if (!complete || !qids.every((q) => idOf.has(q))) return false;
        await renumber(
          tx,
          questions,
          survey.id,
          qids.map((q) => idOf.get(q)!),
        );
        return true;
      });
    },

    /** Slots 1..n in the order given; surveys left out keep theirs, after the ones given. */
    async orderSurveys(gids: string[]) {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${SLOT_LOCK})`);
        const rows = await tx
          .select({ gid: surveys.gid })
          .from(surveys)
          .where(inArray(surveys.gid, gids));
        if (rows.length !== gids.length || new Set(gids).size !== gids.length) return false;
        // The others move after the ordered ones, keeping their relative order.
        await tx
          .update(surveys)
          .set({ slot: sql`${surveys.slot} + ${gids.length}` })
          .where(notInArray(surveys.gid, gids));
        for (const [i, gid] of gids.entries()) {
          await tx
            .update(surveys)
            .set({ slot: i + 1 })
            .where(eq(surveys.gid, gid));
        }
        return true;
      });
    },

    /** Which of these uploaded images' names (`<hash>.webp`) are stored here. */
    async storedImages(names: string[]): Promise<Set<string>> {
      if (!names.length) return new Set();
      const rows = await db
        .select({ name: images.name })
        .from(images)
        .where(inArray(images.name, names));
      return new Set(rows.map((r) => r.name));
    },

    async listGenres() {
      return db
        .select({ genre: genres, surveysCount: count(surveyGenres.surveyId) })
        .from(genres)
        .leftJoin(surveyGenres, eq(surveyGenres.genreId, genres.id))
        .groupBy(genres.id)
        .orderBy(asc(genres.name));
    },

    async findGenre(gid: string) {
      const [row] = await db
        .select({ genre: genres, surveysCount: count(surveyGenres.surveyId) })
        .from(genres)
        .leftJoin(surveyGenres, eq(surveyGenres.genreId, genres.id))
        .where(eq(genres.gid, gid))
        .groupBy(genres.id);
      return row;
    },

    async insertGenre(name: string) {
      const [row] = await db
        .insert(genres)
        .values({ name })
        .onConflictDoNothing({ target: genres.name })
        .returning({ gid: genres.gid });
      return row?.gid;
    },

    /** False when another genre has the name already (the unique index says so). */
    async renameGenre(gid: string, name: string) {
      const [clash] = await db
        .select({ gid: genres.gid })
        .from(genres)
        .where(and(eq(genres.name, name), sql`${genres.gid} <> ${gid}`));
      if (clash) return false;
      await db.update(genres).set({ name, updatedAt: new Date() }).where(eq(genres.gid, gid));
      return true;
    },

    async deleteGenre(gid: string) {
      const rows = await db.delete(genres).where(eq(genres.gid, gid)).returning({ id: genres.id });
      return rows.length > 0;
    },
  };
}

/**
 * Positions 1..n for the rows `ids` of one survey, in that order. Unique indexes are checked row
 * by row, so every position is first parked at its negative.
 */
async function renumber(tx: Tx, table: typeof questions, surveyId: number, ids: number[]) {
  await tx
    .update(table)
    .set({ position: sql`-${table.position}` })
    .where(eq(table.surveyId, surveyId));
  for (const [i, id] of ids.entries()) {
    await tx
      .update(table)
      .set({ position: i + 1 })
      .where(eq(table.id, id));
  }
}

export type AuthoringRepository = ReturnType<typeof createAuthoringRepository>;
export type AuthoringTx = Tx;
