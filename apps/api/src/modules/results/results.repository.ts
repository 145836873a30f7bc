import { type SQL, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { questionTallies } from '../../db/schema.js';
import { type Pending, type Snapshot, heldChange } from './privacy.js';

/** Most rows one fold takes from the queue (the next tick takes the rest). */
export const FOLD_BATCH = 5000;
/** Sample answers shown per open question. */
const SAMPLES = 5;

/**
 * Folds take this advisory lock shared; a respondent starting or stopping to count takes it
 * exclusively, so its answers are never counted twice or half-withdrawn by a fold in between.
 */
export const RESULTS_LOCK = 727_001;

/** Both drivers answer `{rows}` (node-postgres and PGlite). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * One thing to count (or to take out): an answer (`choiceId` or `isBlank`, `text`), a rating
 * (`score`) or an answer time (`durationMs`) of a counting respondent, with its sealed profile.
 */
export interface CountedRow {
  respondentId: number;
  questionId: number;
  kind: 'answer' | 'rating' | 'timing';
  profile: string;
  choiceId: number | null;
  isBlank: boolean | null;
  text: string | null;
  score: number | null;
  durationMs: number | null;
}

/**
 * A pending increment as stored: its count of entering answers in clear (triggers() reads it in
 * SQL each tick), the rest sealed with the profile key (results.service.ts), so a copy of the
 * database shows no open period's counts by gender, age band or country. Written before
 * sealing: a plain `Pending`, opened as it is and sealed at its next write.
 */
export type StoredPending = { events: number; sealed: string } | Pending;

/** The privacy rules the repository applies inside its transactions (results.service.ts). */
export interface Counting {
  /** Each question's pending change from counted rows (+1 entering, -1 leaving). */
  toPending(rows: CountedRow[], sign: 1 | -1): Map<number, Pending>;
  /** A stored pending increment (null: nothing pending) plus a change, stored anew. */
  merge(stored: StoredPending | null, change: Pending): StoredPending;
  /** The threshold noise of a new period. */
  thresholdNoise(): number;
}

/** What the trigger tests of a question: its open period's entering answers and threshold. */
export interface TriggerState {
  questionId: number;
  events: number;
  thresholdNoise: number;
  /** Updates the trigger made (Snapshot.periods): the threshold's doublings. */
  periods: number;
  /**
   * The question's survey was closed after its last snapshot and no close has released the
   * question before: its open period is released once whatever it holds (a public event, not
   * the data, decides; decisions 011 and 021), so a closed survey's results include every
   * answer. Once in the question's life: closing again after a reopen releases nothing.
   */
  closing: boolean;
}

/** What a release reads, locked: the open period, the last snapshot, outcomes and samples. */
export interface ReleaseInput {
  questionId: number;
  pending: StoredPending | null;
  snapshot: Snapshot | null;
  /** The open period's threshold noise (kept by a release the trigger did not make). */
  thresholdNoise: number;
  type: 'Closed' | 'Open';
  choiceIds: number[];
  samples: string[];
}

interface RawCounted {
  respondent_id: number;
  question_id: number;
  kind: CountedRow['kind'];
  profile: string;
  choice_id: number | null;
  is_blank: boolean | null;
  text: string | null;
  score: number | null;
  duration_ms: number | null;
}

const toCounted = (r: RawCounted): CountedRow => ({
  respondentId: r.respondent_id,
  questionId: r.question_id,
  kind: r.kind,
  profile: r.profile,
  choiceId: r.choice_id,
  isBlank: r.is_blank,
  text: r.text,
  score: r.score,
  durationMs: r.duration_ms,
});

/**
 * What of `which` (queue-shaped rows `t(r, q, k)`) counts: the answer, the rating not counted
 * yet, or one answer time when none of the respondent's is counted for the question; only for
 * counting respondents.
 */
const countable = (which: SQL) => sql`
  with t as (${which})
  select t.r as respondent_id, t.q as question_id, t.k as kind, p.profile,
         a.choice_id, a.is_blank, a.text, rt.score, tm.duration_ms
  from t
  join respondents p on p.id = t.r and p.standing = 'counting'
  left join answers a on t.k = 'answer' and a.respondent_id = t.r and a.question_id = t.q
  left join ratings rt on t.k = 'rating' and rt.respondent_id = t.r and rt.question_id = t.q
                       and rt.counted_score is null
  left join lateral (
    select x.duration_ms from timings x
    where t.k = 'timing' and x.respondent_id = t.r and x.question_id = t.q and x.kind = 'answer'
      and not exists (select 1 from timings c where c.respondent_id = t.r
                      and c.question_id = t.q and c.counted)
    order by x.id limit 1) tm on true
  where a.respondent_id is not null or rt.score is not null or tm.duration_ms is not null`;

/** The results tables: the queue, the pending periods, the published snapshots. */
export function createResultsRepository(db: Db) {
  const readSnapshot = db
    .select({ snapshot: questionTallies.snapshot, publishedAt: questionTallies.publishedAt })
    .from(questionTallies)
    .where(eq(questionTallies.questionId, sql.placeholder('questionId')))
    .prepare('read_snapshot');

  /** Takes the results lock and the respondent's row; returns their standing (if any). */
  async function lockStanding(tx: Db, respondentId: number): Promise<string | undefined> {
    await tx.execute(sql`select pg_advisory_xact_lock(${RESULTS_LOCK})`);
    const [me] = rowsOf<{ standing: string }>(
      await tx.execute(sql`select standing from respondents where id = ${respondentId} for update`),
    );
    return me?.standing;
  }

  /**
   * Adds each question's change into its pending increment (rows locked in key order); `held`:
   * a change staff caused, kept apart from what a close may release (Pending.held).
   */
  async function addPending(
    tx: Db,
    rows: CountedRow[],
    sign: 1 | -1,
    counting: Counting,
    held = false,
  ) {
    const changes = counting.toPending(rows, sign);
    if (held) for (const [id, change] of changes) changes.set(id, heldChange(change));
    const ids = [...changes.keys()].sort((a, b) => a - b);
    if (ids.length === 0) return;
    const lock = () =>
      tx.execute(sql`
        select question_id, pending from question_tallies
        where question_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
        order by question_id for update`);
    let locked = rowsOf<{ question_id: number; pending: StoredPending | null }>(await lock());
    if (locked.length < ids.length) {
      // A question counted for the first time: its tally opens with its threshold noise.
      const have = new Set(locked.map((r) => r.question_id));
      for (const id of ids.filter((i) => !have.has(i))) {
        await tx.execute(sql`
          insert into question_tallies (question_id, threshold_noise)
          values (${id}, ${counting.thresholdNoise()}) on conflict (question_id) do nothing`);
      }
      locked = rowsOf<{ question_id: number; pending: StoredPending | null }>(await lock());
    }
    const current = new Map(locked.map((r) => [r.question_id, r.pending]));
    // Every question's new increment in one statement (a fold touches up to every question:
    // one UPDATE each was most of the statements this server sent under load).
    const merged = ids.map((id) => [id, counting.merge(current.get(id) ?? null, changes.get(id)!)]);
    await tx.execute(sql`
      update question_tallies t set pending = e->1
      from jsonb_array_elements(${JSON.stringify(merged)}::jsonb) e
      where t.question_id = (e->>0)::int`);
  }

  return {
    /**
     * Creates the tally of every question that has none, each with its first period's
     * threshold noise (drawn by `thresholdNoise`). Returns how many were created.
     */
    async ensureTallies(thresholdNoise: () => number): Promise<number> {
      const missing = rowsOf<{ id: number }>(
        await db.execute(sql`
          select q.id from questions q
          where not exists (select 1 from question_tallies t where t.question_id = q.id)`),
      );
      for (const { id } of missing) {
        await db.execute(sql`
          insert into question_tallies (question_id, threshold_noise)
          values (${id}, ${thresholdNoise()}) on conflict (question_id) do nothing`);
      }
      return missing.length;
    },

    /**
     * Takes up to FOLD_BATCH rows off the queue and adds what counts of them to their
     * questions' pending increments, in one transaction: a row is counted exactly once even
     * with several processes folding (SKIP LOCKED), and rows of respondents who do not count
     * are dropped (approval queues them again). Returns the rows taken.
     */
    async fold(counting: Counting): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock_shared(${RESULTS_LOCK})`);
        const taken = rowsOf<{ respondent_id: number; question_id: number; kind: string }>(
          await tx.execute(sql`
            delete from results_queue where (respondent_id, question_id, kind) in (
              select respondent_id, question_id, kind from results_queue
              order by question_id limit ${FOLD_BATCH} for update skip locked)
            returning respondent_id, question_id, kind`),
        );
        if (taken.length === 0) return 0;
        const list = JSON.stringify(taken.map((t) => [t.respondent_id, t.question_id, t.kind]));
        const counted = rowsOf<RawCounted>(
          await tx.execute(
            countable(sql`select (e->>0)::int as r, (e->>1)::int as q, (e->>2) as k
                          from jsonb_array_elements(${list}::jsonb) e`),
          ),
        ).map(toCounted);
        // What entered is marked, so leaving later takes out exactly it.
        const rated = counted.filter((r) => r.kind === 'rating');
        if (rated.length > 0) {
          const pairs = JSON.stringify(rated.map((r) => [r.respondentId, r.questionId]));
          await tx.execute(sql`
            update ratings set counted_score = score
            from jsonb_array_elements(${pairs}::jsonb) e
            where respondent_id = (e->>0)::int and question_id = (e->>1)::int`);
        }
        const timed = counted.filter((r) => r.kind === 'timing');
        if (timed.length > 0) {
          const pairs = JSON.stringify(timed.map((r) => [r.respondentId, r.questionId]));
          await tx.execute(sql`
            update timings set counted = true
            where id in (
              select (select x.id from timings x
                      where x.respondent_id = (e->>0)::int and x.question_id = (e->>1)::int
                        and x.kind = 'answer' order by x.id limit 1)
              from jsonb_array_elements(${pairs}::jsonb) e)`);
        }
        await addPending(tx, counted, 1, counting);
        return taken.length;
      });
    },

    /**
     * A counting respondent leaves for good (its credential's answers withdrawn): what of
     * theirs was counted is taken out of their questions' pending increments, what was still
     * queued is dropped, and their standing becomes `left`. Returns whether they were counting.
     */
    async stopCounting(respondentId: number, counting: Counting): Promise<boolean> {
      return db.transaction(async (tx) => {
        if ((await lockStanding(tx, respondentId)) !== 'counting') return false;
        // Only what a fold counted leaves: an answer still queued never entered, and its queue
        // row goes below (taking it out too left a cell one below its truth).
        const counted = rowsOf<RawCounted>(
          await tx.execute(sql`
            select a.respondent_id, a.question_id, 'answer' as kind, p.profile, a.choice_id,
                   a.is_blank, a.text, null::smallint as score, null::int as duration_ms
            from answers a join respondents p on p.id = a.respondent_id
            where a.respondent_id = ${respondentId}
              and not exists (select 1 from results_queue q where q.respondent_id = a.respondent_id
                              and q.question_id = a.question_id and q.kind = 'answer')
            union all
            select r.respondent_id, r.question_id, 'rating', p.profile, null, null, null,
                   r.counted_score, null
            from ratings r join respondents p on p.id = r.respondent_id
            where r.respondent_id = ${respondentId} and r.counted_score is not null
            union all
            select t.respondent_id, t.question_id, 'timing', p.profile, null, null, null, null,
                   t.duration_ms
            from timings t join respondents p on p.id = t.respondent_id
            where t.respondent_id = ${respondentId} and t.counted`),
        ).map(toCounted);
        await tx.execute(sql`delete from results_queue where respondent_id = ${respondentId}`);
        // Held: staff timed this, so no release they can time (a close) may carry it.
        await addPending(tx, counted, -1, counting, true);
        await tx.execute(sql`update respondents set standing = 'left' where id = ${respondentId}`);
        return true;
      });
    },

    /**
     * Every question's trigger state (not locked): what the trigger tests each tick. A survey
     * closing at a scheduled time counts as closing once `now` has reached it.
     */
    async triggers(now: Date): Promise<TriggerState[]> {
      const rows = rowsOf<{
        question_id: number;
        events: number | null;
        threshold_noise: number | null;
        periods: number | null;
        closing: boolean | null;
      }>(
        await db.execute(sql`
          select t.question_id, (t.pending->>'events')::int as events, t.threshold_noise,
                 (t.snapshot->>'periods')::int as periods,
                 (s.published_at is not null
                   and s.closed_at <= ${now.toISOString()}::timestamptz
                   and (t.published_at is null or t.published_at < s.closed_at)
                   and coalesce((t.snapshot->>'closeReleased')::boolean, false) = false)
                   as closing
          from question_tallies t
          join questions q on q.id = t.question_id
          join surveys s on s.id = q.survey_id
          order by t.question_id`),
      );
      return rows.map((r) => ({
        questionId: r.question_id,
        events: r.events ?? 0,
        thresholdNoise: r.threshold_noise ?? 0,
        periods: r.periods ?? 0,
        closing: r.closing === true,
      }));
    },

    /**
     * Ends the open periods of `questionIds` together: locks their tallies (in question order,
     * as a fold does), gives `make` each locked state (with the question's outcomes and its
     * newest approved sample answers, whoever wrote them) and stores the snapshots, next
     * threshold noises and what stays pending (held changes) it returns, in one statement and
     * one commit. `make` may decline one (undefined). Returns the questions released.
     */
    async release(
      questionIds: number[],
      now: Date,
      make: (
        input: ReleaseInput,
      ) =>
        { snapshot: Snapshot; thresholdNoise: number; pending: StoredPending | null } | undefined,
    ): Promise<number[]> {
      if (!questionIds.length) return [];
      const ids = [...new Set(questionIds)].sort((a, b) => a - b);
      return db.transaction(async (tx) => {
        const rows = rowsOf<{
          question_id: number;
          pending: StoredPending | null;
          snapshot: Snapshot | null;
          threshold_noise: number | null;
          type: 'Closed' | 'Open';
          choice_ids: number[] | null;
        }>(
          await tx.execute(sql`
            select t.question_id, t.pending, t.snapshot, t.threshold_noise, q.type,
                   (select coalesce(json_agg(c.id order by c.position), '[]'::json)
                    from choices c where c.question_id = q.id) as choice_ids
            from question_tallies t join questions q on q.id = t.question_id
            where t.question_id = any(${sql.param(ids)}::int[])
            order by t.question_id
            for update of t`),
        );
        const made: Array<[number, ReturnType<typeof make> & object]> = [];
        for (const row of rows) {
          const questionId = row.question_id;
          // Chosen by the texts and their moderation alone, never by their writers' standing:
          // staff change standing, and a text that came or went with a suspension or an
          // approval would name its writer (decision 011, "Samples").
          const samples =
            row.type === 'Open'
              ? rowsOf<{ text: string }>(
                  await tx.execute(sql`
                    select a.text from answers a
                    where a.question_id = ${questionId} and a.moderation = 'approved'
                    order by a.answered_on desc, a.id limit ${SAMPLES}`),
                ).map((r) => r.text)
              : [];
          const one = make({
            questionId,
            pending: row.pending,
            snapshot: row.snapshot,
            thresholdNoise: row.threshold_noise ?? 0,
            type: row.type,
            choiceIds: (row.choice_ids ?? []).map(Number),
            samples,
          });
          if (one) made.push([questionId, one]);
        }
        if (!made.length) return [];
        const stored = made.map(([id, m]) => [id, m.snapshot, m.pending, m.thresholdNoise]);
        await tx.execute(sql`
          update question_tallies t
          set snapshot = e->1, pending = nullif(e->2, 'null'::jsonb),
              threshold_noise = (e->>3)::int, published_at = ${now.toISOString()}::timestamptz
          from jsonb_array_elements(${JSON.stringify(stored)}::jsonb) e
          where t.question_id = (e->>0)::int`);
        return made.map(([id]) => id);
      });
    },

    /** The question's published snapshot, if any: one row by primary key. */
    async readSnapshot(
      questionId: number,
    ): Promise<{ snapshot: Snapshot; publishedAt: Date } | undefined> {
      const [row] = await readSnapshot.execute({ questionId });
      if (!row?.snapshot || !row.publishedAt) return undefined;
      return { snapshot: row.snapshot as Snapshot, publishedAt: row.publishedAt };
    },

    /** The published snapshots of the questions given (those with none are left out). */
    async readSnapshots(questionIds: number[]): Promise<Map<number, Snapshot>> {
      if (!questionIds.length) return new Map();
      const rows = await db
        .select({ questionId: questionTallies.questionId, snapshot: questionTallies.snapshot })
        .from(questionTallies)
        .where(inArray(questionTallies.questionId, questionIds));
      return new Map(
        rows.filter((r) => r.snapshot).map((r) => [r.questionId, r.snapshot as Snapshot]),
      );
    },
  };
}

export type ResultsRepository = ReturnType<typeof createResultsRepository>;
